/**
 * stimkit's statistics core: plain functions, each matching a named reference implementation
 * (statsmodels, scipy, R) and tested against the vectors in test/stats/vectors/. See
 * docs/statistics.md for formulas, conventions and references.
 */
export { wilson, type WilsonInterval } from './wilson.js';
export { holm } from './holm.js';
export { oneSampleT, pairedT, welchT, type OneSampleTResult, type WelchTResult } from './ttest.js';
export { wilcoxonSignedRank, type WilcoxonResult, type WilcoxonOptions } from './wilcoxon.js';
export { mannWhitney, type MannWhitneyResult, type MannWhitneyOptions } from './mannwhitney.js';
export { spearman, pearson, type SpearmanResult } from './spearman.js';
export { jonckheere, type JonckheereResult } from './jonckheere.js';
export { mcnemar, type McNemarResult } from './mcnemar.js';
export {
  cohenKappa,
  fleissKappa,
  gwetAc1,
  ratingCounts,
  sortedCategories,
  type CohenKappaResult,
  type FleissKappaResult,
  type GwetAc1Result,
  type KappaWeights,
  type Label,
} from './agreement.js';
export { logit } from './logit.js';
export { firth, firthTest, type FirthOptions, type FirthResult } from './firth.js';
export { detectSeparation, type SeparationReport, type SeparatedTerm } from './separation.js';
export {
  wildClusterBootstrap,
  type WildOptions,
  type WildResult,
  type WildWeights,
} from './wildboot.js';
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
export { mean, sd, midranks, tieSizes } from './ranks.js';
export { phi, phiInv, pNormal2, pStudent2, chisqSf, zCrit } from './dist.js';
