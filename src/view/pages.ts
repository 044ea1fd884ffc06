/**
 * The viewer's pages, rendered on the server (read-only, no script needed): entries, one entry
 * with its variant ladder side by side, all ladders, trials (or responses, when scores are given)
 * with filters, and one trial with its messages and responses.
 */
import type { Trial } from '../bundle/format.js';
import { CSS } from '../label/assets.js';
import {
  inLang,
  promptText,
  type BundleData,
  type BundleEntry,
  type VariantRecord,
} from '../label/bundle.js';
import { esc } from '../label/http.js';
import type { ScoreRow } from './scores.js';

export interface ViewData {
  bundle: BundleData;
  scores: ScoreRow[] | null;
  /** Where the response texts came from (a scores folder's ledger or responses file), if anywhere. */
  responses?: { kind: 'ledger' | 'responses'; file: string; run: string | null } | null;
}

const VARIANT_NAMES: Record<string, string> = {
  A0: 'original',
  A1: 'crop',
  A2: 'grayscale',
  A3: 'edges',
  A4: 'binary',
  A5: 'low-pass',
  A6: 'silhouette',
};

/** The page shell with the viewer's navigation. */
export function viewShell(data: ViewData, title: string, body: string): string {
  const nav = [
    ['/', 'Entries'],
    ['/ladders', 'Variant ladders'],
    ['/trials', data.scores ? 'Responses' : 'Trials'],
  ]
    .map(([href, label]) => `<a href="${href}">${label}</a>`)
    .join(' ');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · stimkit view</title><style>${CSS}</style></head><body><a class="skip" href="#main">Skip to content</a>
<header class="bar"><h1>stimkit view · ${esc(data.bundle.study.title || data.bundle.study.id)}</h1><nav aria-label="pages">${nav}</nav>
<span class="meta" style="color:#cfd8e0">bundle ${esc(data.bundle.digest.slice(0, 12))}… (read-only)</span></header>
<main id="main"><h2 style="font-size:1.3rem">${esc(title)}</h2>${body}</main></body></html>`;
}

function titles(e: BundleEntry): string {
  return Object.entries(e.title)
    .map(([l, t]) => `<span lang="${esc(l)}">${esc(t)}</span>`)
    .join('<br>');
}

function ladderOf(data: ViewData, entry: string): VariantRecord[] {
  return data.bundle.variants
    .filter((v) => v.entry === entry)
    .sort((a, b) => (a.code < b.code ? -1 : 1));
}

function ladderHtml(records: VariantRecord[]): string {
  return `<div class="ladder">${records
    .map(
      (
        v,
      ) => `<figure><a href="/img/${v.sha256}"><img src="/img/${v.sha256}" alt="${esc(v.entry)} ${esc(v.code)} ${esc(v.name)}" loading="lazy"></a>
<figcaption><strong>${esc(v.code)}</strong> ${esc(VARIANT_NAMES[v.code] ?? v.name)} · ${v.width}×${v.height}</figcaption></figure>`,
    )
    .join('')}</div>`;
}

/** `/`: every entry of the bundle. */
export function entriesPage(data: ViewData): string {
  const rows = [...data.bundle.entries.values()]
    .map((e) => {
      const a0 = ladderOf(data, e.id).find((v) => v.code === 'A0');
      const trials = data.bundle.trials.filter((t) => t.entry === e.id).length;
      return `<tr><td>${a0 ? `<img class="thumb" src="/img/${a0.sha256}" alt="">` : ''}</td><td><a href="/entry/${esc(e.id)}">${esc(e.id)}</a></td><td>${titles(e)}</td>
<td>${esc(e.topic)}</td><td>${esc(e.sensitivity)}</td><td>${esc(e.roles.join(', '))}</td><td>${e.expected_facts.length}</td><td><a href="/trials?entry=${esc(e.id)}">${trials}</a></td></tr>`;
    })
    .join('');
  const body = `<p>${data.bundle.entries.size} entries, ${data.bundle.trials.length} trials. Bundle digest <code>${esc(data.bundle.digest)}</code>.</p>
<table class="data"><thead><tr><th scope="col">A0</th><th scope="col">id</th><th scope="col">title</th><th scope="col">topic</th><th scope="col">sensitivity</th><th scope="col">roles</th><th scope="col">facts</th><th scope="col">trials</th></tr></thead><tbody>${rows}</tbody></table>`;
  return viewShell(data, 'Entries', body);
}

/** `/entry/<id>`: ground truth, provenance, the ladder. */
export function entryPage(data: ViewData, e: BundleEntry): string {
  const facts = e.expected_facts
    .map(
      (f) =>
        `<li><code>${esc(f.id)}</code> ${Object.entries(f)
          .filter(([k, v]) => k !== 'id' && typeof v === 'string')
          .map(([l, v]) => `<span class="alt" lang="${esc(l)}">${esc(l)}: ${esc(v)}</span>`)
          .join('')}</li>`,
    )
    .join('');
  const prov = Object.entries(e.provenance ?? {})
    .filter(([, v]) => v)
    .map(
      ([k, v]) =>
        `<tr><th scope="row">${esc(k)}</th><td>${k === 'source_url' ? `<span>${esc(v)}</span>` : esc(v)}</td></tr>`,
    )
    .join('');
  const ladder = ladderOf(data, e.id);
  const body = `<div class="grid"><section class="panel"><h2>Ground truth</h2><p>${titles(e)}</p><p class="meta">topic ${esc(e.topic)} · sensitivity ${esc(e.sensitivity)} · roles ${esc(e.roles.join(', '))}</p>
${e.notes ? `<p>${esc(e.notes)}</p>` : ''}<h2>Expected facts</h2><ul class="facts">${facts || '<li>—</li>'}</ul></section>
<section class="panel"><h2>Provenance</h2><table class="data">${prov}</table></section></div>
<section class="panel"><h2>Variants in this bundle (${ladder.length})</h2>${ladder.length ? ladderHtml(ladder) : '<p>No image of this entry is shown by any trial.</p>'}
<p><a href="/trials?entry=${esc(e.id)}">Trials of this entry</a></p></section>`;
  return viewShell(data, `Entry ${e.id}`, body);
}

/** `/ladders`: every entry's variants side by side. */
export function laddersPage(data: ViewData): string {
  const body = [...data.bundle.entries.values()]
    .map((e) => ({ e, l: ladderOf(data, e.id) }))
    .filter((x) => x.l.length > 0)
    .sort((a, b) => b.l.length - a.l.length || (a.e.id < b.e.id ? -1 : 1))
    .map(
      (x) =>
        `<section class="panel"><h2><a href="/entry/${esc(x.e.id)}">${esc(x.e.id)}</a> · ${esc(inLang(x.e.title, 'en'))}</h2>${ladderHtml(x.l)}</section>`,
    )
    .join('');
  return viewShell(
    data,
    'Variant ladders',
    `<p>The variants the bundle's trials show (the bundle holds no others).</p>${body}`,
  );
}

/** One row of the trials / responses table. */
export interface ListRow {
  trial: Trial;
  score: ScoreRow | null;
}

export interface ListFilters {
  model: string;
  paradigm: string;
  lang: string;
  variant: string;
  label: string;
  entry: string;
}

function select(name: string, label: string, values: string[], current: string): string {
  const opts = ['', ...values]
    .map(
      (v) =>
        `<option value="${esc(v)}"${v === current ? ' selected' : ''}>${v === '' ? '(any)' : esc(v)}</option>`,
    )
    .join('');
  return `<label for="f-${name}">${esc(label)}<select id="f-${name}" name="${name}">${opts}</select></label>`;
}

/** `/trials`: filterable list. */
export function listPage(
  data: ViewData,
  rows: ListRow[],
  filters: ListFilters,
  options: {
    values: Record<keyof ListFilters, string[]>;
    page: number;
    pageSize: number;
    total: number;
  },
): string {
  const v = options.values;
  const form = `<form class="filters" method="get" action="/trials">
${data.scores ? select('model', 'model', v.model, filters.model) : ''}${select('paradigm', 'paradigm', v.paradigm, filters.paradigm)}${select('lang', 'language', v.lang, filters.lang)}
${select('variant', 'variant', v.variant, filters.variant)}${data.scores ? select('label', 'label is true', v.label, filters.label) : ''}${select('entry', 'entry', v.entry, filters.entry)}
<button type="submit">Filter</button> <a href="/trials">Clear</a></form>`;
  const head = data.scores
    ? '<tr><th scope="col">trial</th><th scope="col">model</th><th scope="col">paradigm</th><th scope="col">lang</th><th scope="col">entry</th><th scope="col">variant</th><th scope="col">response</th><th scope="col">labels</th></tr>'
    : '<tr><th scope="col">trial</th><th scope="col">paradigm</th><th scope="col">lang</th><th scope="col">entry / item</th><th scope="col">variant</th><th scope="col">prompt</th></tr>';
  const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);
  const body = rows
    .map(({ trial: t, score }) => {
      const id = `<a href="/trial/${esc(t.id)}">${esc(t.id)}</a>`;
      const common = `<td>${esc(t.paradigm)}</td><td>${esc(t.lang)}</td><td>${esc(t.entry ?? t.item ?? '')}</td><td>${esc(t.variant ?? '')}</td>`;
      if (!score) return `<tr><td>${id}</td>${common}<td>${esc(cut(promptText(t), 120))}</td></tr>`;
      const tags = Object.entries(score.labels)
        .map(
          ([k, val]) =>
            `<span class="tag${val === 'true' ? ' yes' : ''}">${esc(k)}=${esc(val)}</span>`,
        )
        .join(' ');
      return `<tr><td>${id}</td><td class="nowrap">${esc(score.model)}</td>${common}<td>${esc(cut(score.response ?? '', 160))}</td><td>${tags}</td></tr>`;
    })
    .join('');
  const pages = Math.max(1, Math.ceil(options.total / options.pageSize));
  const q = (page: number) =>
    `/trials?${new URLSearchParams({ ...filters, page: String(page) }).toString()}`;
  const pager = `<nav class="items" aria-label="pages">${options.page > 1 ? `<a class="button" href="${esc(q(options.page - 1))}">Previous page</a>` : ''}
<span>page ${options.page} of ${pages} · ${options.total} ${data.scores ? 'responses' : 'trials'}</span>${options.page < pages ? `<a class="button" href="${esc(q(options.page + 1))}">Next page</a>` : ''}</nav>`;
  return viewShell(
    data,
    data.scores ? 'Responses' : 'Trials',
    `${form}${pager}<table class="data"><thead>${head}</thead><tbody>${body}</tbody></table>${pager}`,
  );
}

/** `/trial/<id>`: the trial as sent, and its responses. */
export function trialPage(data: ViewData, t: Trial, responses: ScoreRow[]): string {
  const parts = t.messages
    .flatMap((m) =>
      m.content.map((p) =>
        p.type === 'text'
          ? `<pre class="verbatim" lang="${esc(t.lang)}">${esc(p.text)}</pre>`
          : `<div class="imgbox" style="max-height:none"><img src="/img/${p.sha256}" alt="image shown with this trial (${esc(t.variant ?? '')})"></div>`,
      ),
    )
    .join('');
  const fields = (
    [
      'paradigm',
      'lang',
      'entry',
      'item',
      'topic',
      'variant',
      'framing',
      'iteration',
      'seed',
      'prompt',
      'models',
    ] as const
  )
    .filter((k) => t[k] !== null)
    .map(
      (k) =>
        `<tr><th scope="row">${k}</th><td>${k === 'entry' ? `<a href="/entry/${esc(t.entry)}">${esc(t.entry)}</a>` : esc(t[k])}</td></tr>`,
    )
    .join('');
  const resp = responses
    .map(
      (
        r,
      ) => `<section class="panel"><h2>${esc(r.model)}</h2>${r.response !== null ? `<pre class="verbatim">${esc(r.response)}</pre>` : '<p class="meta">(no response text in the scores)</p>'}
<p>${Object.entries(r.labels)
        .map(
          ([k, v]) => `<span class="tag${v === 'true' ? ' yes' : ''}">${esc(k)}=${esc(v)}</span>`,
        )
        .join(' ')}</p></section>`,
    )
    .join('');
  const body = `<div class="grid"><section class="panel"><h2>Messages</h2>${parts}</section><section class="panel"><h2>Trial</h2><table class="data">${fields}</table></section></div>
${data.scores ? `<h2>Responses (${responses.length})</h2>${resp || '<p>No response to this trial in the scores.</p>'}` : ''}`;
  return viewShell(data, `Trial ${t.id}`, body);
}
