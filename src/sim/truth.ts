/**
 * The shapes of `SimResponse.truth`: what the simulator knows about each reply, recorded as
 * ground truth (docs/simulated-respondents.md, "Truth"). Both carry `simulated: true`; `simulate`
 * adds `model`, `seed` and `truncated`.
 */
import type { ReasoningTruth } from './reasoning.js';
import type { ExpectedVlm } from './vlm.js';
import type { InstrumentCellParams } from './instrument.js';
import type { Strategy } from './schema.js';

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

/** The truth of any reply. */
export type SimTruth = InstrumentTruth | VlmTruth;
