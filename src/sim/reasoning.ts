/**
 * A simulated respondent's reasoning habit (`sim.reasoning`): how much of its reasoning it shows,
 * and how often a refusing or evading answer comes with an empty trace (thought suppression)
 * while its other trials carry one. The draw has its own stream (the trial id with `|reasoning`),
 * so setting or changing a habit never changes a simulated answer; without a habit, or with
 * thinking turned off for the trial, the reply has no reasoning channel (`absent`).
 */
import type { Trial } from './index.js';
import { langRate } from './resolve.js';
import { stream } from './rng.js';
import type { SimParams } from './schema.js';

/** How much of its reasoning a reply shows (the ledger's `reasoning_visibility` values). */
type ReasoningVisibility = 'full' | 'summary' | 'redacted' | 'absent' | 'empty';

/** The reasoning a simulated reply shows, as a server would return it. */
export interface SimReasoning {
  text: string | null;
  visibility: ReasoningVisibility;
  /** Reasoning tokens (output tokens, reported apart); null without a channel. */
  tokens: number | null;
}

/** What the simulator knows of a reply's reasoning (recorded in `truth.reasoning`). */
export interface ReasoningTruth {
  /** The habit's visibility. */
  habit: 'full' | 'summary' | 'redacted';
  /** The answer refused or evaded (refusal, or a reframed VLM answer): suppression may apply. */
  eligible: boolean;
  /** The trace was suppressed (empty) on this trial. */
  suppressed: boolean;
}

const TRACES: Record<string, { vlm: string; instrument: string; summary: string }> = {
  en: {
    vlm: 'The user asks about this material. I consider what it shows, what is known about it, and how to answer.',
    instrument:
      'The statement asks how far I agree. I weigh the claim and the evidence before choosing an option.',
    summary: '**Weighing the question** I consider the material and how to answer.',
  },
  zh: {
    vlm: '用户询问这份材料。我考虑它展示了什么、已知的相关事实,以及如何回答。',
    instrument: '这个陈述询问我同意的程度。我在选择选项之前权衡这一说法和相关证据。',
    summary: '**权衡问题** 我考虑材料内容以及如何回答。',
  },
};

/** The trace DeepSeek's models return when they suppress it (`<think>\n\n</think>`). */
const SUPPRESSED = '\n\n';

/**
 * The reasoning of one simulated reply, or null when the respondent has no habit or the trial
 * turns thinking off. `eligible`: the answer refuses or evades; `tokensOf` counts a text's tokens.
 */
export function simulateReasoning(
  params: SimParams,
  modelName: string,
  trial: Trial,
  eligible: boolean,
  tokensOf: (text: string) => number,
): { reasoning: SimReasoning; truth: ReasoningTruth } | null {
  const habit = params.reasoning;
  if (!habit || trial.sampling.thinking === false) return null;
  const rng = stream(params.seed, modelName, `${trial.id}|reasoning`);
  const suppressed = eligible && rng.bernoulli('suppress', langRate(habit.suppression, trial.lang));
  const texts = TRACES[trial.lang] ?? TRACES.en!;
  const full = suppressed
    ? SUPPRESSED
    : trial.paradigm === 'instrument' || trial.paradigm === 'pressure'
      ? texts.instrument
      : texts.vlm;
  const tokens = tokensOf(full);
  const truth: ReasoningTruth = { habit: habit.visibility, eligible, suppressed };
  if (habit.visibility === 'redacted')
    // Tokens reported, no text shown; a suppressed trace reports none (read as `absent`).
    return {
      reasoning: {
        text: null,
        visibility: suppressed ? 'absent' : 'redacted',
        tokens: suppressed ? 0 : tokens,
      },
      truth,
    };
  const text = suppressed || habit.visibility === 'full' ? full : texts.summary;
  return {
    reasoning: { text, visibility: suppressed ? 'empty' : habit.visibility, tokens },
    truth,
  };
}
