/**
 * The list's full-text search and sort. Search is a substring match on NFC-normalised, lower-cased
 * text — never split into words, so a Chinese query finds its characters wherever they stand —
 * over the response text (with scores) or the prompt (without), the model, the trial id and the
 * entry. Sort orders the rows by the outcome or by one label's value (true before false, so that
 * the rows a label holds for come first; numbers by value; rows without the field last), ties kept
 * in bundle order.
 */
import { promptText } from '../label/bundle.js';
import type { ListRow } from './list.js';
import type { ScoreRow } from './scores.js';

/** The form every text and query is compared in. */
export const searchForm = (s: string): string => s.normalize('NFC').toLowerCase();

/** Whether `row` holds `query` (already in `searchForm`, not empty). */
export function matchesQuery(row: ListRow, query: string): boolean {
  const t = row.trial;
  const fields = [t.id, t.entry ?? '', t.item ?? ''];
  if (row.score) fields.push(row.score.model, row.score.response ?? '');
  else fields.push(promptText(t));
  return fields.some((f) => searchForm(f).includes(query));
}

/** The sort the list offers besides bundle order: `outcome`, then each label field. */
export function sortKeys(scores: ScoreRow[] | null, labels: string[]): string[] {
  if (!scores) return [];
  const outcome = scores.some((s) => s.labels.outcome !== undefined) ? ['outcome'] : [];
  return [...outcome, ...labels.filter((l) => l !== 'outcome')];
}

/** true before false: a label sorted shows the rows it holds for first. */
const TRUTH: Record<string, number> = { true: 0, false: 1 };

function compare(a: string | undefined, b: string | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1;
  if (a in TRUTH && b in TRUTH) return TRUTH[a]! - TRUTH[b]!;
  const x = Number(a);
  const y = Number(b);
  if (a.trim() !== '' && b.trim() !== '' && Number.isFinite(x) && Number.isFinite(y)) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `rows` ordered by the field `key` of their scores (stable: ties keep their order). */
export function sortRows(rows: ListRow[], key: string): ListRow[] {
  if (!key) return rows;
  return rows
    .map((r, i) => ({ r, i }))
    .sort((p, q) => compare(p.r.score?.labels[key], q.r.score?.labels[key]) || p.i - q.i)
    .map((x) => x.r);
}
