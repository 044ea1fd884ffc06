/**
 * One simulated instrument study in memory: the bundle's instrument trials (optionally only the
 * first k iterations), answered by simulated respondents, scored by the score stage's instrument
 * scorer, analysed by `analyzeInstrument`. Nothing is written; the same parameters give the same
 * numbers (the simulator is a pure function of its seed, the model name and the trial id).
 */
import type { Trial } from '../bundle/format.js';
import {
  analyzeInstrument,
  type InstrumentAnalysis,
  type InstrumentRow,
} from '../analyze/instrument/index.js';
import type { ScoreBundle } from '../score/bundle.js';
import type { InstrumentJudging, JudgeVerdict } from '../score/instrument-judge-apply.js';
import { readJudgeLabel } from '../score/instrument-judge-prompt.js';
import { makeInstrumentScorer } from '../score/instrument.js';
import { DEFAULT_INSTRUMENT_ACCURACY, simInstrumentJudge } from '../score/instrument-sim-judge.js';
import { SCORERS } from '../score/registry.js';
import { scoreResponses } from '../score/score.js';
import type { ModelMeta, ResponseRecord } from '../score/types.js';
import {
  expectedInstrumentModel,
  simulate,
  type ExpectedInstrumentModel,
  type SimBundle,
  type SimParams,
} from '../sim/index.js';

/** A simulated judge of the instrument's free text (a `provider: sim`, `role: judge` model). */
export interface SimJudge {
  name: string;
  seed: number;
  accuracy: number;
}

/** The sim judge's verdicts on these responses, in the form the instrument scorer reads. */
function simJudging(judge: SimJudge, responses: readonly ResponseRecord[]): InstrumentJudging {
  const verdicts = new Map<string, JudgeVerdict>();
  const params = { seed: judge.seed, accuracy: judge.accuracy };
  for (const r of responses) {
    const got = simInstrumentJudge(params, judge.name, r.model, r.trial_id, r.truth ?? null);
    if (!got) continue;
    const v = readJudgeLabel(got.label)!;
    verdicts.set(`${r.trial_id}@${r.model}`, {
      status: 'label',
      label: v.label,
      value: v.value,
      raw: got.label,
      simulated: true,
    });
  }
  return {
    judges: [{ name: judge.name, simulated: true, verdicts }],
    params: { simulated: params },
  };
}

/** The default accuracy of a sim judge's instrument labels. */
export const SIM_JUDGE_ACCURACY = DEFAULT_INSTRUMENT_ACCURACY;

/** A simulated respondent of a study. */
export interface SimModel {
  name: string;
  origin: string | null;
  params: SimParams;
}

/** The instrument trials of one arm with iteration < `iterations` (all iterations when null). */
export function instrumentTrials(
  bundle: ScoreBundle,
  arm: string,
  iterations: number | null,
): Trial[] {
  return bundle.trials.filter(
    (t) =>
      t.paradigm === 'instrument' &&
      t.arm === arm &&
      (iterations === null || (t.iteration ?? 0) < iterations),
  );
}

/** Scored rows of one simulated study, in the shape `analyzeInstrument` reads. */
function simulateRows(
  bundle: ScoreBundle,
  sim: SimBundle,
  trials: readonly Trial[],
  models: readonly SimModel[],
  judge: SimJudge | null = null,
): InstrumentRow[] {
  const responses: ResponseRecord[] = [];
  for (const m of models) {
    for (const trial of trials) {
      const r = simulate(m.params, m.name, trial, sim);
      responses.push({
        trial_id: trial.id,
        model: m.name,
        response: r.text,
        simulated: true,
        truth: r.truth,
        error: null,
      });
    }
  }
  const meta = new Map<string, ModelMeta>(
    models.map((m) => [m.name, { name: m.name, origin: m.origin, vendor: null, simulated: true }]),
  );
  // with a sim judge, free-text answers are labelled as `stimkit score --judge` labels them
  const scorers = judge
    ? SCORERS.map((x) =>
        x.name === 'instrument' ? makeInstrumentScorer(simJudging(judge, responses)) : x,
      )
    : SCORERS;
  const { rows } = scoreResponses(bundle, responses, meta, scorers);
  return rows.map((r) => ({
    model: r.model.name,
    origin: r.model.origin ?? 'unknown',
    topic: r.trial.topic!,
    lang: r.trial.lang,
    framing: r.trial.framing!,
    key: bundle.topics.get(r.trial.topic!)!.affirmative_pole,
    score: r.record.score,
    iteration: r.trial.iteration ?? undefined,
  }));
}

/** Simulate, score and analyse one study. */
export function simulateStudy(
  bundle: ScoreBundle,
  sim: SimBundle,
  trials: readonly Trial[],
  models: readonly SimModel[],
  judge: SimJudge | null = null,
): InstrumentAnalysis {
  return analyzeInstrument(simulateRows(bundle, sim, trials, models, judge));
}

/** The closed-form expected net bias and swing of a respondent over the cells of `trials`. */
export function expectedFor(
  bundle: ScoreBundle,
  trials: readonly Trial[],
  params: SimParams,
): ExpectedInstrumentModel {
  const cells = new Map<
    string,
    { topic: string; lang: string; affirmative_pole: 'plus' | 'minus' }
  >();
  for (const t of trials)
    cells.set(`${t.topic}|${t.lang}`, {
      topic: t.topic!,
      lang: t.lang,
      affirmative_pole: bundle.topics.get(t.topic!)!.affirmative_pole,
    });
  return expectedInstrumentModel(params, [...cells.values()]);
}
