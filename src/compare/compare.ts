/**
 * `stimkit compare <scores A> <scores B>`: two runs of one sealed bundle (a model's snapshots
 * months apart, or one model through two routes), paired by trial × model. Per model × routes
 * (the route that answered in A and in B, so one model through two routes is compared route
 * against route, and a run whose gateway used several routes is split by them) × language ×
 * paradigm: the trials whose outcome or a label changed, the transition table of every compared
 * column (from A's value to B's), and the exact McNemar test of each binary column with Holm's
 * correction across the cells of that column. Trials scored on one side only are counted and
 * listed, never dropped.
 */
import { StimkitError } from '../core/errors.js';
import { TOOL } from '../core/tool.js';
import { holm } from '../stats/holm.js';
import { mcnemar } from '../stats/mcnemar.js';
import { cellValue, COMPARE_COLUMNS, testable, type CompareRow } from './columns.js';
import {
  COMPARE_FORMAT,
  COMPARE_VERSION,
  type ChangedTrial,
  type CompareResult,
  type McNemarCell,
  type TrialKey,
  type Transition,
} from './format.js';
import { readScoresSide, type ScoresSide } from './read.js';

type Pair = { a: CompareRow; b: CompareRow };

const keyOf = (r: CompareRow): TrialKey => ({
  trial: r.trial,
  model: r.model,
  paradigm: r.paradigm,
  language: r.language,
  route: r.route,
});
const pairId = (r: { trial: string; model: string }) => JSON.stringify([r.trial, r.model]);

/** A cell: a model through the routes that answered it in A and in B, a paradigm, a language. */
interface Cell {
  model: string;
  route_a: string | null;
  route_b: string | null;
  paradigm: string;
  language: string;
}
const cellOf = (p: Pair): Cell => ({
  model: p.a.model,
  route_a: p.a.route,
  route_b: p.b.route,
  paradigm: p.a.paradigm,
  language: p.a.language,
});
const cellId = (c: Cell) =>
  JSON.stringify([c.model, c.route_a ?? '', c.route_b ?? '', c.paradigm, c.language]);
const cmp = (x: string | null, y: string | null) => {
  const [a, b] = [x ?? '', y ?? ''];
  return a < b ? -1 : a > b ? 1 : 0;
};
/** Model, routes, paradigm, language: code-point order, the same on every machine. */
const byCell = (x: Cell, y: Cell) =>
  cmp(x.model, y.model) ||
  cmp(x.route_a, y.route_a) ||
  cmp(x.route_b, y.route_b) ||
  cmp(x.paradigm, y.paradigm) ||
  cmp(x.language, y.language);
/** A trial's key: model, route, paradigm, language, then trial id. */
const byKey = (x: TrialKey, y: TrialKey) =>
  byCell({ ...x, route_a: x.route, route_b: null }, { ...y, route_a: y.route, route_b: null }) ||
  cmp(x.trial, y.trial);
const byPair = (x: Pair, y: Pair) => byCell(cellOf(x), cellOf(y)) || cmp(x.a.trial, y.a.trial);

/** Refuse two folders that scored different bundles, naming both digests. */
function sameBundle(a: ScoresSide, b: ScoresSide): void {
  const [da, db] = [a.header.bundle.digest, b.header.bundle.digest];
  if (da === db) return;
  throw StimkitError.fromProblem({
    code: 'E_COMPARE_BUNDLE',
    file: b.dir,
    message:
      'the two scores folders are of different bundles: compare pairs runs of one sealed bundle',
    expected: `bundle ${da} (as ${a.dir})`,
    got: `bundle ${db}`,
    fix: 'compare two scores folders of the same bundle (stimkit diff tells what changed between two bundles)',
  });
}

/** Pair A's and B's rows by trial × model; the rest are A-only or B-only. */
function pairRows(a: ScoresSide, b: ScoresSide) {
  const bByKey = new Map(b.rows.map((r) => [pairId(r), r]));
  const pairs: Pair[] = [];
  const onlyA: TrialKey[] = [];
  for (const r of a.rows) {
    const other = bByKey.get(pairId(r));
    if (other) {
      pairs.push({ a: r, b: other });
      bByKey.delete(pairId(r));
    } else onlyA.push(keyOf(r));
  }
  const onlyB = [...bByKey.values()].map(keyOf);
  pairs.sort(byPair);
  return { pairs, onlyA: onlyA.sort(byKey), onlyB: onlyB.sort(byKey) };
}

/** The changed columns of a pair: A's and B's values where they differ. */
function changedColumns(p: Pair): ChangedTrial['columns'] {
  const out: ChangedTrial['columns'] = {};
  for (const col of COMPARE_COLUMNS) {
    if (!col.applies(p.a)) continue;
    const [va, vb] = [cellValue(col, p.a), cellValue(col, p.b)];
    if (va !== vb) out[col.id] = { a: va, b: vb };
  }
  return out;
}

/** Every transition (from A's value to B's, unchanged ones included) per cell × column. */
function transitions(pairs: readonly Pair[]): Transition[] {
  const counts = new Map<string, Transition>();
  for (const p of pairs)
    for (const col of COMPARE_COLUMNS) {
      if (!col.applies(p.a)) continue;
      const cell = cellOf(p);
      const [from, to] = [cellValue(col, p.a), cellValue(col, p.b)];
      const id = JSON.stringify([cellId(cell), col.id, from, to]);
      const seen = counts.get(id);
      if (seen) seen.n++;
      else counts.set(id, { ...cell, column: col.id, from, to, n: 1 });
    }
  const order = COMPARE_COLUMNS.map((c) => c.id);
  return [...counts.values()].sort(
    (x, y) =>
      byCell(x, y) ||
      order.indexOf(x.column) - order.indexOf(y.column) ||
      cmp(x.from, y.from) ||
      cmp(x.to, y.to),
  );
}

function emptyCell(cell: Cell, column: string, positive: string): McNemarCell {
  const zero = { n: 0, excluded: 0, a: 0, b: 0, c: 0, d: 0 };
  return {
    ...cell,
    column,
    positive,
    ...zero,
    p_exact: null,
    p_holm: null,
    reason: null,
  };
}

/** The 2×2 tables of every cell × binary column, exact McNemar, Holm across each column's cells. */
function mcnemarCells(pairs: readonly Pair[]): McNemarCell[] {
  const cells = new Map<string, McNemarCell>();
  for (const p of pairs)
    for (const col of COMPARE_COLUMNS) {
      if (!col.applies(p.a) || !testable(col)) continue;
      const id = JSON.stringify([cellId(cellOf(p)), col.id]);
      let c = cells.get(id);
      if (!c) {
        c = emptyCell(cellOf(p), col.id, col.positive);
        cells.set(id, c);
      }
      const [x, y] = [col.binary(p.a), col.binary(p.b)];
      if (x === null || y === null) c.excluded++;
      else {
        c.n++;
        if (x === 1 && y === 1) c.a++;
        else if (x === 1) c.b++;
        else if (y === 1) c.c++;
        else c.d++;
      }
    }
  const out = [...cells.values()];
  for (const c of out) {
    if (c.n === 0) c.reason = 'no pair has a binary value on both sides';
    else
      c.p_exact = mcnemar([
        [c.a, c.b],
        [c.c, c.d],
      ]).pExact;
  }
  for (const col of COMPARE_COLUMNS) {
    const family = out.filter((c) => c.column === col.id && c.p_exact !== null);
    holm(family.map((c) => c.p_exact!)).forEach((p, i) => (family[i]!.p_holm = p));
  }
  return out;
}

/** Compare two scores folders already read. */
export function compareSides(a: ScoresSide, b: ScoresSide): CompareResult {
  sameBundle(a, b);
  const { pairs, onlyA, onlyB } = pairRows(a, b);
  const changed: ChangedTrial[] = [];
  const byColumn: Record<string, number> = Object.fromEntries(
    COMPARE_COLUMNS.map((c) => [c.id, 0]),
  );
  for (const p of pairs) {
    const columns = changedColumns(p);
    if (Object.keys(columns).length === 0) continue;
    const { route: _route, ...key } = keyOf(p.a);
    changed.push({ ...key, route_a: p.a.route, route_b: p.b.route, columns });
    for (const c of Object.keys(columns)) byColumn[c]!++;
  }
  const side = (s: ScoresSide) => ({
    dir: s.dir,
    score_json_sha256: s.headerSha256,
    run: s.header.params.run,
    records: s.rows.length,
  });
  const order = COMPARE_COLUMNS.map((c) => c.id);
  const mc = mcnemarCells(pairs).sort(
    (x, y) => byCell(x, y) || order.indexOf(x.column) - order.indexOf(y.column),
  );
  return {
    format: COMPARE_FORMAT,
    version: COMPARE_VERSION,
    tool: { ...TOOL },
    bundle: a.header.bundle,
    a: side(a),
    b: side(b),
    counts: {
      paired: pairs.length,
      changed: changed.length,
      only_a: onlyA.length,
      only_b: onlyB.length,
      by_column: byColumn,
    },
    changed,
    only_a: onlyA,
    only_b: onlyB,
    transitions: transitions(pairs),
    mcnemar: mc,
  };
}

/**
 * Compare two scores folders of one bundle.
 *
 * @example
 * const r = await compareScores('run-2025/scores', 'run-2026/scores');
 * r.changed; // the trials whose outcome or a label changed
 */
export async function compareScores(dirA: string, dirB: string): Promise<CompareResult> {
  return compareSides(await readScoresSide(dirA), await readScoresSide(dirB));
}
