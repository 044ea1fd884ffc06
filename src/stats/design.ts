/**
 * Build a design matrix from table rows, patsy/R style: an intercept, numeric columns as they are
 * (0/1 indicators included), text columns treatment-coded against a reference level (given, else
 * the first level in sorted order), and products for `A:B` interactions. Column names follow
 * statsmodels: `Intercept`, `lang[T.zh]`, `lang[T.zh]:origin[T.CN]`.
 */
import { StimkitError } from '../core/errors.js';
import type { Design } from './regression.js';

/** What to put in the design. */
export interface DesignSpec {
  predictors: readonly string[];
  /** reference level per text column */
  reference?: Readonly<Record<string, string>>;
  /** pairs of predictors whose product terms are added after the main effects */
  interactions?: readonly (readonly [string, string])[];
  /** default true */
  intercept?: boolean;
}

/** How one predictor was coded. */
export interface Coding {
  column: string;
  kind: 'numeric' | 'factor';
  /** factor: all levels in sorted order, and the reference */
  levels?: string[];
  reference?: string;
  /** design columns this predictor produced */
  names: string[];
}

/** A design together with how each predictor was coded. */
export interface BuiltDesign extends Design {
  codings: Coding[];
  /** indices of the interaction (product) columns; names are not parsed, since levels may hold `:` */
  interactions: number[];
}

type Cell = string | number | boolean | null | undefined;

/** The column as numbers, or null when some value is not numeric (empty, text, NaN, ±∞). */
function asNumbers(values: readonly Cell[]): Float64Array | null {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    let x: number;
    if (typeof v === 'number') x = v;
    else if (typeof v === 'boolean') x = v ? 1 : 0;
    else if (typeof v === 'string') {
      x = Number(v);
      if (x === 0 && v.trim() === '') return null; // Number('') and Number(' ') are 0
    } else return null;
    if (!Number.isFinite(x)) return null;
    out[i] = x;
  }
  return out;
}

/** Levels in patsy's order: numerically when every level is a number (2 before 10), else as strings. */
function sortLevels(levels: string[]): string[] {
  const numeric = levels.every((l) => l.trim() !== '' && Number.isFinite(Number(l)));
  return numeric
    ? levels.sort((a, b) => Number(a) - Number(b) || (a < b ? -1 : a > b ? 1 : 0))
    : levels.sort();
}

/** Code one predictor into columns (n values each). */
function code(
  values: readonly Cell[],
  column: string,
  reference: string | undefined,
): { coding: Coding; cols: Float64Array[] } {
  const missing = values.findIndex((v) => v === undefined || v === null || v === '');
  if (missing >= 0) {
    throw StimkitError.fromProblem({
      code: 'E_STATS_MISSING',
      message: `predictor "${column}" has no value`,
      field: `row ${missing + 1}`,
      expected: 'a value on every row',
      got: 'an empty cell',
      fix: `fill or drop the rows with an empty "${column}"`,
    });
  }
  const numbers = reference === undefined ? asNumbers(values) : null;
  if (numbers) return { coding: { column, kind: 'numeric', names: [column] }, cols: [numbers] };
  const text = values.map(String);
  const levels = sortLevels([...new Set(text)]);
  const ref = reference ?? levels[0]!;
  if (!levels.includes(ref)) {
    throw StimkitError.fromProblem({
      code: 'E_STATS_REFERENCE',
      message: `reference level "${ref}" does not occur in column "${column}"`,
      field: column,
      expected: levels.join(', '),
      got: ref,
      fix: `use one of the levels in --reference ${column}=LEVEL`,
    });
  }
  const others = levels.filter((l) => l !== ref);
  const names = others.map((l) => `${column}[T.${l}]`);
  // one pass over the rows: each non-reference level sets a 1 in its own column
  const cols = others.map(() => new Float64Array(text.length));
  const slot = new Map(others.map((l, j) => [l, cols[j]!]));
  for (let i = 0; i < text.length; i++) {
    const c = slot.get(text[i]!);
    if (c) c[i] = 1;
  }
  return { coding: { column, kind: 'factor', levels, reference: ref, names }, cols };
}

/**
 * Design matrix for `predictors` (+ interactions) over `rows`.
 *
 * @example buildDesign(rows, { predictors: ['zh', 'cn', 'paradigm'], reference: { paradigm: 'direct' } })
 *   // names: Intercept, zh, cn, paradigm[T.abstraction], paradigm[T.indirect]
 */
export function buildDesign(rows: readonly Record<string, Cell>[], spec: DesignSpec): BuiltDesign {
  return buildDesignFromColumns(rows.length, (column) => rows.map((r) => r[column]), spec);
}

/**
 * The same design from column-wise data: `values(column)` gives the column's n values (as
 * `Table.data` of `stimkit analyze` holds them), so no per-row objects are needed.
 */
export function buildDesignFromColumns(
  n: number,
  values: (column: string) => readonly Cell[],
  spec: DesignSpec,
): BuiltDesign {
  const names: string[] = [];
  const cols: Float64Array[] = [];
  if (spec.intercept ?? true) {
    names.push('Intercept');
    cols.push(new Float64Array(n).fill(1));
  }
  const coded = new Map<string, { coding: Coding; cols: Float64Array[] }>();
  const interactions: number[] = [];
  for (const p of spec.predictors) {
    const c = code(values(p), p, spec.reference?.[p]);
    coded.set(p, c);
    names.push(...c.coding.names);
    cols.push(...c.cols);
  }
  for (const [a, b] of spec.interactions ?? []) {
    for (const side of [a, b]) {
      if (!coded.has(side)) {
        throw StimkitError.fromProblem({
          code: 'E_STATS_INTERACTION',
          message: `interaction term "${a}:${b}" uses "${side}", which is not a predictor`,
          field: `${a}:${b}`,
          expected: spec.predictors.join(', '),
          got: side,
          fix: `add "${side}" to the predictors`,
        });
      }
    }
    const A = coded.get(a)!;
    const B = coded.get(b)!;
    A.coding.names.forEach((na, i) =>
      B.coding.names.forEach((nb, j) => {
        interactions.push(names.length);
        names.push(`${na}:${nb}`);
        cols.push(A.cols[i]!.map((v, r) => v * B.cols[j]![r]!));
      }),
    );
  }
  const k = names.length;
  const x = new Float64Array(n * k);
  cols.forEach((c, j) => {
    for (let i = 0; i < n; i++) x[i * k + j] = c[i]!;
  });
  return { x, n, k, names, codings: [...coded.values()].map((c) => c.coding), interactions };
}
