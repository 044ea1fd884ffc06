/**
 * Judge attenuation (the audit paper's Appendix G) and the Rogan–Gladen prevalence correction.
 * With judge sensitivity s = Pr(Ŷ=1 | Y=1) and specificity σ = Pr(Ŷ=0 | Y=0), the observed rate is
 * p̂ = s·π + (1 − σ)(1 − π) (Eq. 3), so the true rate is π = (p̂ + σ − 1)/(s + σ − 1) (Rogan and
 * Gladen 1978), clipped to [0, 1]. Its interval is a delta-method interval that adds the
 * uncertainty of s and σ when they come from a validation sample (counts given), else the Wilson
 * interval of p̂ mapped through the same (monotone) correction.
 */
import { StimkitError } from '../core/errors.js';
import { wilson, zCrit } from '../stats/index.js';
import type { CorrectedRate } from './validation-format.js';

/** A sensitivity or specificity: a value, optionally with the validation counts it came from. */
export interface Accuracy {
  value: number;
  /** Validation positives (for s) or negatives (for σ) it was estimated on; enables its variance. */
  n?: number;
}

const clip = (v: number) => Math.min(1, Math.max(0, v));

/** π = (p + σ − 1)/(s + σ − 1), unclipped. */
export function roganGladen(observed: number, sensitivity: number, specificity: number): number {
  const youden = sensitivity + specificity - 1;
  if (youden <= 0) {
    throw StimkitError.fromProblem({
      code: 'E_AUDIT_JUDGE_UNINFORMATIVE',
      message:
        'the Rogan–Gladen correction needs sensitivity + specificity > 1 (a judge better than chance)',
      got: `sensitivity ${sensitivity}, specificity ${specificity}`,
      fix: 'check the validation confusion matrix; a judge at or below chance cannot be corrected',
    });
  }
  return (observed + specificity - 1) / youden;
}

/**
 * Correct an observed count `x` of `n` for the judge's sensitivity and specificity.
 *
 * @example
 * correctPrevalence(44, 400, { value: 0.44, n: 41 }, { value: 0.981, n: 159 }).corrected // ≈ 0.214
 */
export function correctPrevalence(
  x: number,
  n: number,
  sensitivity: Accuracy,
  specificity: Accuracy,
  conf = 0.95,
): CorrectedRate {
  const w = wilson(x, n, conf);
  const s = sensitivity.value;
  const sp = specificity.value;
  const raw = roganGladen(w.pHat, s, sp);
  const youden = s + sp - 1;
  const observed = { x, n, rate: w.pHat, lower: w.lower, upper: w.upper };
  if (sensitivity.n === undefined && specificity.n === undefined) {
    return {
      observed,
      sensitivity: s,
      specificity: sp,
      corrected: clip(raw),
      lower: clip(roganGladen(w.lower, s, sp)),
      upper: clip(roganGladen(w.upper, s, sp)),
      method: 'wilson-mapped',
      clipped: raw < 0 || raw > 1,
    };
  }
  const pi = clip(raw);
  const varP = (w.pHat * (1 - w.pHat)) / n;
  const varS = sensitivity.n ? (s * (1 - s)) / sensitivity.n : 0;
  const varSp = specificity.n ? (sp * (1 - sp)) / specificity.n : 0;
  const se = Math.sqrt((varP + pi * pi * varS + (1 - pi) * (1 - pi) * varSp) / (youden * youden));
  const z = zCrit(conf);
  return {
    observed,
    sensitivity: s,
    specificity: sp,
    corrected: pi,
    lower: clip(pi - z * se),
    upper: clip(pi + z * se),
    method: 'delta',
    clipped: raw < 0 || raw > 1,
  };
}
