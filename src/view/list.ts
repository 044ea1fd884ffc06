/**
 * `/trials`: the filterable list. Without scores, the bundle's trials with their prompts; with
 * scores, one row per response: the response itself, readable, and the six audit dimensions as
 * compact columns with the judge that decided them (every other field is on the trial page).
 * The "label is true" filter offers only labels, and the filtered label's column is highlighted.
 */
import type { Trial } from '../bundle/format.js';
import { html, type Html } from '../core/html.js';
import { promptText } from '../label/bundle.js';
import { langDir } from '../languages/lang-tag.js';
import { modelText } from '../label/markup.js';
import {
  changedNote,
  decidingJudge,
  DIMS,
  dimValue,
  forcedChoice,
  isSimulated,
  routeNote,
  shownValue,
  signed,
  type Dim,
} from './dims.js';
import type { ScoreRow } from './scores.js';
import { viewShell, type ViewData } from './shell.js';

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
  /** Full-text search (search.ts). */
  q: string;
  /** The field the rows are sorted by ('' bundle order). */
  sort: string;
}

export interface ListPaging {
  values: Record<keyof ListFilters, string[]>;
  /** 1-based page shown (already within 1 … pages). */
  page: number;
  pageSize: number;
  total: number;
}

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

function select(name: string, label: string, values: string[], current: string): Html {
  const opts = ['', ...values].map(
    (v) =>
      html`<option value="${v}"${v === current ? html` selected` : null}>${v === '' ? '(any)' : v}</option>`,
  );
  return html`<label for="f-${name}">${label}<select id="f-${name}" name="${name}">${opts}</select></label>`;
}

function sortSelect(keys: string[], current: string): Html | null {
  if (keys.length === 0) return null;
  const opts = ['', ...keys].map(
    (k) =>
      html`<option value="${k}"${k === current ? html` selected` : null}>${k === '' ? '(bundle order)' : k}</option>`,
  );
  return html`<label for="f-sort">Sort by<select id="f-sort" name="sort">${opts}</select></label>`;
}

function filterForm(data: ViewData, f: ListFilters, v: ListPaging['values']): Html {
  const scored = !!data.scores;
  // short enough to show whole in the box (size 28): what a search matches
  const what = scored ? 'text, model, trial, entry' : 'prompt, trial, entry';
  return html`<form class="filters" method="get" action="/trials" role="search">
<label for="f-q">Search<input type="search" id="f-q" name="q" value="${f.q}" placeholder="${what}" size="28"></label>
${scored ? select('model', 'Model', v.model, f.model) : null}${select('paradigm', 'Paradigm', v.paradigm, f.paradigm)}${select('lang', 'Language', v.lang, f.lang)}
${select('variant', 'Variant', v.variant, f.variant)}${scored ? select('label', 'Label is true', v.label, f.label) : null}${select('entry', 'Entry', v.entry, f.entry)}${sortSelect(v.sort, f.sort)}
<button type="submit">Filter</button> <a href="/trials">Clear</a></form>`;
}

function trialCell(t: Trial): Html {
  const where = [t.paradigm, t.lang, t.entry ?? t.item ?? '', t.variant ?? ''].filter(Boolean);
  return html`<td data-label="Trial"><a href="/trial/${t.id}"><code class="nowrap">${t.id}</code></a><br><span class="meta"><bdi>${where.join(' · ')}</bdi></span></td>`;
}

/** Which dimension column shows the filtered label, if any. */
function filteredDim(rows: ListRow[], label: string): Dim | null {
  if (!label) return null;
  return (
    DIMS.find((d) => rows.some((r) => r.score && dimValue(r.score, d).field === label)) ?? null
  );
}

function dimCells(s: ScoreRow, filtered: Dim | null): Html {
  const fc = forcedChoice(s);
  if (fc && DIMS.every((d) => dimValue(s, d).value === null)) {
    const stance = fc.stance === null ? '' : ` · stance ${signed(fc.stance)}`;
    return html`<td colspan="${DIMS.length}" data-label="Answer">answer <bdi>${fc.label}</bdi>${stance}</td>`;
  }
  return html`${DIMS.map((d) => {
    const { value } = dimValue(s, d);
    const strategy = d.code === 'D4' && value === 'true' ? s.labels.d4_strategy : undefined;
    const cls = `dim${value !== null && value === d.flag ? ' flag' : ''}${d === filtered ? ' filtered' : ''}`;
    const shown = shownValue(value);
    return html`<td class="${cls}" data-label="${d.code}">${shown}${strategy ? html` <bdi>${strategy}</bdi>` : null}</td>`;
  })}`;
}

function responseRow(
  data: ViewData,
  t: Trial,
  s: ScoreRow,
  filtered: Dim | null,
  label: string,
): Html {
  const text = s.response;
  const resp =
    text === null
      ? html`<span class="meta">(no response text)</span>`
      : modelText(text, t.lang, cut(text, 320), data.bundle.packs);
  const extra = label && !filtered;
  return html`<tr class="row">${trialCell(t)}<td data-label="Model"><bdi>${s.model}</bdi>${isSimulated(s) ? html` <span class="tag sim" title="simulated respondent">SIM</span>` : null}${routeNote(s) ? html`<br><span class="meta"><bdi>${routeNote(s)}</bdi></span>` : null}</td>
<td class="resp" data-label="Response">${changedNote(s)}${resp}</td>${dimCells(s, filtered)}<td class="nowrap" data-label="Judge"><bdi>${decidingJudge(s) ?? '—'}</bdi></td>${extra ? html`<td class="dim filtered" data-label="${label}">${s.labels[label] ?? '—'}</td>` : null}</tr>`;
}

function table(data: ViewData, rows: ListRow[], label: string): Html {
  if (!data.scores) {
    const body = rows.map(
      ({ trial: t }) =>
        html`<tr class="row">${trialCell(t)}<td class="resp" data-label="Prompt"><pre class="verbatim"${langDir(t.lang, data.bundle.packs)}>${cut(promptText(t), 240)}</pre></td></tr>`,
    );
    return html`<table class="data cards"><thead><tr><th scope="col">Trial</th><th scope="col">Prompt</th></tr></thead><tbody>${body}</tbody></table>`;
  }
  const filtered = filteredDim(rows, label);
  const head = html`<tr><th scope="col">Trial</th><th scope="col">Model</th><th scope="col">Response</th>${DIMS.map(
    (d) =>
      html`<th scope="col" class="dim${d === filtered ? ' filtered' : ''}">${d.code}<br><span class="meta">${d.name}</span></th>`,
  )}<th scope="col">Judge</th>${label && !filtered ? html`<th scope="col" class="dim filtered">${label}</th>` : null}</tr>`;
  const body = rows.map(({ trial, score }) => responseRow(data, trial, score!, filtered, label));
  return html`<table class="data cards"><thead>${head}</thead><tbody>${body}</tbody></table>`;
}

/** `/trials`: filterable list. */
export function listPage(
  data: ViewData,
  rows: ListRow[],
  filters: ListFilters,
  paging: ListPaging,
): Html {
  const noun = data.scores ? 'responses' : 'trials';
  const pages = Math.max(1, Math.ceil(paging.total / paging.pageSize));
  const q = (page: number) =>
    `/trials?${new URLSearchParams({ ...filters, page: String(page) }).toString()}`;
  const pager = html`<nav class="items" aria-label="pages">${paging.page > 1 ? html`<a class="button" href="${q(paging.page - 1)}">Previous page</a>` : null}
<span>page ${paging.page} of ${pages} · ${paging.total} ${noun}</span>${paging.page < pages ? html`<a class="button" href="${q(paging.page + 1)}">Next page</a>` : null}</nav>`;
  const content =
    paging.total === 0
      ? html`<p class="empty" role="status">No ${noun} match ${filters.q ? html`the search <q><bdi>${filters.q}</bdi></q> and ` : null}these filters. <a href="/trials">Clear the filters</a></p>`
      : html`${pager}${table(data, rows, filters.label)}${pager}`;
  const title = data.scores ? 'Responses' : 'Trials';
  return viewShell(
    data,
    title,
    '/trials',
    html`${filterForm(data, filters, paging.values)}${content}`,
    true,
  );
}
