/**
 * The style sheet shared by the rater app and the viewer, served as a file of its own
 * (`/static/app.css`: the pages' Content-Security-Policy allows no inline style). No CDN, no
 * framework. Sizes are in rem so that the pages reflow at 200 % zoom and at phone width (two
 * columns become one, wide tables become cards); the font stack puts a CJK font with the glyphs
 * (Noto Sans CJK SC on Debian; its Traditional faces for zh-Hant and Hong Kong text), then the Arabic
 * (Uyghur) and Tibetan Noto fonts, before the generic family. Model and corpus text carries its
 * `dir`: a right-to-left block stays so whatever it starts with (`unicode-bidi: isolate`; only a
 * text of undetermined language, `dir="auto"`, takes each paragraph's own direction).
 */
const FONT_STACK =
  '"Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "WenQuanYi Micro Hei", "Noto Sans Arabic", "Noto Naskh Arabic", "Noto Serif Tibetan", system-ui, sans-serif';

const BASE = `
*{box-sizing:border-box}
html{font-family:${FONT_STACK};font-size:100%;line-height:1.5;color:#1b1b1b;background:#f6f6f4}
body{margin:0}
a{color:#0b57a4}
:focus-visible{outline:3px solid #d14900;outline-offset:2px}
code{overflow-wrap:anywhere}
header.bar{display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;align-items:center;padding:.5rem 1rem;background:#20303f;color:#fff}
header.bar h1{font-size:1.05rem;margin:0;font-weight:600;overflow-wrap:anywhere}
header.bar a{color:#fff}
header.bar nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem}
header.bar .meta{color:#cfd8e0}
@media (min-width:70rem){header.bar{position:sticky;top:0;z-index:5}}
main{padding:1rem;max-width:110rem;margin:0 auto}
.grid{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1rem;align-items:start}
@media (max-width:70rem){.grid{grid-template-columns:minmax(0,1fr)}}
section.panel{background:#fff;border:1px solid #d8d8d2;border-radius:.4rem;padding:.75rem 1rem;margin-bottom:1rem}
h2{font-size:1rem;margin:.25rem 0 .5rem;color:#20303f}
h2.page{font-size:1.3rem}
h3{font-size:.95rem;margin:.5rem 0 .25rem;color:#20303f}
.meta{color:#555;font-size:.9rem}
.imgbox{width:fit-content;max-width:100%;overflow:auto;max-height:75vh;border:1px solid #ccc;background:#eee;cursor:zoom-in}
.imgbox img{display:block;max-width:100%;height:auto}
.imgbox.full{cursor:zoom-out}
.imgbox.full img{max-width:none;max-height:none}
.imgbox.whole{max-height:none;cursor:auto}
pre.verbatim{white-space:pre-wrap;overflow-wrap:anywhere;font-family:inherit;font-size:1rem;background:#fbfbf8;border:1px solid #e2e2dc;padding:.6rem .75rem;margin:0;border-radius:.3rem;unicode-bidi:isolate}
pre.verbatim[dir=auto]{unicode-bidi:plaintext}
:lang(zh-Hant),:lang(zh-TW){font-family:"Noto Sans CJK TC","Noto Sans TC","PingFang TC","Microsoft JhengHei",${FONT_STACK}}
:lang(zh-HK),:lang(zh-Hant-HK){font-family:"Noto Sans CJK HK","Noto Sans HK","PingFang HK",${FONT_STACK}}
kbd{font-family:inherit;font-size:.85rem;line-height:1.2;border:1px solid #999;border-bottom-width:2px;border-radius:.2rem;padding:0 .25rem;background:#f4f4f4;color:#333}
.button,button{font:inherit;display:inline-block;padding:.4rem .9rem;border:1px solid #20303f;border-radius:.3rem;background:#fff;color:#20303f;text-decoration:none;cursor:pointer}
.button.primary{background:#20303f;color:#fff}
.button[aria-disabled=true]{opacity:.45;pointer-events:none}
nav.items{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin:.5rem 0}
.scroll{overflow-x:auto;max-width:100%}
table.data{border-collapse:collapse;width:100%;font-size:.95rem;background:#fff}
table.data th,table.data td{border:1px solid #d8d8d2;padding:.3rem .5rem;text-align:left;vertical-align:top;overflow-wrap:break-word}
.nowrap,code.nowrap{white-space:nowrap;overflow-wrap:normal}
table.data th{background:#eef0f2}
td.disagree,th.disagree{background:#fde7d9}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:.5rem;z-index:9;background:#fff;padding:.25rem}
`;

const LABEL = `
.progress{display:flex;align-items:center;gap:.5rem}
progress{width:10rem;max-width:40vw;height:.8rem}
#status{min-width:8rem;font-size:.9rem}
#status.err{color:#ffb199;font-weight:600}
.langs{display:inline-flex;gap:.25rem;align-items:center}
.langs button{padding:.05rem .5rem;background:transparent;color:#fff;border-color:#9fb0c0}
.langs button[aria-pressed=true]{background:#fff;color:#20303f;font-weight:600}
.label-grid{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1rem;align-items:start}
@media (min-width:70rem){.label-grid>.col-view.fits{position:sticky;top:calc(var(--bar,3.5rem) + .5rem)}
.col-view .imgbox:not(.full) img{max-height:36vh;width:auto}}
.more{position:sticky;bottom:0;margin:.5rem 0 0;padding:.35rem .75rem;background:#20303f;color:#fff;border-radius:.3rem;font-weight:600}
@media (max-width:70rem){.label-grid{grid-template-columns:minmax(0,1fr)}}
ul.facts{margin:.25rem 0;padding-left:1.25rem}
ul.facts .alt{display:block;color:#555;font-size:.9rem}
fieldset.q{border:2px solid #d8d8d2;border-radius:.4rem;margin:0 0 .75rem;padding:.5rem .75rem;min-width:0}
fieldset.q.current{border-color:#d14900;background:#fff8f2}
fieldset.q legend{font-weight:600;padding:0 .25rem}
fieldset.q p.guide{margin:.25rem 0 .5rem;font-size:.95rem;color:#333}
.opts{display:flex;flex-wrap:wrap;gap:.5rem 1rem}
.opts label{display:inline-flex;align-items:center;gap:.35rem;padding:.3rem .6rem;border:1px solid #bbb;border-radius:.3rem;background:#fff;cursor:pointer}
.opts label:has(input:checked){border-color:#0b57a4;background:#e6f0fb;font-weight:600}
.opts input{width:1.1rem;height:1.1rem;margin:0}
fieldset.dt{margin:0 0 .75rem 1.5rem;min-width:0}
textarea{width:100%;min-height:5rem;font:inherit;padding:.4rem}
.done{background:#e9f6ea;border:1px solid #8cc78f;padding:.5rem .75rem;border-radius:.3rem}
#hint{position:fixed;left:50%;bottom:1rem;transform:translateX(-50%);max-width:calc(100vw - 2rem);z-index:8}
#hint:not(:empty){background:#fff4e5;border:2px solid #d14900;border-radius:.3rem;padding:.5rem .75rem;box-shadow:0 2px 8px rgba(0,0,0,.2)}
footer.keys{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center;max-width:110rem;margin:0 auto;padding:0 1rem 1rem}
.keys-off{color:#7a3000}
dialog#help{width:min(42rem,calc(100vw - 2rem));max-height:calc(100vh - 2rem);border:1px solid #20303f;border-radius:.4rem;padding:1rem}
dialog#help::backdrop{background:rgba(20,30,40,.45)}
dialog#help .close{float:right}
label.toggle{display:inline-flex;align-items:center;gap:.4rem}
`;

const VIEW = `
.banner{padding:.6rem 1rem;font-weight:600}
.banner.sim{background:#7a1f00;color:#fff}
.banner.warn{background:#fff4e5;color:#5a2500;border-bottom:2px solid #d14900}
.models{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(18rem,100%),1fr));gap:0 1rem;align-items:start}
tr.row.current{outline:3px solid #d14900;outline-offset:-3px}
input[type=search]{font:inherit;padding:.2rem .3rem;max-width:100%}
.tag{display:inline-block;border:1px solid #aaa;border-radius:.2rem;padding:0 .3rem;font-size:.85rem}
.tag.sim{background:#7a1f00;border-color:#7a1f00;color:#fff;font-weight:600}
.ladder{display:flex;flex-wrap:wrap;gap:.75rem}
.ladder figure{flex:1 1 0;min-width:8.5rem;max-width:13rem;margin:0;background:#fff;border:1px solid #d8d8d2;padding:.4rem}
.ladder img{max-width:100%;height:auto;display:block;background:#eee}
.ladder figcaption{font-size:.9rem}
form.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end;margin-bottom:1rem}
form.filters label{display:flex;flex-direction:column;font-size:.9rem;max-width:100%}
select,input[type=text]{font:inherit;padding:.2rem .3rem;max-width:100%}
.thumb{max-width:6rem;max-height:4.5rem;width:auto;height:auto}
td.resp{min-width:16rem}
td.resp .verbatim{padding:.3rem .45rem;font-size:.95rem;background:transparent;border:0}
th.dim,td.dim{text-align:center;font-size:.85rem;width:4.5rem}
td.dim{white-space:nowrap}
td.dim.flag{background:#fde7d9;font-weight:600}
th.filtered,td.filtered{box-shadow:inset 0 0 0 2px #d14900;background:#fff3e6}
td.dim.flag.filtered{background:#fbd3b8}
.empty{background:#fff;border:1px dashed #999;padding:.75rem 1rem;border-radius:.3rem}
dl.fields{display:grid;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));gap:.1rem 1rem;margin:.5rem 0 0;font-size:.9rem}
dl.fields div{display:flex;gap:.5rem;border-bottom:1px solid #eee;min-width:0}
dl.fields dt{color:#555;flex:none}
dl.fields dd{margin:0;overflow-wrap:anywhere;min-width:0}
.msg{margin-bottom:.75rem}
@media (max-width:50rem){
table.cards,table.cards tbody,table.cards tr,table.cards td{display:block;width:auto}
table.cards thead{position:absolute;left:-9999px}
table.cards tr{border:1px solid #d8d8d2;border-radius:.3rem;margin-bottom:.75rem;background:#fff}
table.cards td{border:0;border-bottom:1px solid #eee}
table.cards td[data-label]::before{content:attr(data-label) ": ";font-weight:600;color:#555}
table.cards td.dim{display:inline-block;width:auto;border:1px solid #ddd;margin:.2rem}
table.cards td.resp{min-width:0}}
`;

/** The whole style sheet. */
export const CSS = `${BASE}${LABEL}${VIEW}`;
