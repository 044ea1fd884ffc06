/**
 * Which outcomes an analysis uses. A scores table says what came back on every row (`outcome`:
 * answer, provider_block, model_refusal, suppressed, length, failed); a response-derived column
 * (D1 lexical, D2–D6, the instrument score, a judge's label) has a value only on an answer, so by
 * default an analysis keeps the rows whose outcome gives its column a value and says how many it
 * left out, per outcome: answers for response-derived columns, answers and the model's structured
 * refusals for D1 model refusal, every outcome but `failed` for the who-said-no columns (and but
 * `length` for the said-no unions, which a cut reply leaves empty). Rows
 * whose outcome is empty (a responses file that gave none) are `unrecorded` and kept by default.
 * `--outcomes answer,provider_block,…` chooses instead. A table without an `outcome` column is
 * used whole.
 */
import { StimkitError } from '../core/errors.js';
import type { Table } from './table.js';

/** The outcomes a scores table names, and `unrecorded` for an empty cell. */
export const OUTCOME_NAMES = [
  'answer',
  'provider_block',
  'model_refusal',
  'suppressed',
  'length',
  'failed',
  'unrecorded',
] as const;

/** Columns defined on every outcome but `failed` (who blocked, who suppressed, what came back). */
const SAID_NO_COLUMNS = new Set(['d1_provider_block', 'd1_suppressed', 'outcome']);
/**
 * The said-no unions: empty on `length` too (a reply cut at the token limit may yet have refused:
 * scores.md, "What came back").
 */
const SAID_NO_UNIONS = new Set(['d1_said_no', 'd1_said_no_lexical']);
/** D1 model refusal: an answer's text, or the model's structured refusal. */
const MODEL_REFUSAL_COLUMNS = new Set(['d1_refusal', 'd1_refusal_lexical']);

/** What an analysis used and left out, by outcome (null when the table has no outcome column). */
export interface OutcomeSelection {
  /** The outcomes kept, in OUTCOME_NAMES order. */
  outcomes: string[];
  /** True when no --outcomes was given (the column's default). */
  default: boolean;
  kept: number;
  /** Rows left out, per outcome (only outcomes with rows). */
  left_out: Record<string, number>;
}

/** The default outcomes of an analysis of `column` (null: not a said-no or D1 column). */
export function defaultOutcomes(column: string | null): string[] {
  if (column !== null && SAID_NO_COLUMNS.has(column))
    return OUTCOME_NAMES.filter((o) => o !== 'failed');
  if (column !== null && SAID_NO_UNIONS.has(column))
    return OUTCOME_NAMES.filter((o) => o !== 'failed' && o !== 'length');
  if (column !== null && MODEL_REFUSAL_COLUMNS.has(column))
    return ['answer', 'model_refusal', 'unrecorded'];
  return ['answer', 'unrecorded'];
}

/** Check --outcomes names (a usage error names the known ones). */
function checkNames(chosen: readonly string[]): void {
  const bad = chosen.filter((o) => !(OUTCOME_NAMES as readonly string[]).includes(o));
  if (bad.length > 0)
    throw StimkitError.usage(
      'E_ANALYZE_USAGE',
      `--outcomes: unknown outcome ${bad.map((b) => `"${b}"`).join(', ')}`,
      `name outcomes from ${OUTCOME_NAMES.join(', ')}`,
    );
}

/** The rows of `t` where `keep[i]`; rows and lines are built only when asked for. */
function keepRows(t: Table, keep: boolean[]): Table {
  const idx = keep.flatMap((k, i) => (k ? [i] : []));
  let rows: Record<string, string>[] | undefined;
  let lines: number[] | undefined;
  return {
    file: t.file,
    sha256: t.sha256,
    columns: t.columns,
    data: t.data.map((col) => idx.map((i) => col[i]!)),
    n: idx.length,
    get rows() {
      rows ??= idx.map((i) => t.rows[i]!);
      return rows;
    },
    get lines() {
      lines ??= idx.map((i) => t.lines[i]!);
      return lines;
    },
  };
}

/**
 * The rows of `t` an analysis of `column` uses: those of the chosen outcomes (`chosen`, else the
 * column's default), with what was left out. A table without an `outcome` column is kept whole
 * (selection null), unless --outcomes was given (an error then).
 */
export function selectOutcomes(
  t: Table,
  column: string | null,
  chosen?: readonly string[],
): { table: Table; selection: OutcomeSelection | null } {
  const j = t.columns.indexOf('outcome');
  if (j < 0) {
    if (chosen !== undefined)
      throw StimkitError.fromProblem({
        code: 'E_ANALYZE_COLUMN',
        file: t.file,
        line: 1,
        field: 'outcome',
        message: '--outcomes needs a column "outcome" (what came back on each row)',
        got: t.columns.join(', '),
        fix: 'score again with this version of stimkit, or drop --outcomes',
      });
    return { table: t, selection: null };
  }
  if (chosen !== undefined) checkNames(chosen);
  const wanted = new Set(chosen ?? defaultOutcomes(column));
  const keep: boolean[] = [];
  const left: Record<string, number> = {};
  for (const v of t.data[j]!) {
    const o = v === '' ? 'unrecorded' : v;
    const k = wanted.has(o);
    keep.push(k);
    if (!k) left[o] = (left[o] ?? 0) + 1;
  }
  const table = keepRows(t, keep);
  const order = (o: string) => {
    const i = (OUTCOME_NAMES as readonly string[]).indexOf(o);
    return i < 0 ? OUTCOME_NAMES.length : i;
  };
  const left_out = Object.fromEntries(
    Object.entries(left).sort(([a], [b]) => order(a) - order(b) || (a < b ? -1 : 1)),
  );
  return {
    table,
    selection: {
      outcomes: OUTCOME_NAMES.filter((o) => wanted.has(o)),
      default: chosen === undefined,
      kept: table.n,
      left_out,
    },
  };
}

/** The human line: the outcomes used and what was left out, per outcome. */
export function outcomesLine(s: OutcomeSelection | null): string {
  if (!s) return '';
  const left = Object.entries(s.left_out);
  const out =
    left.length === 0
      ? 'none left out by outcome'
      : `left out ${left.reduce((a, [, n]) => a + n, 0)}: ${left.map(([o, n]) => `${o} ${n}`).join(', ')}`;
  return `outcomes: ${s.outcomes.join(', ')}${s.default ? ' (default; --outcomes to choose)' : ''}; ${s.kept} rows used, ${out}\n`;
}
