/**
 * The simulated judge of the instrument's free text (`provider: sim`, `role: judge`): it reads the
 * score the simulated respondent meant (its recorded truth: −2..+2, 0 for neutral text and
 * refusals) and returns that label with probability `instrument_accuracy`; otherwise a neighbour
 * on the ordered scale Strongly disagree < Disagree < Neutral < Agree < Strongly agree (either
 * side with equal chance, the only one at the ends), the kind of error the paper reports (mostly
 * neutral-versus-stance or intensity, rarely a flipped direction). Draws are a function of
 * (seed, judge, model, trial), so a rerun gives the same labels. Responses without a simulated
 * truth cannot be judged by it.
 */
import { uniform } from '../audit/sim-judge.js';
import { judgeLabelOf, type JudgeLabel } from './instrument-judge-prompt.js';

/** Default accuracy of the sim instrument judge (the models file's `sim.judge.instrument_accuracy`). */
export const DEFAULT_INSTRUMENT_ACCURACY = 0.95;

/** The sim judge's parameters for instrument answers. */
export interface SimInstrumentJudgeParams {
  seed: number;
  accuracy: number;
}

/** The score a simulated instrument response meant, or null when the truth is not an instrument truth. */
function trueInstrumentScore(truth: Record<string, unknown> | null): number | null {
  if (!truth || truth.kind !== 'instrument') return null;
  return typeof truth.score === 'number' && [-2, -1, 0, 1, 2].includes(truth.score)
    ? truth.score
    : null;
}

/**
 * The sim judge's label for one simulated instrument response, with the true label.
 *
 * @example simInstrumentJudge({seed: 11, accuracy: 0.95}, 'sim-judge', 'sim-a', 't_…', {kind: 'instrument', score: 1})
 */
export function simInstrumentJudge(
  p: SimInstrumentJudgeParams,
  judge: string,
  model: string,
  trialId: string,
  truth: Record<string, unknown> | null,
): { label: JudgeLabel; truth: { label: JudgeLabel; score: number } } | null {
  const score = trueInstrumentScore(truth);
  if (score === null) return null;
  let value = score;
  if (uniform(p.seed, judge, model, trialId, 'instrument') >= p.accuracy) {
    const down =
      score === 2
        ? true
        : score === -2
          ? false
          : uniform(p.seed, judge, model, trialId, 'instrument-error') < 0.5;
    value = score + (down ? -1 : 1);
  }
  return { label: judgeLabelOf(value), truth: { label: judgeLabelOf(score), score } };
}
