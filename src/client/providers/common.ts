/** Pieces the native providers share: token counts in the ledger's names, outcomes from text. */
import type { Outcome } from '../../ledger/schema.js';
import type { Reply, Verdict } from '../classify.js';

/** A vendor's usage object with the ledger's `prompt_tokens` / `completion_tokens` / `total_tokens` added. */
export function withTokenCounts(
  usage: Record<string, unknown> | null,
  prompt: unknown,
  completion: unknown,
  total?: unknown,
): Record<string, unknown> | null {
  if (!usage) return null;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const p = n(prompt);
  const c = n(completion);
  const t = n(total) ?? (p !== null && c !== null ? p + c : null);
  return { ...usage, prompt_tokens: p, completion_tokens: c, total_tokens: t };
}

/** `answer`, or `suppressed` when there is no text (empty or whitespace only) at a normal stop. */
export const textOutcome = (text: string | null): Outcome =>
  text === null || text.trim() === '' ? 'suppressed' : 'answer';

/** A final verdict from the pieces of a reply. */
export function finalReply(
  r: Omit<Reply, 'error_class' | 'error_body' | 'system_fingerprint'> & Partial<Reply>,
): Verdict {
  return {
    kind: 'final',
    reply: { error_class: null, error_body: null, system_fingerprint: null, ...r },
  };
}

/** A 2xx body that is not the vendor's reply shape: retried, like OpenAI's reply without choices. */
export function malformed(errorClass: string, json: unknown, status: number): Verdict {
  return {
    kind: 'retry',
    errorClass,
    httpStatus: status,
    body: JSON.stringify(json),
    retryAfterMs: null,
  };
}

export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A conversation's turns split into the system text and the rest. */
export function splitSystem<M extends { role: string; content: Array<{ type: string }> }>(
  messages: readonly M[],
): { system: string | null; rest: M[] } {
  const sys = messages.filter((m) => m.role === 'system');
  const system = sys
    .flatMap((m) => m.content)
    .map((p) => (p.type === 'text' ? (p as unknown as { text: string }).text : ''))
    .join('\n');
  return { system: sys.length ? system : null, rest: messages.filter((m) => m.role !== 'system') };
}
