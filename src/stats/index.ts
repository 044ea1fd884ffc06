/**
 * stimkit's statistics core: plain functions, each matching a named reference implementation
 * (statsmodels, scipy, R) and tested against the vectors in test/stats/vectors/. See
 * docs/statistics.md for formulas, conventions and references.
 */
export { wilson } from './wilson.js';
export { holm } from './holm.js';
export { oneSampleT, pairedT, welchT } from './ttest.js';
export { wilcoxonSignedRank } from './wilcoxon.js';
export { mannWhitney } from './mannwhitney.js';
/** @internal Documented (docs/statistics.md) and checked against vectors; no command runs it yet. */
export { spearman } from './spearman.js';
/** @internal As spearman: docs/DESIGN.md names it for the ladder, which analyze does not test yet. */
export { jonckheere } from './jonckheere.js';
export {
  cohenKappa,
  fleissKappa,
  gwetAc1,
  ratingCounts,
  sortedCategories,
  type KappaWeights,
  type Label,
} from './agreement.js';
export { logit } from './logit.js';
export { firth, firthTest } from './firth.js';
export { detectSeparation, type SeparationReport } from './separation.js';
export { wildClusterBootstrap, type WildResult, type WildWeights } from './wildboot.js';
export { ols } from './ols.js';
export { lrTest, type LrTestResult } from './lrtest.js';
export {
  buildDesign,
  buildDesignFromColumns,
  type BuiltDesign,
  type Coding,
  type DesignSpec,
} from './design.js';
export type { Correction, Design, FitOptions, RegressionResult, Term } from './regression.js';
export { mean, sd } from './ranks.js';
export { zCrit } from './dist.js';
