/**
 * The `sim:` block of a `provider: sim` model in a models file: the parameters of one simulated
 * respondent. Every field has a default, so `sim: {}` is a valid (neutral, compliant) respondent.
 * docs/simulated-respondents.md describes every parameter, the generative model and the expected
 * net bias and swing; this zod schema is the source of truth.
 */
import { z } from 'zod';
import { FOLLOWUP_KINDS } from '../study/pressure-block.js';

const Prob = z.number().min(0).max(1);
/** Topic ids are slugs and language tags BCP 47 style; cell keys are `topic/lang`. */
const CellKey = z
  .string()
  .regex(/^[a-z0-9._-]+\/[A-Za-z0-9-]+$/, 'a cell key is "topic/lang", e.g. "taiwan/zh"');

/**
 * A per-topic × language quantity of the instrument: a number (the same everywhere), or a base
 * value with additive shifts per topic and per language, and absolute values for single cells.
 * value(topic, lang) = cells["topic/lang"] ?? default + by_topic[topic] + by_lang[lang].
 */
function cellField(base: z.ZodNumber) {
  return z.union([
    base,
    z.strictObject({
      default: z.number().default(0),
      by_topic: z.record(z.string(), z.number()).default({}),
      by_lang: z.record(z.string(), z.number()).default({}),
      cells: z.record(CellKey, base).default({}),
    }),
  ]);
}
/** A per-topic × language real quantity (conviction, acquiescence). */
const CellValue = cellField(z.number().min(-10).max(10));
/** A per-topic × language rate; the sum of default and shifts is clamped to [0, 1]. */
const CellRate = cellField(z.number().min(0).max(1));
/** A per-topic × language noise sd; the sum is clamped to [0.01, 10]. */
const CellNoise = cellField(z.number().min(0.01).max(10));
export type CellField = z.output<typeof CellValue>;

/** A rate per language: a number, or `{default, <lang>: rate, …}`. */
export const LangRate = z.union([Prob, z.record(z.string(), Prob)]);
export type LangRate = z.output<typeof LangRate>;

/** A rate per image sensitivity × language. */
export const SensLangRate = z.strictObject({ high: LangRate.default(0), low: LangRate.default(0) });
export type SensLangRate = z.output<typeof SensLangRate>;

/** Weights of a categorical choice: one name (weight 1) or `{name: weight}` (normalized). */
function weights<T extends readonly [string, ...string[]]>(names: T) {
  const e = z.enum(names);
  return z.union([
    e,
    z
      .partialRecord(e, z.number().min(0))
      .refine(
        (w) => Object.values(w).some((x) => typeof x === 'number' && x > 0),
        'at least one weight must be positive',
      ),
  ]);
}

export const INSTRUMENT_STYLES = ['bare', 'sentence', 'markdown'] as const;
export const VLM_STYLES = ['prose', 'markdown'] as const;
export const REFUSAL_TYPES = ['capability', 'policy', 'vague', 'refutation'] as const;
export type RefusalType = (typeof REFUSAL_TYPES)[number];
/** The audit paper's discourse strategies: DT1 overt endorsement, DT2 substitution, DT3 deflection. */
export const STRATEGIES = ['endorse', 'substitute', 'deflect'] as const;
export type Strategy = (typeof STRATEGIES)[number];

/** The forced-choice instrument (paradigm `instrument`). */
const SimInstrument = z.strictObject({
  /** Latent lean toward the `plus` pole of the topic's stance axis (negative: toward `minus`). */
  conviction: CellValue.default(0),
  /** Latent tendency to agree with whatever proposition is asserted, regardless of framing. */
  acquiescence: CellValue.default(0),
  /** Standard deviation of the latent noise (logistic distribution scaled to this sd). */
  noise: CellNoise.default(0.5),
  /** Latent cut point between agree and strongly agree (and between disagree and strongly disagree). */
  strong_threshold: z.number().min(0).max(10).default(1),
  /** Rate of neutral, side-free text (scored 0 as judged neutral). */
  neutral_rate: CellRate.default(0),
  /** Rate of explicit refusals to answer (scored 0; excluded as invalid by answered-only analyses). */
  refusal_rate: CellRate.default(0),
  /**
   * Rate of answers given as free text: prose that states the chosen label's direction and
   * strength without naming an option (the parser cannot read it; a judge can). Among answers,
   * not abstentions; the label is drawn as for any answer and recorded in the truth.
   */
  free_text_rate: CellRate.default(0),
  /** Answer style: bare label, label with one sentence, or markdown. */
  style: weights(INSTRUMENT_STYLES).default('bare'),
});
type SimInstrument = z.output<typeof SimInstrument>;

/** Per-variant recognition factors (A0 the original … A6 the most abstract). */
const Recognition = z
  .strictObject({
    A0: Prob.default(1),
    A1: Prob.default(0.95),
    A2: Prob.default(0.85),
    A3: Prob.default(0.7),
    A4: Prob.default(0.5),
    A5: Prob.default(0.3),
    A6: Prob.default(0.15),
  })
  .prefault({});

/** The VLM paradigms (describe, comment-image, comment-text, abstraction, narrative). */
const SimVlm = z.strictObject({
  /** Probability that each expected fact is conveyed, per paradigm (`default` for the rest). */
  fact_coverage: z.union([Prob, z.record(z.string(), Prob)]).default(0.8),
  /** Refusal rate per sensitivity × language. */
  refusal: SensLangRate.prefault({}),
  /** Weights of the refusal styles. */
  refusal_styles: weights(REFUSAL_TYPES).default({ capability: 1, policy: 1, vague: 1 }),
  /** Rate of a gateway content filter (empty text, finish_reason content_filter) per sensitivity × language. */
  content_filter: SensLangRate.prefault({}),
  /** Rate of reframing with the entry's narrative markers, per sensitivity × language (among non-refusals). */
  reframe: SensLangRate.prefault({}),
  /** Weights of the discourse strategy of a reframed response (one per response). */
  reframe_strategies: weights(STRATEGIES).default({ endorse: 1, substitute: 1, deflect: 1 }),
  /** Rate of a visual detail that is not in the image (a grounding error) in an answered image trial. */
  hallucination: Prob.default(0),
  /** Markers used in one reframed response (at most the markers available; substitution uses one). */
  markers_per_response: z.number().int().min(1).max(5).default(2),
  /** Rate of answering in the other language (en ↔ zh; any other language → en), per prompt language. */
  drift: LangRate.default(0),
  /**
   * Recognition per image variant: multiplies fact coverage, refusal, content filter and reframing
   * rates of image trials (a model cannot refuse or reframe what it does not recognise).
   */
  recognition: Recognition,
  /** Response style: prose paragraphs or markdown (heading and bullet points). */
  style: weights(VLM_STYLES).default('prose'),
});
type SimVlm = z.output<typeof SimVlm>;

const JudgeProb = z.number().min(0).max(1);
const JudgeDims = z.strictObject({
  d1: JudgeProb.optional(),
  d2: JudgeProb.optional(),
  d3: JudgeProb.optional(),
  d4: JudgeProb.optional(),
  d5: JudgeProb.optional(),
});

/**
 * A simulated judge's accuracy (only for `role: judge`): per dimension D1–D5 the probability of
 * labelling a true positive positive (sensitivity) and a true negative negative (specificity),
 * and the confidence it reports; and its accuracy on free-text instrument answers. Omitted values take the primary judge's accuracies of the audit
 * paper's Figure A1 (docs/audit.md).
 */
const SimJudge = z.strictObject({
  sensitivity: JudgeDims.optional(),
  specificity: JudgeDims.optional(),
  confidence: JudgeProb.optional(),
  /** Probability of giving the intended label to a free-text instrument answer (else a neighbouring label); default 0.95. */
  instrument_accuracy: JudgeProb.optional(),
});

/**
 * A respondent's reasoning habit: how much of its reasoning it shows, and the rate at which a
 * refusing or evading answer comes with an empty trace (thought suppression), per language.
 */
const SimReasoningHabit = z.strictObject({
  /** full: the trace as written; summary: a summary of it; redacted: tokens reported, no text. */
  visibility: z.enum(['full', 'summary', 'redacted']).default('full'),
  /** Probability that a refusing or evading answer (a refusal, a reframed VLM answer) has an empty trace. */
  suppression: LangRate.default(0),
});

/**
 * How the respondent holds its answer over the follow-up turns of a pressure conversation: at
 * each later turn it changes to the mirror option (the other side, the same strength) with the
 * flip rate, else repeats its choice; or declines in a structured way (a refusal field).
 */
const SimPressure = z.strictObject({
  /** Probability of changing the answer at a follow-up turn, per topic × conversation language. */
  flip_rate: CellRate.default(0),
  /** Factor of `flip_rate` per follow-up kind (the product clamped to [0, 1]); a kind not listed: 1. */
  followup_factor: z.partialRecord(z.enum(FOLLOWUP_KINDS), z.number().min(0).max(100)).default({}),
  /** Probability of a structured refusal at a follow-up turn (its later turns are not sent). */
  refusal_rate: CellRate.default(0),
});

/** The `sim:` block of a `provider: sim` model. */
export const SimParams = z.strictObject({
  /** Seed of this respondent; responses are a function of (seed, model name, trial id). */
  seed: z.number().int().min(0).default(0),
  instrument: SimInstrument.prefault({}),
  vlm: SimVlm.prefault({}),
  /** The reasoning habit; absent: the replies have no reasoning channel. */
  reasoning: SimReasoningHabit.optional(),
  /** Answers under pressure (paradigm `pressure`); absent: the respondent never flips nor refuses a follow-up. */
  pressure: SimPressure.optional(),
  /** A simulated judge's accuracy (models with `role: judge`); absent for respondents. */
  judge: SimJudge.optional(),
});
/** Resolved parameters (after defaults). */
export type SimParams = z.output<typeof SimParams>;
/** Parameters as written in a models file. */
export type SimParamsInput = z.input<typeof SimParams>;
