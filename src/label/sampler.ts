/**
 * The stratified sampler for the human-validation sample (the audit paper's 200 trials "covering
 * all nine models, both prompt languages, and all four elicitation paradigms", section 4.3).
 *
 * Method (deterministic: the same rows, in any order, with the same options give the same sample):
 * 1. Every row gets a rank, the sha256 of `"<seed>\n<trial_id>\n<model>"`; rows are drawn in rank
 *    order, which is a seeded shuffle that does not depend on the input order.
 * 2. Rows are grouped into cells, one per combination of the strata values that occurs.
 * 3. Coverage first. When `n` is at least the number of cells, every cell gets one row. Otherwise
 *    every level of every stratum variable is covered: cells are taken greedily, each time the one
 *    that covers the most levels not yet covered (ties: the larger cell, then the cell key); if `n`
 *    is too small even for that, the sampler refuses.
 * 4. The rest is allocated proportionally to cell size, one row at a time, to the cell whose
 *    allocation lags its proportional share `n × size / population` the most (ties: cell key),
 *    never more than a cell holds.
 * 5. Each cell gives its first rows by rank; the sample lists the chosen rows in rank order, so
 *    strata are interleaved on the raters' screens.
 */
import { createHash } from 'node:crypto';
import { StimkitError } from '../core/errors.js';
import type { Stratum } from './sample-schema.js';

/** A row the sampler can draw: a trial × model with its stratification values. */
export interface SampleRow {
  trial_id: string;
  model: string;
  lang: string;
  paradigm: string;
  /** Missing values (null or absent) form their own level, written `-`. */
  sensitivity?: string | null;
  variant?: string | null;
  entry?: string | null;
}

export interface SampleOptions {
  /** Sample size. */
  n: number;
  /** The stratification variables, e.g. `['model', 'lang', 'paradigm', 'sensitivity']`. */
  strata: readonly Stratum[];
  /** Seed of the shuffle (any non-negative integer). */
  seed: number;
}

/** One cell of the design: its key, how many rows it held and how many were drawn. */
interface CellCount {
  key: Record<string, string>;
  population: number;
  sampled: number;
}

export interface SampleResult<R extends SampleRow> {
  rows: R[];
  cells: CellCount[];
}

/** Text used for a missing stratum value (an instrument trial has no entry, hence no sensitivity). */
const NONE = '-';

function rank(seed: number, row: SampleRow): string {
  return createHash('sha256').update(`${seed}\n${row.trial_id}\n${row.model}`).digest('hex');
}

interface Cell<R> {
  key: Record<string, string>;
  id: string;
  rows: R[];
  alloc: number;
}

/**
 * Draw a stratified sample of `n` rows (all of them when there are no more than `n`).
 *
 * @example
 * const { rows, cells } = sampleForValidation(allRows, { n: 200, strata: ['model', 'lang', 'paradigm', 'sensitivity'], seed: 42 });
 */
export function sampleForValidation<R extends SampleRow>(
  rows: readonly R[],
  options: SampleOptions,
): SampleResult<R> {
  const { n, strata, seed } = options;
  if (!Number.isInteger(n) || n < 1)
    throw StimkitError.usage(
      'E_LABEL_SAMPLE_N',
      `Expected a positive integer sample size but received ${n}.`,
      'give --n a whole number above 0, e.g. --n 200',
    );
  const seen = new Set<string>();
  for (const r of rows) {
    const k = `${r.trial_id}\n${r.model}`;
    if (seen.has(k)) {
      throw StimkitError.fromProblem({
        code: 'E_LABEL_DUPLICATE_ROW',
        message: `trial ${r.trial_id} appears twice for model ${r.model}`,
        fix: 'give each trial × model one response (deduplicate the responses file)',
      });
    }
    seen.add(k);
  }
  const ranked = rows
    .map((r) => ({ r, rank: rank(seed, r) }))
    .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0));
  const byId = new Map<string, Cell<{ r: R; rank: string }>>();
  for (const x of ranked) {
    const key = Object.fromEntries(strata.map((s) => [s, x.r[s] ?? NONE]));
    const id = JSON.stringify(strata.map((s) => key[s]));
    let cell = byId.get(id);
    if (!cell) byId.set(id, (cell = { key, id, rows: [], alloc: 0 }));
    cell.rows.push(x);
  }
  const cells = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const total = ranked.length;
  const counts = (): CellCount[] =>
    cells.map((c) => ({ key: c.key, population: c.rows.length, sampled: c.alloc }));
  if (total <= n) {
    for (const c of cells) c.alloc = c.rows.length;
    return { rows: ranked.map((x) => x.r), cells: counts() };
  }
  if (n >= cells.length) for (const c of cells) c.alloc = 1;
  else cover(cells, strata, n);
  fill(cells, n, total);
  const chosen = cells
    .flatMap((c) => c.rows.slice(0, c.alloc))
    .sort((a, b) => (a.rank < b.rank ? -1 : 1));
  return { rows: chosen.map((x) => x.r), cells: counts() };
}

/** Step 3 when n is below the number of cells: cover every level of every variable. */
function cover<R>(cells: Cell<R>[], strata: readonly Stratum[], n: number): void {
  const uncovered = new Set(cells.flatMap((c) => strata.map((s) => `${s}=${c.key[s]}`)));
  const needed = Math.max(...strata.map((s) => new Set(cells.map((c) => c.key[s])).size));
  if (n < needed) {
    const widest = strata.find((s) => new Set(cells.map((c) => c.key[s])).size === needed);
    throw StimkitError.fromProblem({
      code: 'E_LABEL_SAMPLE_TOO_SMALL',
      field: 'n',
      message: `a sample of ${n} cannot cover the ${needed} levels of "${widest}"`,
      expected: `n >= ${needed}`,
      got: String(n),
      fix: `raise --n to at least ${needed}, or stratify by fewer variables`,
    });
  }
  let used = 0;
  while (uncovered.size > 0 && used < n) {
    let best: Cell<R> | undefined;
    let bestGain = 0;
    for (const c of cells) {
      if (c.alloc > 0) continue;
      const gain = strata.filter((s) => uncovered.has(`${s}=${c.key[s]}`)).length;
      if (
        gain > bestGain ||
        (gain === bestGain && gain > 0 && best && c.rows.length > best.rows.length)
      ) {
        best = c;
        bestGain = gain;
      }
    }
    if (!best) break;
    best.alloc = 1;
    used += 1;
    for (const s of strata) uncovered.delete(`${s}=${best.key[s]}`);
  }
}

/** Step 4: allocate the remaining rows to the cells that lag their proportional share most. */
function fill<R>(cells: Cell<R>[], n: number, total: number): void {
  let used = cells.reduce((s, c) => s + c.alloc, 0);
  while (used < n) {
    let best: Cell<R> | undefined;
    let bestLag = -Infinity;
    for (const c of cells) {
      if (c.alloc >= c.rows.length) continue;
      const lag = (n * c.rows.length) / total - c.alloc;
      if (lag > bestLag + 1e-12) {
        best = c;
        bestLag = lag;
      }
    }
    if (!best) break;
    best.alloc += 1;
    used += 1;
  }
}
