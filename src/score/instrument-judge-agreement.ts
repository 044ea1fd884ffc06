/**
 * Agreement between free-text judges, as the instrument paper's section 4.5 reports it: on the
 * answers both judges labelled (one of the five labels each), exact agreement, quadratic-weighted
 * Cohen's kappa over the five ordered labels (−2..+2), and the signed drift mean(B − A) on the
 * keyed stance axis (positive: judge B places answers further toward the `plus` pole) and before
 * keying. The primary judge is A; every other judge is compared with it.
 */
import { cohenKappa } from '../stats/agreement.js';
import type { JudgeVerdict } from './instrument-judge-apply.js';

/** Agreement of one judge with the primary judge. */
export interface JudgePairAgreement {
  a: string;
  b: string;
  /** Answers both judges labelled. */
  n: number;
  /** Answers judged by one of the two only, or with an unparseable reply or failed call from either. */
  excluded: number;
  exact: number | null;
  kappa_quadratic: number | null;
  /** mean(stance_B − stance_A) after keying. */
  drift_stance: number | null;
  /** mean(score_B − score_A) before keying. */
  drift_score: number | null;
}

const SCALE = [-2, -1, 0, 1, 2];

/**
 * Agreement of judge `b` with judge `a`; `signOf(key)` is the keying sign (±1) of the judged answer.
 *
 * @example pairAgreement('gpt', gptVerdicts, 'qwen', qwenVerdicts, (k) => signs.get(k)!)
 */
export function pairAgreement(
  a: string,
  va: ReadonlyMap<string, JudgeVerdict>,
  b: string,
  vb: ReadonlyMap<string, JudgeVerdict>,
  signOf: (key: string) => number,
): JudgePairAgreement {
  const xs: number[] = [];
  const ys: number[] = [];
  let drift = 0;
  const keys = new Set([...va.keys(), ...vb.keys()]);
  for (const k of keys) {
    const x = va.get(k);
    const y = vb.get(k);
    if (x?.status !== 'label' || y?.status !== 'label' || x.value === null || y.value === null)
      continue;
    xs.push(x.value);
    ys.push(y.value);
    drift += signOf(k) * (y.value - x.value);
  }
  const n = xs.length;
  if (n === 0)
    return {
      a,
      b,
      n,
      excluded: keys.size,
      exact: null,
      kappa_quadratic: null,
      drift_stance: null,
      drift_score: null,
    };
  const kappa = cohenKappa(xs, ys, { categories: SCALE, weights: 'quadratic' }).kappa;
  return {
    a,
    b,
    n,
    excluded: keys.size - n,
    exact: xs.filter((x, i) => x === ys[i]).length / n,
    kappa_quadratic: Number.isFinite(kappa) ? kappa : null,
    drift_stance: drift / n,
    drift_score: ys.reduce((s, y, i) => s + y - xs[i]!, 0) / n,
  };
}
