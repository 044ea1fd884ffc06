/**
 * One study size of the power analysis: `replications` simulated studies of the given trials,
 * each respondent's net-bias tests counted against alpha, and one row per model.
 */
import type { ScoreBundle } from '../score/bundle.js';
import type { SimBundle } from '../sim/index.js';
import type { Trial } from '../bundle/format.js';
import type { PowerOptions, PowerRow } from './power.js';
import { expectedFor, simulateStudy, type SimJudge, type SimModel } from './study.js';

/** What every replication of one study size simulates. */
export interface PowerStudy {
  bundle: ScoreBundle;
  sim: SimBundle;
  trials: Trial[];
  models: SimModel[];
  judge: SimJudge | null;
}

const mean = (x: number[]) => x.reduce((s, v) => s + v, 0) / x.length;
const sdOf = (x: number[]) =>
  x.length < 2 ? 0 : Math.sqrt(x.reduce((s, v) => s + (v - mean(x)) ** 2, 0) / (x.length - 1));

interface Tally {
  net: number[];
  swing: number[];
  zero: number[];
  t: number;
  holm: number;
  w: number;
}

/** The rows of study size `k` (iterations): replication r runs every respondent with seed + r. */
export function powerAt(
  k: number,
  study: PowerStudy,
  options: Pick<PowerOptions, 'replications' | 'alpha'>,
): PowerRow[] {
  const { bundle, sim, trials, models, judge } = study;
  const per = new Map<string, Tally>(
    models.map((m) => [m.name, { net: [], swing: [], zero: [], t: 0, holm: 0, w: 0 }]),
  );
  for (let r = 0; r < options.replications; r++) {
    const reps = models.map((m) => ({
      ...m,
      params: { ...m.params, seed: m.params.seed + r },
    }));
    const analysis = simulateStudy(bundle, sim, trials, reps, judge);
    for (const m of analysis.models) {
      const acc = per.get(m.model)!;
      acc.net.push(m.net);
      acc.swing.push(m.swing);
      acc.zero.push(m.answeredOnly.excludedShare);
      if (m.cellTest && m.cellTest.pT < options.alpha) acc.t++;
      if (m.cellTest?.pTHolm !== undefined && m.cellTest.pTHolm < options.alpha) acc.holm++;
      const pw = m.cellTest?.pWilcoxon ?? null;
      if (pw !== null && pw < options.alpha) acc.w++;
    }
  }
  return models.map((m) => {
    const acc = per.get(m.name)!;
    const exp = expectedFor(bundle, trials, m.params);
    const n = options.replications;
    return {
      model: m.name,
      iterations: k,
      replications: n,
      expected_net: exp.net,
      expected_swing: exp.swing,
      mean_net: mean(acc.net),
      sd_net: sdOf(acc.net),
      mean_swing: mean(acc.swing),
      mean_zero_share: mean(acc.zero),
      power_t: acc.t / n,
      power_holm: acc.holm / n,
      power_wilcoxon: acc.w / n,
    };
  });
}
