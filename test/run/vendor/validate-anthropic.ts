/**
 * A strict reading of the Anthropic Messages API request (`POST /v1/messages`), from the vendor's
 * definitions: the API reference (https://platform.claude.com/docs/en/api/messages/create) and the
 * official SDK's `MessageCreateParamsBase` (@anthropic-ai/sdk 1.15.0, API version 2026-10-21).
 * Returns the first deviation as the API's error message would name it, or null.
 */
type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Top-level fields of MessageCreateParamsBase (SDK 1.15.0). */
const BODY_KEYS = new Set([
  'max_tokens',
  'messages',
  'model',
  'cache_control',
  'container',
  'diagnostics',
  'inference_geo',
  'metadata',
  'output_config',
  'service_tier',
  'speed',
  'stop_sequences',
  'stream',
  'system',
  'thinking',
  'tool_choice',
  'tools',
  'user_profile_id',
  'workspace_id',
]);
const MEDIA = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function extra(o: Json, allowed: string[], where: string): string | null {
  const bad = Object.keys(o).filter((k) => !allowed.includes(k));
  return bad.length ? `${where}.${bad[0]}: Extra inputs are not permitted` : null;
}

function block(b: unknown, where: string): string | null {
  if (!isObj(b)) return `${where}: Input should be an object`;
  if (b.type === 'text') {
    if (typeof b.text !== 'string' || b.text === '')
      return `${where}.text: text content blocks must be non-empty`;
    return extra(b, ['type', 'text', 'cache_control', 'citations'], where);
  }
  if (b.type === 'image') {
    const s = b.source;
    if (!isObj(s) || s.type !== 'base64') return `${where}.source: expected a base64 image source`;
    if (!MEDIA.has(String(s.media_type)))
      return `${where}.source.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`;
    if (typeof s.data !== 'string' || !BASE64.test(s.data))
      return `${where}.source.data: invalid base64 data`;
    if (Buffer.from(s.data, 'base64').length === 0) return `${where}.source.data: empty image`;
    return (
      extra(b, ['type', 'source', 'cache_control'], where) ??
      extra(s, ['type', 'media_type', 'data'], `${where}.source`)
    );
  }
  return `${where}.type: unsupported content block type ${JSON.stringify(b.type)}`;
}

function thinking(t: unknown, maxTokens: number): string | null {
  if (!isObj(t)) return 'thinking: Input should be an object';
  if (t.type === 'disabled' || t.type === 'between_tools') return extra(t, ['type'], 'thinking');
  if (t.type === 'adaptive') return extra(t, ['type', 'display'], 'thinking');
  if (t.type !== 'enabled')
    return `thinking.type: Input should be 'enabled', 'disabled', 'adaptive' or 'between_tools'`;
  const b = t.budget_tokens;
  if (typeof b !== 'number' || !Number.isInteger(b) || b < 1024)
    return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
  if (b >= maxTokens) return '`max_tokens` must be greater than `thinking.budget_tokens`';
  return extra(t, ['type', 'budget_tokens', 'display'], 'thinking');
}

/** The first problem of a request (headers and body), or null. */
export function anthropicProblem(
  headers: Record<string, string | string[] | undefined>,
  body: unknown,
): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(String(headers['anthropic-version'] ?? '')))
    return 'anthropic-version: header is required';
  if (!String(headers['content-type'] ?? '').startsWith('application/json'))
    return 'content-type must be application/json';
  if (headers.authorization !== undefined) return 'authorization: use x-api-key';
  if (!isObj(body)) return 'body: Input should be an object';
  const unknown = Object.keys(body).find((k) => !BODY_KEYS.has(k));
  if (unknown) return `${unknown}: Extra inputs are not permitted`;
  if (typeof body.model !== 'string' || body.model === '') return 'model: Field required';
  const mt = body.max_tokens;
  if (typeof mt !== 'number' || !Number.isInteger(mt) || mt < 1)
    return 'max_tokens: Field required';
  if (body.system !== undefined && typeof body.system !== 'string')
    return 'system: Input should be a valid string';
  const msgs = body.messages;
  if (!Array.isArray(msgs) || msgs.length === 0)
    return 'messages: at least one message is required';
  for (const [i, m] of msgs.entries()) {
    if (!isObj(m)) return `messages.${i}: Input should be an object`;
    if (m.role !== (i % 2 === 0 ? 'user' : 'assistant'))
      return `messages.${i}.role: roles must alternate between "user" and "assistant", starting with "user"`;
    const e = extra(m, ['role', 'content'], `messages.${i}`);
    if (e) return e;
    if (typeof m.content === 'string') continue;
    if (!Array.isArray(m.content) || m.content.length === 0)
      return `messages.${i}.content: Field required`;
    for (const [j, b] of m.content.entries()) {
      const p = block(b, `messages.${i}.content.${j}`);
      if (p) return p;
    }
  }
  return body.thinking === undefined ? null : thinking(body.thinking, mt);
}
