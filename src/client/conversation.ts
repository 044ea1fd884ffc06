/**
 * What a provider is asked to send: a conversation, the list of its turns so far (each a role and
 * content parts: text, and images by their digest), with the sampling and seed it is sent under.
 * Every request today is one trial's system turn and one user turn; a multi-turn or reasoning
 * request is a longer list, sent by the same loop (send.ts). A trial is a conversation as it is.
 */
import type { Trial } from '../bundle/format.js';

/** One turn: a role and its content parts. */
type Turn = Trial['messages'][number];

/** A request's conversation: its turns in order, the sampling and the replication seed (or null). */
export interface Conversation {
  messages: readonly Turn[];
  sampling: Trial['sampling'];
  seed: number | null;
}
