/**
 * A strict reading of the Anthropic Messages API request (`POST /v1/messages`), from the vendor's
 * definitions: the API reference (https://platform.claude.com/docs/en/api/messages/create) and the
 * official SDK's `MessageCreateParamsBase` (@anthropic-ai/sdk 1.15.0, API version 2026-10-21).
 * Images as the vision guide limits them
 * (https://platform.claude.com/docs/en/build-with-claude/vision, "General limits": at most
 * 8000 × 8000 px, 2000 × 2000 px when a request holds more than 20 images; 5 MB per image on the
 * API) and as the bytes are: a media type that is not the bytes' own is refused.
 * Returns the first deviation as the API's error message would name it, or null.
 */
import { imageHeader, isBase64 } from './image-bytes.js';

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
/** The largest image the API takes, in bytes (5 MB). */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The images of a request, counted for the per-image pixel limit. */
function imageCount(msgs: unknown[]): number {
  return msgs
    .flatMap((m) => (isObj(m) && Array.isArray(m.content) ? (m.content as unknown[]) : []))
    .filter((b) => isObj(b) && b.type === 'image').length;
}

/** The bytes of an image block: its type, size in bytes and in pixels against the limits. */
function imageBytes(
  data: string,
  mediaType: string,
  maxSide: number,
  where: string,
): string | null {
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length === 0) return `${where}.source.data: empty image`;
  if (bytes.length > MAX_IMAGE_BYTES)
    return `${where}.source.data: image exceeds 5 MB maximum: ${bytes.length} bytes > ${MAX_IMAGE_BYTES} bytes`;
  const header = imageHeader(bytes);
  if (!header) return `${where}.source.data: Could not process image`;
  if (header.type !== mediaType)
    return `${where}.source: Image does not match the provided media type ${mediaType}`;
  if (header.width > maxSide || header.height > maxSide)
    return `${where}.source: At least one of the image dimensions exceed max allowed size: ${maxSide} pixels`;
  return null;
}

function extra(o: Json, allowed: string[], where: string): string | null {
  const bad = Object.keys(o).filter((k) => !allowed.includes(k));
  return bad.length ? `${where}.${bad[0]}: Extra inputs are not permitted` : null;
}

function block(b: unknown, where: string, maxSide: number): string | null {
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
    if (typeof s.data !== 'string' || !isBase64(s.data))
      return `${where}.source.data: invalid base64 data`;
    return (
      imageBytes(s.data, String(s.media_type), maxSide, where) ??
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
  const maxSide = imageCount(msgs) > 20 ? 2000 : 8000;
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
      const p = block(b, `messages.${i}.content.${j}`, maxSide);
      if (p) return p;
    }
  }
  return body.thinking === undefined ? null : thinking(body.thinking, mt);
}
