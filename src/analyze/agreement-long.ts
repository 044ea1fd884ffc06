/**
 * `stimkit analyze agreement` on a labels CSV in the long layout (`stimkit label export` by
 * default, `label simulate`): one row per item × rater, one column per dimension. It is turned
 * into the wide layout of `label export --wide` (one row per item, a `<dimension>.<rater>` column
 * per rater) for one dimension at a time, so both layouts give the same numbers.
 */
import { StimkitError, type Problem } from '../core/errors.js';
import type { KappaWeights } from '../stats/index.js';
import { agreementTable, type AgreementReport } from './agreement.js';
import { DIMENSION } from './agreement-categories.js';
import { tableFromRows, type Table } from './table.js';

/** The dimension columns of `t`, in file order. */
function labelDimensions(t: Table): string[] {
  return t.columns.filter((c) => DIMENSION.test(c));
}

/** True when `t` is a long labels CSV: a `rater` column, item ids and at least one dimension column. */
export function isLongLabels(t: Table): boolean {
  return (
    t.columns.includes('rater') &&
    (t.columns.includes('sample_item') ||
      (t.columns.includes('trial_id') && t.columns.includes('model'))) &&
    labelDimensions(t).length > 0
  );
}

/** The raters of a long labels table, in name order. */
function longRaters(t: Table): string[] {
  return [...new Set(t.rows.map((r) => r.rater!))].filter((r) => r !== '').sort();
}

/**
 * One dimension of a long labels table as the wide table `label export --wide` writes: one row
 * per item (first-seen order), a column `<dimension>.<rater>` per rater of the file. An item ×
 * rater given twice is an error (`E_ANALYZE_DUPLICATE`).
 */
function widenDimension(t: Table, dimension: string): Table {
  const raters = longRaters(t);
  const key = (r: Record<string, string>) =>
    t.columns.includes('sample_item') ? r.sample_item! : `${r.trial_id}\u0000${r.model}`;
  const items = new Map<string, Record<string, string>>();
  const problems: Problem[] = [];
  const seen = new Set<string>();
  t.rows.forEach((r, i) => {
    const k = key(r);
    let row = items.get(k);
    if (!row)
      items.set(k, (row = Object.fromEntries(raters.map((x) => [`${dimension}.${x}`, '']))));
    const col = `${dimension}.${r.rater}`;
    if (seen.has(`${k}\u0000${r.rater}`)) {
      if (problems.length < 20)
        problems.push({
          code: 'E_ANALYZE_DUPLICATE',
          severity: 'error',
          file: t.file,
          line: t.lines[i],
          field: 'rater',
          message: `a second row for item ${k.replace('\u0000', ' × ')} and rater ${r.rater}`,
          fix: 'keep one row per item and rater (labels and review adjudications go in separate files)',
        });
      return;
    }
    seen.add(`${k}\u0000${r.rater}`);
    row[col] = r[dimension] ?? '';
  });
  if (problems.length > 0)
    throw new StimkitError(
      'E_ANALYZE_DUPLICATE',
      `${t.file}: the same item and rater more than once`,
      {
        fix: 'keep one rating per item and rater in the table (the lines are listed below)',
        problems,
      },
    );
  const columns = raters.map((x) => `${dimension}.${x}`);
  return tableFromRows(
    t.file,
    t.sha256,
    columns,
    [...items.values()].map((row) => Object.fromEntries(columns.map((c) => [c, row[c]!]))),
  );
}

/** Agreement per dimension of a long labels file. */
export interface LongAgreementReport {
  format: 'stimkit.analyze.agreement-by-dimension';
  version: 1;
  input: { file: string; sha256: string; rows: number; layout: 'long' };
  params: { raters: string[]; vs: string | null; weights: KappaWeights };
  /** one report per dimension with at least one item rated by two of the raters */
  dimensions: Array<{ dimension: string; report: AgreementReport }>;
  /** dimensions left out: no item with two ratings */
  skipped: string[];
}

/**
 * Agreement on a long labels table. `raters` and `vs` name raters (the `rater` column; default:
 * every rater of the file); with `dimension` one `AgreementReport` (identical to the wide layout's
 * with columns `<dimension>.<rater>`), else one per dimension.
 */
export function agreementLong(
  t: Table,
  params: {
    raters?: string[];
    vs?: string | null;
    weights?: KappaWeights;
    dimension?: string;
    categories?: readonly string[];
  },
): AgreementReport | LongAgreementReport {
  const all = longRaters(t);
  const dims = labelDimensions(t);
  const raters = params.raters ?? all.filter((r) => r !== params.vs);
  const unknown = [...raters, ...(params.vs ? [params.vs] : [])].filter((r) => !all.includes(r));
  if (unknown.length > 0) {
    throw StimkitError.fromProblem({
      code: 'E_ANALYZE_RATERS',
      file: t.file,
      field: 'rater',
      message: `no rows for rater(s) ${unknown.join(', ')} in this long labels file`,
      expected: all.join(', '),
      got: unknown.join(', '),
      fix: 'in the long layout, --raters and --vs name raters of the rater column',
    });
  }
  if (params.dimension !== undefined && !dims.includes(params.dimension)) {
    throw StimkitError.usage(
      'E_ANALYZE_USAGE',
      `--dimension ${params.dimension}: not a column of ${t.file} (dimensions: ${dims.join(', ')})`,
      'give --dimension one of the dimensions listed, or omit it to analyze every dimension',
    );
  }
  const one = (d: string) => {
    try {
      return agreementTable(widenDimension(t, d), {
        raters: raters.map((r) => `${d}.${r}`),
        vs: params.vs ? `${d}.${params.vs}` : null,
        weights: params.weights,
        dimension: d,
        categories: params.categories,
      });
    } catch (err) {
      throw inDimension(err, d, t.file);
    }
  };
  if (params.dimension !== undefined) return one(params.dimension);
  const dimensions: LongAgreementReport['dimensions'] = [];
  const skipped: string[] = [];
  for (const d of dims) {
    const wide = widenDimension(t, d);
    const rated = wide.rows.some((r) => raters.filter((x) => r[`${d}.${x}`] !== '').length >= 2);
    if (!rated) skipped.push(d);
    else dimensions.push({ dimension: d, report: one(d) });
  }
  return {
    format: 'stimkit.analyze.agreement-by-dimension',
    version: 1,
    input: { file: t.file, sha256: t.sha256, rows: t.n, layout: 'long' },
    params: { raters, vs: params.vs ?? null, weights: params.weights ?? 'none' },
    dimensions,
    skipped,
  };
}

/** An error of one dimension's agreement, its message naming the dimension. */
function inDimension(err: unknown, dimension: string, file: string): unknown {
  if (!(err instanceof StimkitError) || err.message.includes(dimension)) return err;
  const problems = err.problems.map((p) => ({
    ...p,
    file: p.file ?? file,
    field: p.field ?? dimension,
  }));
  return new StimkitError(err.code, `dimension ${dimension}: ${err.message}`, {
    fix: err.fix,
    problems,
    cause: err,
    exitCode: err.exitCode,
  });
}

/**
 * Wide layout with `--dimension D`: a rater name R that is not a column stands for `D.R` (the
 * column `label export --wide` writes), in `raters` and `vs`.
 */
export function widenedNames(
  t: Table,
  p: { raters?: string[]; vs?: string | null; weights?: KappaWeights; dimension?: string },
): { raters?: string[]; vs: string | null; weights?: KappaWeights } {
  const d = p.dimension;
  const name = (r: string) => (d === undefined || t.columns.includes(r) ? r : `${d}.${r}`);
  return { raters: p.raters?.map(name), vs: p.vs ? name(p.vs) : null, weights: p.weights };
}
