/**
 * The report's outcome rule, as `stimkit analyze` applies it (analyze/outcomes.ts): the rates,
 * tests and models of a response-derived table (audit.csv, instrument.csv, judges.csv) use the
 * rows whose outcome gives their values (answers; for D1 also the model's structured refusals,
 * whose other cells are empty), and every table and chart built from such a table says so, with
 * the rows left out per outcome, in one sentence made here. Which tables a section read (directly
 * or through `ctx.memo`) is followed with AsyncLocalStorage, so no section repeats the text.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { defaultOutcomes, OUTCOME_NAMES } from '../analyze/outcomes.js';
import type { SectionContent } from './types.js';

/** The tables whose rows the rule selects, and the outcomes kept in each. */
const SELECTED: Record<string, readonly string[]> = {
  'audit.csv': defaultOutcomes('d1_refusal'),
  'instrument.csv': defaultOutcomes('score'),
  'judges.csv': defaultOutcomes(null),
};

/** The column of a table whose empty cells among the kept rows the sentence counts (by `reason`). */
const VALUE_COLUMN: Record<string, string> = { 'instrument.csv': 'score' };

/** What the rule did to one table. */
export interface OutcomeNote {
  file: string;
  outcomes: readonly string[];
  kept: number;
  left_out: Record<string, number>;
  /** Kept rows whose VALUE_COLUMN cell is empty, by reason (no_rules_for_language …); absent for other tables. */
  empty?: { column: string; by_reason: Record<string, number> };
}

/** The rows of `file` the rule keeps (all rows of other tables, or of a table without outcomes). */
export function selectRows<R extends Record<string, string>>(
  file: string,
  header: readonly string[],
  rows: R[],
): { rows: R[]; leftOut: R[]; note: OutcomeNote | null } {
  const outcomes = SELECTED[file];
  if (!outcomes || !header.includes('outcome')) return { rows, leftOut: [], note: null };
  const kept: R[] = [];
  const leftOut: R[] = [];
  const left: Record<string, number> = {};
  for (const r of rows) {
    const o = r.outcome === '' || r.outcome === undefined ? 'unrecorded' : r.outcome;
    if (outcomes.includes(o)) kept.push(r);
    else {
      leftOut.push(r);
      left[o] = (left[o] ?? 0) + 1;
    }
  }
  const rank = (o: string) => (OUTCOME_NAMES as readonly string[]).indexOf(o) >>> 0;
  const left_out = Object.fromEntries(
    Object.entries(left).sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : 1)),
  );
  const column = VALUE_COLUMN[file];
  const empty = column && header.includes(column) ? emptyCells(kept, column) : undefined;
  return {
    rows: kept,
    leftOut,
    note: { file, outcomes, kept: kept.length, left_out, ...(empty ? { empty } : {}) },
  };
}

/** The rows whose `column` is empty, counted by their `reason` (`unrecorded` without one). */
function emptyCells(
  rows: ReadonlyArray<Record<string, string>>,
  column: string,
): OutcomeNote['empty'] {
  const by: Record<string, number> = {};
  for (const r of rows)
    if (r[column] === '') {
      const why = r.reason || 'unrecorded';
      by[why] = (by[why] ?? 0) + 1;
    }
  const by_reason = Object.fromEntries(Object.entries(by).sort(([a], [b]) => (a < b ? -1 : 1)));
  return { column, by_reason };
}

/** The sentence under every table and chart built from `note.file`. */
export function outcomeSentence(note: OutcomeNote): string {
  const left = Object.entries(note.left_out);
  const d1 = note.outcomes.includes('model_refusal')
    ? " (the model's structured refusals count as D1 refusals; their other cells are empty)"
    : '';
  const out =
    left.length === 0
      ? 'none left out by outcome'
      : `left out: ${left.map(([o, n]) => `${o} ${n}`).join(', ')} (counted in “Who said no”)`;
  const blank = Object.entries(note.empty?.by_reason ?? {});
  const empty =
    blank.length === 0
      ? ''
      : ` (${note.empty!.column} empty in ${blank.reduce((a, [, n]) => a + n, 0)}: ${blank.map(([r, n]) => `${r} ${n}`).join(', ')})`;
  return `Rows of ${note.file}: answers only${d1}, ${note.kept} rows${empty}; ${out}`;
}

/**
 * Add the sentences (by file) to the n of every table, chart and figure of a section; a table
 * that names its `sources` gets the sentences of those files only.
 */
export function withOutcomeNotes(
  content: SectionContent,
  notes: ReadonlyArray<{ file: string; sentence: string }>,
): SectionContent {
  if (notes.length === 0) return content;
  const add = (n: string, files?: string[]) =>
    [n, ...notes.filter((x) => !files || files.includes(x.file)).map((x) => x.sentence)].join('. ');
  return {
    ...content,
    tables: content.tables.map((t) => ({ ...t, n: add(t.n, t.sources) })),
    charts: content.charts.map((c) => ({ ...c, data: { ...c.data, n: add(c.data.n) } })),
    figures: content.figures?.map((f) => ({ ...f, data: { ...f.data, n: add(f.data.n) } })),
  };
}

/**
 * Which tables a piece of work read: `run` a section inside `section`, and have the context's
 * `table` and `memo` report to `read` and `memo` (a memo hit counts the tables its first
 * computation read).
 */
export class TableReads {
  private readonly store = new AsyncLocalStorage<Array<Set<string>>>();
  private readonly deps = new Map<string, Set<string>>();

  /** Run `work`; the files it read. */
  async section<T>(work: () => Promise<T>): Promise<{ value: T; files: Set<string> }> {
    const files = new Set<string>();
    const value = await this.store.run([files], work);
    return { value, files };
  }

  /** A table was read. */
  read(file: string): void {
    for (const s of this.store.getStore() ?? []) s.add(file);
  }

  /** Wrap a memo's computation so that the tables it reads are its dependencies. */
  memo<T>(key: string, make: () => Promise<T> | T): () => Promise<T> {
    let deps = this.deps.get(key);
    if (!deps) this.deps.set(key, (deps = new Set()));
    const outer = this.store.getStore() ?? [];
    const mine = deps;
    return () => this.store.run([...outer, mine], async () => make());
  }

  /** A memo was asked for: its dependencies count as read. */
  used(key: string): void {
    for (const f of this.deps.get(key) ?? []) this.read(f);
  }
}
