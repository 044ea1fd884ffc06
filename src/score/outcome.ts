/**
 * What came back, for scoring: a row whose outcome is not `answer` has no response-derived value
 * (D1 lexical, D2–D6, the instrument label and score); its cells are empty and its reason names
 * the outcome. A suppressed (empty) reply is `no_response`; a provider's block, the model's
 * structured refusal, a reply cut at the token limit and a failed request are named as the ledger
 * names them (`provider_block`, `model_refusal`, `length`, `failed`). The model's structured
 * refusal is a known D1 model refusal, but there is no text for D2–D6 (docs/formats/scores.md).
 */
import { currentOutcome } from '../ledger/schema.js';
import type { AuditParse } from '../audit/label.js';
import type { FactReading } from '../audit/facts.js';
import type { ReasoningParse } from './reasoning.js';
import type { ResponseRecord } from './types.js';

/** The outcome names a ledger records (ledger/schema.ts `Outcome`) and the older ones it maps. */
const KNOWN = new Set<string>([
  'answer',
  'provider_block',
  'model_refusal',
  'suppressed',
  'length',
  'failed',
  'policy_refusal',
  'content_filter',
  'empty',
]);

/**
 * The outcome scoring goes by: the recorded one; for a source that gave none, a known outcome
 * name in its `error` (older names mapped), `suppressed` for empty text, `answer` for text, else
 * null (no text and no known reason).
 */
export function effectiveOutcome(r: ResponseRecord): string | null {
  if (r.outcome) return r.outcome;
  if (r.response === null)
    return r.error && KNOWN.has(r.error) ? currentOutcome(r.error, null) : null;
  return r.response.trim() === '' ? 'suppressed' : 'answer';
}

/**
 * Why a row has no response-derived value (null when it is an answer with text): `no_response`
 * for a suppressed reply or a row without text, else the outcome's own name.
 */
export function noValueReason(r: ResponseRecord): string | null {
  const o = effectiveOutcome(r);
  if (o === 'answer') return r.response === null ? 'no_response' : null;
  if (o === 'suppressed') return 'no_response';
  return o ?? r.error ?? 'no_response';
}

/** Why cells are empty because the trial's language has no rules for them (src/languages/). */
export const NO_RULES = 'no_rules_for_language';

/** The reasons of rows that are not answers, in report order. */
export const NO_VALUE_REASONS = [
  'no_response',
  'provider_block',
  'model_refusal',
  'length',
  'failed',
] as const;

/** Who said no, as far as the outcome alone tells (null: unknown from the outcome). */
export interface SaidNoFlags {
  /** The model's structured refusal (true), an answer or a provider block (false; an answer's text may still refuse), else null. */
  model_refusal: boolean | null;
  provider_block: boolean | null;
  suppressed: boolean | null;
}

/**
 * The outcome's D1 flags: every outcome but `failed` (and an unknown one) says whether the
 * provider blocked and whether the reply was suppressed; only `model_refusal` says the model
 * refused, and a block, a suppression or a cut reply say nothing of it.
 */
export function saidNoFlags(r: ResponseRecord): SaidNoFlags {
  const o = effectiveOutcome(r);
  if (o === null || o === 'failed' || !KNOWN.has(o))
    return { model_refusal: null, provider_block: null, suppressed: null };
  return {
    model_refusal: o === 'model_refusal' ? true : null,
    provider_block: o === 'provider_block',
    suppressed: o === 'suppressed',
  };
}

/**
 * The audit parse with the outcome's D1 flags, the answer's expected-fact coverage and the
 * reasoning channel's readings (reasoning.ts); each absent in scores written before it.
 */
export type ScoredAuditParse = AuditParse & {
  said_no?: SaidNoFlags;
  facts?: FactReading | null;
  reasoning?: ReasoningParse;
};
