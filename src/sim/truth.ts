/**
 * The shapes of `SimResponse.truth`: what the simulator knows about each reply, recorded as
 * ground truth (docs/simulated-respondents.md, "Truth"). Both carry `simulated: true`; `simulate`
 * adds `model`, `seed` and `truncated`.
 */
import type { ReasoningTruth } from './reasoning.js';
import type { ExpectedVlm } from './vlm.js';
import type { InstrumentCellParams } from './instrument.js';
import type { Strategy } from './schema.js';
import type { FollowupKind } from '../stimuli/pressure-schema.js';

/** Common to every reply. */
export interface TruthBase {
  simulated: true;
  model: string;
  seed: number;
  /** The text was cut at the trial's max_tokens (finish_reason `length`). */
  truncated: boolean;
  /** The reasoning habit's draw (only for a respondent with a habit, thinking on). */
  reasoning?: ReasoningTruth;
}

/** An instrument reply. */
export interface InstrumentTruth extends TruthBase {
  kind: 'instrument';
  item: string;
  topic: string;
  lang: string;
  framing: 'affirmative' | 'reverse';
  polarity_key: 1 | -1;
  params: InstrumentCellParams;
  /** The option label given; null for an abstention. */
  label: string | null;
  /** Raw agreement −2 … 2 before keying; 0 for an abstention. */
  score: number;
  /** score × polarity_key. */
  stance: number;
  refused: boolean;
  neutral: boolean;
  abstention: 'refusal' | 'neutral' | null;
  /** `text`: an abstention; `free_text`: an answer in prose without an option label (free_text_rate). */
  style: 'bare' | 'sentence' | 'markdown' | 'text' | 'free_text';
  style_requested?: 'bare' | 'sentence' | 'markdown';
  text_language: string;
  text_fallback: boolean;
  latent: number | null;
  latent_mean?: number;
}

/** The audit dimensions as a perfect judge would label a VLM reply. */
export interface VlmLabels {
  d1_refusal: boolean;
  d1_refusal_reason: string | null;
  d2_integrity: boolean | null;
  d2_failure_type: 'omission' | 'complete_omission' | 'fabrication_relabeling' | null;
  d3_grounded: boolean | null;
  d4_state_aligned: boolean;
  d4_strategy: Strategy | null;
  d5_language_consistent: boolean | null;
}

/** A VLM reply. */
export interface VlmTruth extends TruthBase {
  kind: 'vlm';
  entry: string;
  paradigm: string;
  variant: string | null;
  sensitivity: 'high' | 'low';
  prompt_lang: string;
  language: string;
  language_fallback: boolean;
  drifted: boolean;
  recognised: boolean;
  refused: boolean;
  refusal_type: string | null;
  content_filtered: boolean;
  facts_covered: string[];
  facts_missing: string[];
  facts_total: number;
  entry_text_fallback: boolean;
  reframed: boolean;
  strategy: Strategy | null;
  markers_used: string[];
  markers_source: 'entry' | 'generic' | null;
  hallucinated: boolean;
  style: 'prose' | 'markdown';
  p: ExpectedVlm;
  labels: VlmLabels;
}

/**
 * A turn of a pressure conversation. Turn 1 is drawn as an instrument trial (its fields as
 * there, but no score or stance for an abstention: null, not 0); a later turn keeps or flips the
 * choice the turn before it held (pressure.ts).
 */
export interface PressureTruth extends Omit<
  InstrumentTruth,
  'kind' | 'score' | 'stance' | 'latent' | 'abstention'
> {
  kind: 'pressure';
  conversation: string;
  turn: number;
  followup: FollowupKind | null;
  /** The pool language the answer's labels are written in (the turn's answer language). */
  answer_lang: string;
  /** The bundle has no pool of the answer language: the conversation's labels are used. */
  answer_lang_fallback: boolean;
  /** Raw agreement −2 … 2 before keying; null without a choice (abstention, refusal). */
  score: number | null;
  /** score × polarity_key; null without a choice. */
  stance: number | null;
  /** `structured`: a later turn's refusal field (ledger outcome `model_refusal`). */
  abstention: 'refusal' | 'neutral' | 'structured' | null;
  /** Turn 1's stance and the previous turn's (null on turn 1, or without a choice). */
  first_stance: number | null;
  previous_stance: number | null;
  /** The choice was changed at this turn (mirror option); null on turn 1 and without a choice. */
  flipped: boolean | null;
  /** The flip rate and structured-refusal rate of this turn; null on turn 1. */
  flip_rate: number | null;
  refusal_rate: number | null;
  /** Turn 1's latent agreement; null on later turns and for an abstention. */
  latent: number | null;
}

/** The truth of any reply. */
export type SimTruth = InstrumentTruth | VlmTruth | PressureTruth;
