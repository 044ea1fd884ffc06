/**
 * `/trials`: the rows the query keeps — the filters, the full-text search `q` — in the order `sort`
 * asks for, one page of them. With a search, every response text is read once (the ledger or
 * responses file is then not read again).
 */
import type { BundleData } from '../label/bundle.js';
import { htmlReply, type Reply, type Request } from '../label/http.js';
import { labelFields } from './dims.js';
import { listPage, type ListFilters, type ListRow } from './list.js';
import { matchesQuery, searchForm, sortKeys, sortRows } from './search.js';
import { truthy, type ScoreRow } from './scores.js';
import type { ViewData } from './shell.js';

const PAGE_SIZE = 50;

/** What the list is made from (loaded once by serve.ts). */
export interface ListState {
  data: ViewData;
  bundle: BundleData;
  scores: ScoreRow[] | null;
  /** The values each list filter offers, and the sort keys. */
  values: Record<keyof ListFilters, string[]>;
  /** Read the texts of these rows (once each). */
  withTexts: (rows: ScoreRow[]) => Promise<void>;
}

/** The page asked for, within 1 … the last page (`?page=99999` shows the last page). */
function pageNumber(asked: string | null, rows: number): number {
  const pages = Math.max(1, Math.ceil(rows / PAGE_SIZE));
  const n = Number.parseInt(asked ?? '1', 10);
  return Number.isFinite(n) ? Math.min(pages, Math.max(1, n)) : 1;
}

/** The values each list filter (and the sort) offers, sorted. */
export function filterValues(
  bundle: BundleData,
  scores: ScoreRow[] | null,
): Record<keyof ListFilters, string[]> {
  const uniq = (xs: Array<string | null | undefined>) =>
    [...new Set(xs.filter((x): x is string => !!x))].sort();
  const labels = labelFields(scores ?? []);
  return {
    model: uniq(scores?.map((s) => s.model) ?? []),
    paradigm: uniq(bundle.trials.map((t) => t.paradigm)),
    lang: uniq(bundle.trials.map((t) => t.lang)),
    variant: uniq(bundle.trials.map((t) => t.variant)),
    label: labels,
    entry: uniq(bundle.trials.map((t) => t.entry)),
    q: [],
    sort: sortKeys(scores, labels),
  };
}

/** The filters a query asks for (a sort the list does not offer is bundle order). */
function filtersOf(state: ListState, req: Request): ListFilters {
  const f: ListFilters = {
    model: '',
    paradigm: '',
    lang: '',
    variant: '',
    label: '',
    entry: '',
    q: '',
    sort: '',
  };
  for (const k of Object.keys(f) as Array<keyof ListFilters>) f[k] = req.query.get(k) ?? '';
  if (!state.values.sort.includes(f.sort)) f.sort = '';
  return f;
}

/** `/trials`. */
export async function trialsReply(state: ListState, req: Request): Promise<Reply> {
  const { bundle, scores } = state;
  const f = filtersOf(state, req);
  const base: ListRow[] = scores
    ? scores.map((s) => ({ trial: bundle.trialById.get(s.trial_id)!, score: s }))
    : bundle.trials.map((t) => ({ trial: t, score: null }));
  const query = searchForm(f.q.trim());
  if (query && scores) await state.withTexts(scores);
  const rows = base.filter(
    (r) =>
      (!f.paradigm || r.trial.paradigm === f.paradigm) &&
      (!f.lang || r.trial.lang === f.lang) &&
      (!f.variant || r.trial.variant === f.variant) &&
      (!f.entry || r.trial.entry === f.entry) &&
      (!f.model || r.score?.model === f.model) &&
      (!f.label || truthy(r.score?.labels[f.label])) &&
      (!query || matchesQuery(r, query)),
  );
  const sorted = sortRows(rows, f.sort);
  const page = pageNumber(req.query.get('page'), sorted.length);
  const shown = sorted.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  await state.withTexts(shown.flatMap((r) => (r.score ? [r.score] : [])));
  return htmlReply(
    listPage(state.data, shown, f, {
      values: state.values,
      page,
      pageSize: PAGE_SIZE,
      total: sorted.length,
    }),
  );
}
