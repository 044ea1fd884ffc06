/**
 * The viewer's bundle pages, rendered on the server: every entry, one entry with its ground
 * truth, provenance and variant ladder (A0–A6 side by side), and all ladders. The lists are in
 * list.ts, one trial in trial.ts. Every text goes through core/html.ts's `html`; links made from
 * data only through `safeUrl`.
 */
import { html, safeUrl, type Html } from '../core/html.js';
import { langDir } from '../languages/lang-tag.js';
import type { LoadedPack } from '../languages/load.js';
import { inLang, type BundleEntry, type VariantRecord } from '../label/bundle.js';
import { viewShell, type ViewData } from './shell.js';

export type { ViewData } from './shell.js';

function titles(e: BundleEntry, packs: readonly LoadedPack[]): Html {
  return html`${Object.entries(e.title).map(
    ([l, t], i) => html`${i ? html`<br>` : null}<span${langDir(l, packs)}><bdi>${t}</bdi></span>`,
  )}`;
}

/** The variant records of one entry, A0 first. */
function ladderOf(data: ViewData, entry: string): VariantRecord[] {
  return data.bundle.variants
    .filter((v) => v.entry === entry)
    .sort((a, b) => (a.code < b.code ? -1 : 1));
}

/** The ladder: one figure per variant, named as in the report (`A5 lowpass`). */
function ladderHtml(records: VariantRecord[]): Html {
  return html`<div class="ladder">${records.map(
    (
      v,
    ) => html`<figure><a href="/img/${v.sha256}"><img src="/img/${v.sha256}" width="${v.width}" height="${v.height}" alt="${v.entry} ${v.code} ${v.name}" loading="lazy"></a>
<figcaption><strong>${v.code}</strong> <bdi>${v.name}</bdi> · ${v.width}×${v.height}</figcaption></figure>`,
  )}</div>`;
}

/** `/`: every entry of the bundle. */
export function entriesPage(data: ViewData): Html {
  const rows = [...data.bundle.entries.values()].map((e) => {
    const a0 = ladderOf(data, e.id).find((v) => v.code === 'A0');
    const trials = data.bundle.trials.filter((t) => t.entry === e.id).length;
    const thumb = a0
      ? html`<img class="thumb" src="/img/${a0.sha256}" width="${a0.width}" height="${a0.height}" alt="">`
      : null;
    return html`<tr><td>${thumb}</td><td data-label="Entry"><a href="/entry/${encodeURIComponent(e.id)}"><bdi>${e.id}</bdi></a></td><td data-label="Title">${titles(e, data.bundle.packs)}</td>
<td data-label="Topic"><bdi>${e.topic}</bdi></td><td data-label="Sensitivity"><bdi>${e.sensitivity}</bdi></td><td data-label="Roles"><bdi>${e.roles.join(', ')}</bdi></td><td data-label="Expected facts">${e.expected_facts.length}</td><td data-label="Trials"><a href="/trials?entry=${encodeURIComponent(e.id)}">${trials}</a></td></tr>`;
  });
  const body = html`<p>${data.bundle.entries.size} entries, ${data.bundle.trials.length} trials. Bundle digest <code>${data.bundle.digest}</code>.</p>
<table class="data cards"><thead><tr><th scope="col">A0</th><th scope="col">Entry</th><th scope="col">Title</th><th scope="col">Topic</th><th scope="col">Sensitivity</th><th scope="col">Roles</th><th scope="col">Expected facts</th><th scope="col">Trials</th></tr></thead><tbody>${rows}</tbody></table>`;
  return viewShell(data, 'Entries', '/', body);
}

const PROVENANCE: Record<string, string> = {
  archive: 'Archive',
  source_url: 'Source',
  credit: 'Credit',
  date_taken: 'Date taken',
  date_retrieved: 'Date retrieved',
  license: 'License',
  notes: 'Notes',
};

/** A provenance value: `source_url` a link only when it is an http(s) URL. */
function provenanceValue(key: string, value: string): Html {
  const url = key === 'source_url' ? safeUrl(value) : null;
  return url
    ? html`<a href="${url}" rel="noopener noreferrer" target="_blank"><bdi>${value}</bdi></a>`
    : html`<bdi>${value}</bdi>`;
}

/** `/entry/<id>`: ground truth, provenance, the ladder. */
export function entryPage(data: ViewData, e: BundleEntry): Html {
  const facts = e.expected_facts.map(
    (f) =>
      html`<li><code><bdi>${f.id}</bdi></code> ${Object.entries(f)
        .filter(([k, v]) => k !== 'id' && typeof v === 'string')
        .map(
          ([l, v]) =>
            html`<span class="alt"${langDir(l, data.bundle.packs)}><bdi>${l}</bdi>: <bdi>${v as string}</bdi></span>`,
        )}</li>`,
  );
  const prov = Object.entries(e.provenance ?? {})
    .filter((kv): kv is [string, string] => !!kv[1])
    .map(
      ([k, v]) =>
        html`<tr><th scope="row">${PROVENANCE[k] ?? k.replace(/_/g, ' ')}</th><td>${provenanceValue(k, String(v))}</td></tr>`,
    );
  const ladder = ladderOf(data, e.id);
  const body = html`<div class="grid"><section class="panel"><h2>Ground truth</h2><p>${titles(e, data.bundle.packs)}</p><p class="meta">topic <bdi>${e.topic}</bdi> · sensitivity <bdi>${e.sensitivity}</bdi> · roles <bdi>${e.roles.join(', ')}</bdi></p>
${e.notes ? html`<p><bdi>${e.notes}</bdi></p>` : null}<h2>Expected facts</h2><ul class="facts">${facts.length ? facts : html`<li>—</li>`}</ul></section>
<section class="panel"><h2>Provenance</h2><div class="scroll"><table class="data">${prov}</table></div></section></div>
<section class="panel"><h2>Variants in this bundle (${ladder.length})</h2>${ladder.length ? ladderHtml(ladder) : html`<p>No image of this entry is shown by any trial.</p>`}
<p><a href="/trials?entry=${encodeURIComponent(e.id)}">Trials of this entry</a></p></section>`;
  return viewShell(data, `Entry ${e.id}`, '', body);
}

/** `/ladders`: every entry's variants side by side. */
export function laddersPage(data: ViewData): Html {
  const sections = [...data.bundle.entries.values()]
    .map((e) => ({ e, l: ladderOf(data, e.id) }))
    .filter((x) => x.l.length > 0)
    .sort((a, b) => b.l.length - a.l.length || (a.e.id < b.e.id ? -1 : 1))
    .map(
      (x) =>
        html`<section class="panel"><h2><a href="/entry/${encodeURIComponent(x.e.id)}"><bdi>${x.e.id}</bdi></a> · <bdi>${inLang(x.e.title, 'en')}</bdi></h2>${ladderHtml(x.l)}</section>`,
    );
  return viewShell(
    data,
    'Variant ladders',
    '/ladders',
    html`<p>The variants the bundle's trials show (the bundle holds no others).</p>${sections}`,
  );
}

/** Any address the viewer does not know (status 404): what there is, and the way back. */
export function notFoundPage(data: ViewData, address: string): Html {
  const body = html`<p>Nothing is at <code><bdi>${address}</bdi></code> in this bundle: the entry or trial may not be in it, or the address may be mistyped.</p>
<ul><li><a href="/">Entries</a> (${data.bundle.entries.size})</li><li><a href="/trials">${data.scores ? 'Responses' : 'Trials'}</a>, with a search box</li><li><a href="/ladders">Variant ladders</a></li></ul>`;
  return viewShell(data, 'Not found', '', body);
}
