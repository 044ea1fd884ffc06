/**
 * `stimkit analyze logit|ols`: fit the model to a CSV table. Numeric columns enter as they are,
 * text columns treatment-coded (reference from --reference, else the first level in sorted
 * order), `A:B` interactions as products; cluster-robust SEs with the chosen correction. With
 * interactions, a likelihood-ratio test against the model without them.
 */
import {
  buildDesignFromColumns,
  firth,
  firthTest,
  logit,
  lrTest,
  ols,
  wildClusterBootstrap,
  type BuiltDesign,
  type Coding,
  type Correction,
  type FitOptions,
  type LrTestResult,
  type RegressionResult,
  type SeparationReport,
  type WildResult,
  type WildWeights,
} from '../stats/index.js';
import type { StimkitError } from '../core/errors.js';
import { completeRows, numericColumn, requireFilled } from './columns.js';
import { simulatedRows, type SimulatedRows } from './simulated.js';
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
  /** logit: Firth's penalised likelihood with profile intervals (no `cluster`). */
  firth?: boolean;
  /** ols with `cluster`: a wild cluster bootstrap test of every coefficient but the intercept. */
  bootstrap?: BootstrapParams | null;
}

/** The wild cluster bootstrap's settings. */
export interface BootstrapParams {
  weights: WildWeights;
  reps: number;
  seed: number;
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
  /** Rows fitted that are simulated (the table's `simulated` column); null when it has none. */
  simulated: SimulatedRows | null;
  /** logit: the coefficients whose maximum-likelihood estimates are infinite (checked with --firth). */
  separation?: SeparationReport;
  /** ols with --wild-bootstrap: one test per coefficient but the intercept. */
  bootstrap?: WildResult[];
}

/** Where to read p values and intervals that hold with few clusters, once the bootstrap was run. */
const READ_BOOTSTRAP =
  'read the p values and intervals of the wild cluster bootstrap table (--wild-bootstrap), which hold with few clusters';

/**
 * The warnings of a fit: too few clusters for cluster-robust SEs, with a remedy that fits the
 * clustering (with the bootstrap already run, its table).
 */
function regressWarnings(
  result: RegressionResult,
  cluster: string | null,
  bootstrap: boolean,
  model: 'logit' | 'ols' = result.model,
): string[] {
  const g = result.nClusters;
  if (g === null || cluster === null || g >= FEW_CLUSTERS) return [];
  const head = `only ${g} clusters of ${cluster} (cluster-robust standard errors want ${FEW_CLUSTERS} or more): the SEs are biased downward, so the intervals are too narrow and the p values too small.`;
  if (bootstrap) return [`${head} Instead, ${READ_BOOTSTRAP}.`];
  const remedy =
    model === 'ols'
      ? 'add --wild-bootstrap for p values and intervals that hold with few clusters (a wild cluster bootstrap)'
      : cluster === 'entry'
        ? 'add entries to the corpus'
        : cluster === 'conversation'
          ? 'run more conversations (more items, iterations or languages in the pressure block)'
          : 'cluster by a column with more groups (e.g. --cluster entry, the corpus entry)';
  return [`${head} Fix: ${remedy}, or read these SEs as a demonstration, not as evidence.`];
}

/** Why the cluster-robust SEs were refused when the bootstrap was asked for: the problem without its fix (which offers the bootstrap). */
function refusedWithBootstrap(err: StimkitError): string {
  const p = err.problems[0];
  const why = p ? `${p.message} (expected ${p.expected}, got ${p.got})` : err.message;
  return `${why}. The table shows model-based standard errors; ${READ_BOOTSTRAP} and respect the clustering.`;
}

/** The rows, outcome and design of a fit: what the fit and the separation check share. */
export interface RegressionInputs {
  table: Table;
  dropped: number;
  y: number[];
  design: BuiltDesign;
  values: (column: string) => string[];
}

/** Check the columns, leave out incomplete rows (with `complete`) and build the design. */
export function regressionInputs(
  model: 'logit' | 'ols',
  given: Table,
  params: RegressParams,
): RegressionInputs {
  const used = [...params.predictors, ...(params.cluster ? [params.cluster] : [])];
  const { table, dropped } = params.complete
    ? completeRows(given, [params.outcome, ...used], `analyze ${model}`)
    : { table: given, dropped: 0 };
  requireFilled(table, [params.outcome, ...used], `analyze ${model}`);
  const y = numericColumn(table, params.outcome, model === 'logit');
  const values = (c: string): string[] => column(table, c)!;
  const design = buildDesignFromColumns(table.n, values, {
    predictors: params.predictors,
    reference: params.reference,
    interactions: params.interactions,
  });
  return { table, dropped, y, design, values };
}

/** Fit a logit or OLS model to `table`; `fit` as FitOptions (`largeEffects`). */
export function regressTable(
  model: 'logit' | 'ols',
  given: Table,
  params: RegressParams,
  fit: Pick<FitOptions, 'largeEffects'> = {},
): RegressReport {
  const inputs = regressionInputs(model, given, params);
  const { table, dropped, y, design, values } = inputs;
  const options: FitOptions = {
    cluster: params.cluster ? values(params.cluster) : undefined,
    correction: params.correction,
    conf: params.conf,
    ...fit,
  };
  let result: RegressionResult;
  let interactionTest: LrTestResult | null = null;
  let refused: string | null = null;
  const inter = design.interactions;
  if (model === 'logit' && params.firth) {
    result = firth(y, design, { conf: params.conf });
    if (inter.length > 0) {
      const t = firthTest(y, design, result.llf, new Map(inter.map((j) => [j, 0])));
      interactionTest = {
        statistic: t.statistic,
        df: t.df,
        p: t.p,
        llfReduced: t.llfReduced,
        llfFull: result.llf,
        added: inter.map((j) => design.names[j]!),
      };
    }
  } else {
    const fit = model === 'logit' ? logit : ols;
    try {
      result = fit(y, design, options);
    } catch (err) {
      // too few clusters for a clustered SE: with the bootstrap asked for, show model-based SEs beside it
      if (!(params.bootstrap && (err as StimkitError).code === 'E_STATS_FEW_CLUSTERS')) throw err;
      refused = refusedWithBootstrap(err as StimkitError);
      options.cluster = undefined;
      result = fit(y, design, options);
    }
    if (inter.length > 0) {
      const spec = { predictors: params.predictors, reference: params.reference, interactions: [] };
      interactionTest = lrTest(
        fit(y, buildDesignFromColumns(table.n, values, spec), options),
        result,
      );
    }
  }
  const report: RegressReport = {
    format: model === 'logit' ? 'stimkit.analyze.logit' : 'stimkit.analyze.ols',
    version: 1,
    input: { file: table.file, sha256: table.sha256, rows: table.n, dropped },
    params,
    codings: design.codings,
    result,
    interactionTest,
    warnings: refused
      ? [refused]
      : regressWarnings(result, params.cluster, Boolean(params.bootstrap), model),
    simulated: simulatedRows(table),
  };
  if (params.bootstrap && params.cluster) report.bootstrap = bootstrapTerms(inputs, params);
  return report;
}

/** The wild cluster bootstrap test of each coefficient but the intercept. */
function bootstrapTerms(inputs: RegressionInputs, params: RegressParams): WildResult[] {
  const { y, design, values } = inputs;
  const cluster = values(params.cluster!);
  return design.names.flatMap((name, j) =>
    name === 'Intercept'
      ? []
      : [
          wildClusterBootstrap(y, design, cluster, {
            term: j,
            weights: params.bootstrap!.weights,
            reps: params.bootstrap!.reps,
            seed: params.bootstrap!.seed,
            conf: params.conf,
          }),
        ],
  );
}
