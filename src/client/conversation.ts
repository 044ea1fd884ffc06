/**
 * What a provider is asked to send: a conversation, the list of its turns so far (each a role and
 * content parts: text, and images by their digest), with the sampling and seed it is sent under.
 * A one-turn trial is a conversation as it is; a later turn of a multi-turn trial (pressure) is
 * the earlier turns' user messages, each followed by the model's reply, then its own message
 * (`withEarlierTurns`), sent by the same loop (send.ts).
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

/** An earlier turn of a conversation: its trial and the model's reply to it, as recorded. */
export interface EarlierTurn {
  trial: Pick<Trial, 'messages'>;
  /** The reply's text exactly as the ledger recorded it (`response_text`). */
  reply: string;
}

/**
 * The conversation of a turn: the earlier turns in order (each trial's messages, then the reply
 * as an assistant message, byte for byte), then the turn's own messages, under its sampling and
 * seed. Only the reply text goes back, never reasoning: DeepSeek's thinking mode does not put
 * earlier `reasoning_content` into the context without tool calls (and deepseek-reasoner refuses
 * it with a 400), https://api-docs.deepseek.com/guides/thinking_mode; Anthropic removes earlier
 * thinking blocks from the context itself and needs them back only with a tool result,
 * https://docs.anthropic.com/en/docs/build-with-claude/context-windows; Gemini requires thought
 * signatures back only for function calling, https://ai.google.dev/gemini-api/docs/thought-signatures.
 */
export function withEarlierTurns(
  turn: Pick<Trial, 'messages' | 'sampling' | 'seed'>,
  earlier: readonly EarlierTurn[],
): Conversation {
  if (earlier.length === 0) return turn;
  const messages: Turn[] = earlier.flatMap((e) => [
    ...e.trial.messages,
    { role: 'assistant' as const, content: [{ type: 'text' as const, text: e.reply }] },
  ]);
  return { messages: [...messages, ...turn.messages], sampling: turn.sampling, seed: turn.seed };
}
