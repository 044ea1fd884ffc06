/**
 * The style sheet shared by the rater app and the viewer, served inline: no CDN, no framework.
 * Sizes are in rem so that the page reflows at 200 % zoom (two columns become one); the font
 * stack puts a CJK font with the glyphs (Noto Sans CJK SC on Debian) before the generic family.
 */
export const FONT_STACK =
  '"Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "WenQuanYi Micro Hei", system-ui, sans-serif';

export const CSS = `
*{box-sizing:border-box}
html{font-family:${FONT_STACK};font-size:100%;line-height:1.5;color:#1b1b1b;background:#f6f6f4}
body{margin:0}
a{color:#0b57a4}
:focus-visible{outline:3px solid #d14900;outline-offset:2px}
header.bar{display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;align-items:center;padding:.5rem 1rem;background:#20303f;color:#fff}
header.bar h1{font-size:1.05rem;margin:0;font-weight:600}
header.bar a{color:#fff}
header.bar nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem}
@media (min-width:70rem){header.bar{position:sticky;top:0;z-index:5}}
td.nowrap{white-space:nowrap}
.progress{display:flex;align-items:center;gap:.5rem}
progress{width:10rem;height:.8rem}
#status{min-width:8rem;font-size:.9rem}
#status.err{color:#ffb199;font-weight:600}
main{padding:1rem;max-width:110rem;margin:0 auto}
.grid{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1rem}
@media (max-width:70rem){.grid{grid-template-columns:minmax(0,1fr)}}
section.panel{background:#fff;border:1px solid #d8d8d2;border-radius:.4rem;padding:.75rem 1rem;margin-bottom:1rem}
h2{font-size:1rem;margin:.25rem 0 .5rem;color:#20303f}
.meta{color:#555;font-size:.9rem}
.imgbox{width:fit-content;max-width:100%;overflow:auto;max-height:75vh;border:1px solid #ccc;background:#eee;cursor:zoom-in}
.imgbox img{display:block;max-width:100%;height:auto}
.imgbox.full{cursor:zoom-out}
.imgbox.full img{max-width:none}
pre.verbatim{white-space:pre-wrap;overflow-wrap:anywhere;font-family:inherit;font-size:1rem;background:#fbfbf8;border:1px solid #e2e2dc;padding:.6rem .75rem;margin:0;border-radius:.3rem}
ul.facts{margin:.25rem 0;padding-left:1.25rem}
ul.facts .alt{display:block;color:#555;font-size:.9rem}
fieldset.q{border:2px solid #d8d8d2;border-radius:.4rem;margin:0 0 .75rem;padding:.5rem .75rem}
fieldset.q.current{border-color:#d14900;background:#fff8f2}
fieldset.q legend{font-weight:600;padding:0 .25rem}
fieldset.q p.guide{margin:.25rem 0 .5rem;font-size:.95rem;color:#333}
.opts{display:flex;flex-wrap:wrap;gap:.5rem 1rem}
.opts label{display:inline-flex;align-items:center;gap:.35rem;padding:.3rem .6rem;border:1px solid #bbb;border-radius:.3rem;background:#fff;cursor:pointer}
.opts label:has(input:checked){border-color:#0b57a4;background:#e6f0fb;font-weight:600}
.opts input{width:1.1rem;height:1.1rem;margin:0}
kbd{font-family:ui-monospace,monospace;font-size:.8rem;border:1px solid #999;border-bottom-width:2px;border-radius:.2rem;padding:0 .25rem;background:#f4f4f4;color:#333}
fieldset.dt{margin-left:1.5rem}
textarea{width:100%;min-height:5rem;font:inherit;padding:.4rem}
nav.items{display:flex;flex-wrap:wrap;gap:.5rem;margin:.5rem 0}
.button,button{font:inherit;display:inline-block;padding:.4rem .9rem;border:1px solid #20303f;border-radius:.3rem;background:#fff;color:#20303f;text-decoration:none;cursor:pointer}
.button.primary{background:#20303f;color:#fff}
.button[aria-disabled=true]{opacity:.45;pointer-events:none}
.done{background:#e9f6ea;border:1px solid #8cc78f;padding:.5rem .75rem;border-radius:.3rem}
table.data{border-collapse:collapse;width:100%;font-size:.95rem;background:#fff}
table.data th,table.data td{border:1px solid #d8d8d2;padding:.3rem .5rem;text-align:left;vertical-align:top}
table.data th{background:#eef0f2}
td.disagree,th.disagree{background:#fde7d9}
.ladder{display:flex;flex-wrap:wrap;gap:.75rem}
.ladder figure{margin:0;background:#fff;border:1px solid #d8d8d2;padding:.4rem;width:13rem}
.ladder img{max-width:100%;height:auto;display:block;background:#eee}
.ladder figcaption{font-size:.9rem}
form.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end;margin-bottom:1rem}
form.filters label{display:flex;flex-direction:column;font-size:.9rem}
select,input[type=text]{font:inherit;padding:.2rem .3rem}
.thumb{max-width:6rem;max-height:4.5rem}
.tag{display:inline-block;border:1px solid #aaa;border-radius:.2rem;padding:0 .3rem;font-size:.85rem;margin-right:.2rem}
.tag.yes{background:#fde7d9;border-color:#d98b5f}
#help[hidden]{display:none}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:.5rem;z-index:9;background:#fff;padding:.25rem}
`;
