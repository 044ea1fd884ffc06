/**
 * Image references in built request bodies. A builder writes each image as `sha256:<hex>` where
 * the data goes (OpenAI's `image_url.url`, Anthropic's `source.data`, Gemini's
 * `inlineData.data`); the bytes are swapped in just before sending (images.ts, send-image.ts), so
 * request hashes never depend on the bytes' encoding.
 */
import { IMAGE_REF } from './request.js';

/** How a provider carries image data: a `data:` URL (OpenAI) or plain base64 (Anthropic, Gemini). */
export type ImageStyle = 'data_url' | 'base64';

const REF_RE = new RegExp(`^${IMAGE_REF}([0-9a-f]{64})$`);
/** The keys whose string value may be an image reference. */
const REF_KEYS = new Set(['url', 'data']);
/** The keys that name the MIME type of base64 data beside it. */
const MIME_KEYS = ['media_type', 'mimeType', 'mime_type'];

/**
 * `value` with every image reference (a `url` or `data` string `sha256:<hex>`) replaced by
 * `render(digest)`, and, with `mimeOf`, the MIME type named beside it set to `mimeOf(digest)`.
 */
export function mapImageRefs<T>(
  value: T,
  render: (digest: string) => string,
  mimeOf?: (digest: string) => string,
): T {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    let digest: string | null = null;
    for (const [k, x] of Object.entries(v)) {
      const m = typeof x === 'string' && REF_KEYS.has(k) ? REF_RE.exec(x) : null;
      if (m) digest = m[1]!;
      out[k] = m ? render(m[1]!) : walk(x);
    }
    // The MIME type beside base64 data (Anthropic's media_type, Gemini's mimeType) follows it.
    if (digest !== null && mimeOf) for (const k of MIME_KEYS) if (k in out) out[k] = mimeOf(digest);
    return out;
  };
  return walk(value) as T;
}

/** The digests a body refers to, in order. */
export function refsOf(value: unknown): string[] {
  const out: string[] = [];
  mapImageRefs(value, (d) => {
    out.push(d);
    return d;
  });
  return out;
}
