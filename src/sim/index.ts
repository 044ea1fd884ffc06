/**
 * Simulated respondents (`provider: sim` in a models file): the contract between the run stage
 * and the simulator. The run stage calls `loadSimBundle` once per bundle and `simulate` once per
 * trial × model; the simulator is pure and deterministic in (params, model name, trial id).
 *
 * This file holds the types and the entry points; the implementation lives beside it.
 */
import type { Trial } from '../bundle/format.js';
import type { SimEntry, SimItem, SimPool } from './bundle.js';
import type { SimReasoning } from './reasoning.js';

/** What the simulator needs from a bundle besides the trial: read from the bag's data/ files. */
export interface SimBundle {
  /** The bundle digest (the sha256 of manifest-sha256.txt). */
  digest: string;
  /** Parsed `data/entries.json` `entries` (VLM paradigms), by entry id. */
  entries: Map<string, SimEntry>;
  /** Parsed `data/items.json` items (instrument), by item id. */
  items: Map<string, SimItem>;
  /** Parsed `data/wrappers.json` pools, by language. */
  wrappers: Map<string, SimPool>;
  /**
   * Every trial of `data/trials.jsonl` by id (pressure: a later turn's answer depends on the
   * earlier turns of its conversation, recomputed from these); may be absent without pressure trials.
   */
  trials?: ReadonlyMap<string, Trial>;
  /** The study's `pressure.other_language` (the language an `other_language` turn asks for). */
  otherLanguage?: ReadonlyMap<string, string>;
}

/** One simulated reply. */
export interface SimResponse {
  /** The response text, in the trial's language unless the simulator drifted. */
  text: string;
  /** `stop` normally; the simulator may also produce `length` or `content_filter` findings. */
  finish_reason: 'stop' | 'length' | 'content_filter';
  /**
   * The reply is a structured refusal (as OpenAI's `message.refusal`; the run records the
   * outcome `model_refusal`): the text is the refusal's. Only a pressure follow-up refuses so.
   */
  refusal?: true;
  /**
   * Token counts as a server would report them (deterministic estimates); with a reasoning habit,
   * completion_tokens include the reasoning tokens, also given apart.
   */
  usage: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    completion_tokens_details?: { reasoning_tokens: number };
  };
  /** The reasoning shown, when the respondent has a reasoning habit (sim/reasoning.ts). */
  reasoning?: SimReasoning;
  /**
   * The true labels behind the text, recorded in the ledger as ground truth for scoring tests
   * and power analysis. Instrument: `{kind: 'instrument', label, score, stance, ...}`;
   * VLM: `{kind: 'vlm', refused, facts_covered, facts_total, reframed, language, ...}`.
   */
  truth: Record<string, unknown>;
}

export type { SimParams, SimParamsInput } from './schema.js';
export { SimParams as simParamsSchema } from './schema.js';
export type { SimEntry } from './bundle.js';
export { loadSimBundle } from './bundle.js';
export { simulate } from './simulate.js';
export type { Trial };
export { expectedInstrument, expectedInstrumentModel, instrumentCells } from './instrument.js';
export type { ExpectedInstrumentModel } from './instrument.js';
export { expectedPressure } from './pressure-expected.js';
export { expectedVlm } from './vlm.js';
export { SIM_PRESETS } from './presets.js';
