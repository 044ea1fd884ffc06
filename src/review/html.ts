/**
 * The review page: one self-contained HTML file (inline CSS, images as data URLs, no scripts, no
 * network) that co-authors and an ethics board read before a study is sealed: per entry a
 * thumbnail, its titles and expected facts in every language side by side, anchor names, its
 * provenance and licence, ingest and variant warnings, and the A0–A6 ladder.
 */
import path from 'node:path';
import { html, safeUrl, trusted, type Html } from '../core/html.js';
import { langDir } from '../languages/lang-tag.js';
import type { LoadedPack } from '../languages/load.js';
import { TOOL } from '../core/tool.js';
import type { ReviewData, ReviewEntry } from './source.js';

/** Pictures of one entry, as data URLs (null: no image). */
export interface EntryPictures {
  thumb: string | null;
  ladder: Array<string | null>;
}

const CSS = `
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI","Noto Sans","Noto Sans CJK SC",sans-serif;margin:0;color:#1d1d1f;background:#f4f5f7}
header{background:#1f2a44;color:#fff;padding:18px 28px}
header h1{margin:0 0 4px;font-size:20px}
header p{margin:2px 0;color:#cfd6e6;overflow-wrap:anywhere}
main{padding:18px 28px;max-width:1400px}
table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid #e3e5ea;padding:5px 8px;text-align:left;vertical-align:top}
th{background:#eef0f4;font-weight:600}
.overview td,.overview th{font-size:13px}
.entry{background:#fff;border:1px solid #dfe2e8;border-radius:8px;margin:18px 0;padding:16px;display:grid;grid-template-columns:minmax(0,320px) minmax(0,1fr);gap:18px;break-inside:avoid}
.entry h2{margin:0;font-size:17px;grid-column:1/-1}
main>h2{font-size:13px;text-transform:uppercase;letter-spacing:.04em;color:#5b6275;margin:14px 0 4px}
.ov{timeline-scope:--ov}.ov .scroll{scroll-timeline:--ov x}
.hint{visibility:hidden;height:0;overflow:hidden;margin:0;font-size:13px;color:#5b6275;animation:scrollable linear both;animation-timeline:--ov}
@keyframes scrollable{from,to{visibility:visible;height:auto;margin:0 0 4px}}
.scroll{background:linear-gradient(to right,#f4f5f7 30%,rgba(244,245,247,0)),linear-gradient(to left,#f4f5f7 30%,rgba(244,245,247,0)) 100% 0,radial-gradient(farthest-side at 0 50%,rgba(0,0,0,.25),transparent),radial-gradient(farthest-side at 100% 50%,rgba(0,0,0,.25),transparent) 100% 0;background-repeat:no-repeat;background-size:40px 100%,40px 100%,14px 100%,14px 100%;background-attachment:local,local,scroll,scroll}
.thumb{width:100%;max-width:320px;height:auto;aspect-ratio:4/3;object-fit:contain;background:#eceef2;border-radius:6px;display:block}
.noimg{width:100%;max-width:320px;aspect-ratio:4/3;display:flex;align-items:center;justify-content:center;background:#fbeaea;color:#9b1c1c;border-radius:6px;text-align:center;padding:10px;overflow-wrap:anywhere}
.tags span{display:inline-block;background:#eef0f4;border-radius:10px;padding:1px 8px;margin:0 4px 4px 0;font-size:12px}
.tags .high{background:#fde2e1;color:#8a1c1c}
.missing{color:#9b1c1c;font-style:italic}
.absent{color:#9aa0ad}
h3{font-size:13px;text-transform:uppercase;letter-spacing:.04em;color:#5b6275;margin:14px 0 4px}
dl{display:grid;grid-template-columns:96px 1fr;gap:2px 10px;margin:0;font-size:13px}
dt{color:#5b6275}
dd{margin:0;overflow-wrap:anywhere}
.warn{background:#fff6e0;border-left:3px solid #e0a100;padding:4px 8px;margin:3px 0;font-size:13px;overflow-wrap:anywhere}
.warn.ok{background:#eaf6ec;border-color:#3a8a4a}
.warn.err{background:#fdecec;border-color:#c62828}
.ladder-wrap{grid-column:1/-1}
.ladder{display:grid;grid-template-columns:repeat(7,minmax(0,1fr));gap:6px}
.scroll{overflow-x:auto}
.ladder figure{margin:0;text-align:center;font-size:12px;color:#5b6275}
.ladder img,.ladder .none{width:100%;aspect-ratio:4/3;object-fit:contain;background:#eceef2;border-radius:4px;display:block}
.ladder .none{display:flex;align-items:center;justify-content:center;font-style:italic}
td.l{white-space:nowrap;color:#5b6275;width:1%}
footer{color:#5b6275;font-size:12px;padding:0 28px 24px}
@media (max-width:760px){header,main{padding-left:12px;padding-right:12px}.entry{grid-template-columns:minmax(0,1fr);padding:12px}.ladder{grid-template-columns:repeat(4,minmax(0,1fr))}}
`;

const tags = (e: ReviewEntry['entry']): Html =>
  html`<div class="tags"><span>${e.topic}</span><span class="${e.sensitivity === 'high' ? 'high' : ''}">sensitivity: ${e.sensitivity}</span>${e.roles.map((r) => html`<span>${r}</span>`)}</div>`;

const MISSING = html`<span class="missing">missing</span>`;
const text = (v: unknown): Html | string => (typeof v === 'string' && v ? v : MISSING);

function textsTable(
  langs: string[],
  rows: Array<[string, Record<string, unknown>]>,
  packs: readonly LoadedPack[],
): Html {
  if (rows.length === 0) return html`<p class="missing">none</p>`;
  return html`<table><thead><tr><th></th>${langs.map((l) => html`<th>${l}</th>`)}</tr></thead><tbody>${rows.map(
    ([label, t]) =>
      html`<tr><td class="l">${label}</td>${langs.map((l) => html`<td${langDir(l, packs)}>${text(t[l])}</td>`)}</tr>`,
  )}</tbody></table>`;
}

/** A provenance value: a link only for an http(s) URL, text otherwise. */
function provenanceValue(field: string, v: unknown): Html | string {
  if (v === undefined)
    return field === 'license' || field === 'credit'
      ? MISSING
      : html`<span class="absent">—</span>`;
  const url = field === 'source_url' ? safeUrl(v) : null;
  if (url) return html`<a href="${url}">${url}</a>`;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function provenance(p: Record<string, unknown>): Html {
  const fields = [
    'archive',
    'source_url',
    'credit',
    'date_taken',
    'date_retrieved',
    'license',
    'notes',
  ];
  return html`<dl>${fields.map(
    (f) =>
      html`<dt>${f === 'license' ? 'licence' : f.replace('_', ' ')}</dt><dd>${provenanceValue(f, p[f])}</dd>`,
  )}</dl>`;
}

/** An image's alt text: the entry's title (first study language that has one), else its id. */
function altTitle(e: ReviewEntry['entry'], langs: string[]): string {
  return [...langs, 'en'].map((l) => e.title[l]).find((v) => typeof v === 'string' && v) ?? e.id;
}

function entrySection(
  r: ReviewEntry,
  pics: EntryPictures,
  langs: string[],
  packs: readonly LoadedPack[],
): Html {
  const e = r.entry;
  const facts = e.expected_facts.map((f): [string, Record<string, unknown>] => [f.id, f]);
  const title = altTitle(e, langs);
  const picture = pics.thumb
    ? html`<img class="thumb" alt="${title}" src="${pics.thumb}">`
    : html`<div class="noimg">image not found<br>${e.image?.file ?? ''}</div>`;
  const warnings = r.warnings.length
    ? r.warnings.map((w) => {
        const err = w.code.startsWith('E_');
        return html`<div class="warn${err ? ' err' : ''}"><b>${w.code}</b> (${w.source} ${err ? 'error' : 'warning'}): ${w.message}</div>`;
      })
    : html`<div class="warn ok">no warnings</div>`;
  const ladder = r.ladder.map((rung, i) => {
    const src = pics.ladder[i];
    return html`<figure>${src ? html`<img alt="${`${title}: ${rung.code} ${rung.name}`}" src="${src}">` : html`<div class="none">${rung.status}</div>`}<figcaption>${rung.code} ${rung.name}</figcaption></figure>`;
  });
  return html`<section class="entry" id="${e.id}" aria-labelledby="${e.id}-h">
<h2 class="name" id="${e.id}-h">${e.id}</h2>
<div>${picture}<h3>Provenance</h3>${provenance(e.provenance)}</div>
<div>${tags(e)}
<h3>Title</h3>${textsTable(langs, [['title', e.title]], packs)}
<h3>Expected facts</h3>${textsTable(langs, facts, packs)}
${e.anchor ? html`<h3>Anchor name (comment-text)</h3>${textsTable(langs, [['name', e.anchor.name]], packs)}` : ''}
<h3>Problems and warnings</h3>${warnings}</div>
<div class="ladder-wrap"><h3>Abstraction ladder A0–A6</h3><div class="ladder">${ladder}</div></div>
</section>`;
}

function overviewTable(data: ReviewData): Html {
  const langs = data.languages;
  const rows = data.entries.map(
    ({ entry: e, warnings }) =>
      html`<tr><td><a href="#${e.id}">${e.id}</a></td>${langs.map((l) => html`<td${langDir(l, data.packs)}>${text(e.title[l])}</td>`)}<td>${e.roles.join(', ')}</td><td>${e.expected_facts.length}</td><td>${text(e.provenance.license)}</td><td>${warnings.length || ''}</td></tr>`,
  );
  // The hint shows only while the table is wider than its box (its scroll timeline is active then).
  return html`<div class="ov"><p class="hint" id="ov-hint">This table is wider than the window: scroll it sideways to see the rest of its columns →</p><div class="scroll" tabindex="0" role="region" aria-label="Overview of the entries"><table class="overview"><thead><tr><th>id</th>${langs.map((l) => html`<th>title (${l})</th>`)}<th>roles</th><th>facts</th><th>licence</th><th>problems</th></tr></thead><tbody>${rows}</tbody></table></div></div>`;
}

/** The whole page. Deterministic: the same data and pictures give the same bytes (no clock). */
export function reviewHtml(data: ReviewData, pictures: EntryPictures[]): string {
  const langs = data.languages;
  const warned = data.entries.filter((e) => e.warnings.length > 0).length;
  const missing = data.entries.filter((e) => !e.image).length;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Corpus review: ${data.corpus}</title><style>${trusted(CSS)}</style></head>
<body><header><h1>Corpus review: ${data.corpus}</h1>
<p>${data.entries.length} entries · languages ${langs.join(', ')} · ${warned} with problems or warnings · ${missing} without an image</p>
<p>from the ${data.kind} ${path.basename(data.input)}${data.notes.map((n) => ` · ${n}`)}</p></header>
<main><h2>Overview</h2>${overviewTable(data)}
${data.entries.map((e, i) => [entrySection(e, pictures[i]!, langs, data.packs ?? []), '\n'])}</main>
<footer>Written by ${TOOL.name} ${TOOL.version} (stimkit review). Thumbnails are reduced copies; the ladder shows the variant files as made.</footer>
</body></html>
`.toString();
}
