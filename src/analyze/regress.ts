/**
 * `stimkit analyze logit|ols`: fit the model to a CSV table. Numeric columns enter as they are,
 * text columns treatment-coded (reference from --reference, else the first level in sorted
 * order), `A:B` interactions as products; cluster-robust SEs with the chosen correction. With
 * interactions, a likelihood-ratio test against the model without them.
 */
import {
  buildDesignFromColumns,
  logit,
  lrTest,
  ols,
  type Coding,
  type Correction,
  type LrTestResult,
  type RegressionResult,
} from '../stats/index.js';
import { completeRows, numericColumn, requireFilled } from './columns.js';
import { column, type Table } from './table.js';

/**
 * Below this many clusters, cluster-robust standard errors are biased downward (the intervals and
 * p values too narrow); the report says so for Eq. 1, and analyze warns.
 */
export const FEW_CLUSTERS = 30;

/** Resolved parameters of a fit. */
export interface RegressParams {
  outcome: string;
  predictors: string[];
  reference: Record<string, string>;
  interactions: [string, string][];
  cluster: string | null;
  correction: Correction;
  conf: number;
  /** Drop rows with an empty outcome, predictor or cluster cell (complete cases) instead of refusing them. */
  complete?: boolean;
}

/** What `analyze logit|ols` returns (and prints with --json). */
export interface RegressReport {
  format: 'stimkit.analyze.logit' | 'stimkit.analyze.ols';
  version: 1;
  /** `rows`: rows fitted; `dropped`: rows left out as incomplete (with `complete`). */
  input: { file: string; sha256: string; rows: number; dropped: number };
  params: RegressParams;
  codings: Coding[];
  result: RegressionResult;
  /** full model vs the same model without the interaction terms */
  interactionTest: LrTestResult | null;
  /** What to keep in mind reading the numbers (e.g. too few clusters); empty when nothing. */
  warnings: string[];
}

/** The warnings of a fit: too few clusters for cluster-robust SEs. */
export function regressWarnings(result: RegressionResult, cluster: string | null): string[] {
  const g = result.nClusters;
  if (g === null || cluster === null || g >= FEW_CLUSTERS) return [];
  return [
    `only ${g} clusters of ${cluster} (cluster-robust standard errors want ${FEW_CLUSTERS} or more): the SEs are biased downward, so the intervals are too narrow and the p values too small. ` +
      `Fix: cluster by a column with more groups (e.g. the corpus entry), or read these SEs as a demonstration, not as evidence.`,
  ];
}

/** Fit a logit or OLS model to `table`. */
export function regressTable(
  model: 'logit' | 'ols',
  given: Table,
  params: RegressParams,
): RegressReport {
  const used = [...params.predictors, ...(params.cluster ? [params.cluster] : [])];
  const { table, dropped } = params.complete
    ? completeRows(given, [params.outcome, ...used], `analyze ${model}`)
    : { table: given, dropped: 0 };
  requireFilled(table, [params.outcome, ...used], `analyze ${model}`);
  const y = numericColumn(table, params.outcome, model === 'logit');
  const spec = {
    predictors: params.predictors,
    reference: params.reference,
    interactions: params.interactions,
  };
  const values = (c: string): string[] => column(table, c)!;
  const design = buildDesignFromColumns(table.n, values, spec);
  const options = {
    cluster: params.cluster ? values(params.cluster) : undefined,
    correction: params.correction,
    conf: params.conf,
  };
  const fit = model === 'logit' ? logit : ols;
  const result = fit(y, design, options);
  let interactionTest: LrTestResult | null = null;
  if (params.interactions.length > 0) {
    const reduced = fit(
      y,
      buildDesignFromColumns(table.n, values, { ...spec, interactions: [] }),
      options,
    );
    interactionTest = lrTest(reduced, result);
  }
  return {
    format: model === 'logit' ? 'stimkit.analyze.logit' : 'stimkit.analyze.ols',
    version: 1,
    input: { file: table.file, sha256: table.sha256, rows: table.n, dropped },
    params,
    codings: design.codings,
    result,
    interactionTest,
    warnings: regressWarnings(result, params.cluster),
  };
}
