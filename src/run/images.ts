/**
 * Images for requests: read from the bag by digest, with a small cache. A built body holds each
 * image as a `sha256:<hex>` reference (in OpenAI's `image_url.url`, Anthropic's `source.data`,
 * Gemini's `inlineData.data`); materializing swaps in the data: a data URL for OpenAI, plain
 * base64 for the native providers.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { imagePayloadPath } from '../bundle/format.js';
import { IMAGE_REF } from './request.js';

/** How a provider carries image data: a `data:` URL (OpenAI) or plain base64 (Anthropic, Gemini). */
export type ImageStyle = 'data_url' | 'base64';

const REF_RE = new RegExp(`^${IMAGE_REF}([0-9a-f]{64})$`);
/** The keys whose string value may be an image reference. */
const REF_KEYS = new Set(['url', 'data']);

/** `value` with every image reference (a `url` or `data` string `sha256:<hex>`) replaced by `render(digest)`. */
export function mapImageRefs<T>(value: T, render: (digest: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const m = typeof x === 'string' && REF_KEYS.has(k) ? REF_RE.exec(x) : null;
      out[k] = m ? render(m[1]!) : walk(x);
    }
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

/** Reads `data/images/<sha256>.png` of a bag as base64, keeping the last few in memory. */
export class ImageStore {
  private readonly cache = new Map<string, string>();
  constructor(
    private readonly bundleDir: string,
    private readonly keep = 64,
  ) {}

  /** The base64 of the image with this digest. */
  async base64(digest: string): Promise<string> {
    const hit = this.cache.get(digest);
    if (hit !== undefined) return hit;
    const b64 = (
      await readFile(path.join(this.bundleDir, 'data', imagePayloadPath(digest)))
    ).toString('base64');
    this.cache.set(digest, b64);
    if (this.cache.size > this.keep) this.cache.delete(this.cache.keys().next().value as string);
    return b64;
  }

  /** The body ready to send: every image reference replaced by its data (`style`). */
  async materialize<T>(body: T, style: ImageStyle = 'data_url'): Promise<T> {
    const refs = refsOf(body);
    if (refs.length === 0) return body;
    const data = new Map<string, string>();
    for (const d of refs) data.set(d, await this.base64(d));
    return mapImageRefs(body, (d) =>
      style === 'data_url' ? `data:image/png;base64,${data.get(d)}` : data.get(d)!,
    );
  }
}

/** The body with image data elided, for display (`--dry-run`). */
export function elideImages<T>(body: T, style: ImageStyle = 'data_url'): T {
  const note = (d: string) => `…(image ${d.slice(0, 12)}…, elided)`;
  return mapImageRefs(body, (d) =>
    style === 'data_url' ? `data:image/png;base64,${note(d)}` : note(d),
  );
}
