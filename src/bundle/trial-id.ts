/**
 * Stable trial ids: a hash of the fields that define a trial (its place in the design), not of
 * its rendered content. The same design cell has the same id in every bundle, so ledgers from
 * two versions of a study can be joined; the bundle digest is what pins the content.
 *
 * Recompute from another language: take the trial's `paradigm, arm, lang, entry, item, topic,
 * variant, framing, iteration, seed` (nulls included), write them as RFC 8785 canonical JSON,
 * sha256 the UTF-8 bytes, and prefix `t_` to the first 24 hex digits. A trial of a block with
 * the thinking factor (`thinking: [on, off]`, the study's or the block's own) hashes `thinking`
 * (`on` or `off`) after `seed` as well; without the factor the field is absent and the ids are as
 * before. A turn of a conversation
 * (pressure) adds `turn` to those fields; its conversation id is `c_` + the first 24 hex digits of
 * the same hash without `turn`.
 */
import { sha256 } from '../core/fsio.js';
import { canonicalJson } from '../core/json.js';
import { TRIAL_ID_FIELDS, type Trial } from './format.js';

/** The defining fields of a trial (`thinking` only with the thinking factor; the turn of a conversation's trial). */
export type TrialKey = Pick<Trial, (typeof TRIAL_ID_FIELDS)[number]> &
  Pick<Trial, 'thinking'> & { conversation?: { turn: number } };

function idFields(key: TrialKey): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const f of TRIAL_ID_FIELDS) fields[f] = key[f];
  if (key.thinking !== undefined) fields.thinking = key.thinking;
  return fields;
}

/** The id of the trial with these defining fields. */
export function trialId(key: TrialKey): string {
  const fields = idFields(key);
  if (key.conversation) fields.turn = key.conversation.turn;
  return `t_${sha256(canonicalJson(fields)).slice(0, 24)}`;
}

/**
 * The id a trial has without the thinking factor: shared by the trial sent with thinking on and
 * the same trial sent with it off (their pair), and equal to the trial's own id without the factor.
 */
export function pairId(key: TrialKey): string {
  return key.thinking === undefined ? trialId(key) : trialId({ ...key, thinking: undefined });
}

/** The id of the conversation whose turns have these defining fields. */
export function conversationId(key: TrialKey): string {
  return `c_${sha256(canonicalJson(idFields(key))).slice(0, 24)}`;
}

/** Description of the id scheme, recorded in bundle.json. */
export const TRIAL_ID_SCHEME = `t_ + first 24 hex of sha256(RFC 8785 JSON of {${TRIAL_ID_FIELDS.join(', ')}})`;

/** The scheme of a bundle whose trials carry the thinking factor (a study-wide factor). */
export const TRIAL_ID_SCHEME_THINKING = `t_ + first 24 hex of sha256(RFC 8785 JSON of {${TRIAL_ID_FIELDS.join(', ')}, thinking})`;

/** The scheme of a bundle where only some blocks carry the thinking factor. */
export const TRIAL_ID_SCHEME_BLOCK_THINKING = `t_ + first 24 hex of sha256(RFC 8785 JSON of {${TRIAL_ID_FIELDS.join(', ')}}, with thinking as well on the trials of a block with the thinking factor)`;
