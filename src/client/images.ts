/**
 * Images for requests: read from the bag by digest, with a small cache. A built body holds each
 * image as a `sha256:<hex>` reference (in OpenAI's `image_url.url`, Anthropic's `source.data`,
 * Gemini's `inlineData.data`); materializing swaps in the data: a data URL for OpenAI, plain
 * base64 for the native providers.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { imagePayloadPath } from '../bundle/format.js';
import { mapImageRefs, refsOf, type ImageStyle } from './image-refs.js';
import { SentImageStore } from './send-image.js';

export { type ImageStyle };

/** Reads `data/images/<sha256>.png` of a bag as base64, keeping the last few in memory. */
export class ImageStore {
  private readonly cache = new Map<string, string>();
  /** The bytes a model is sent under its `image` block, with their record (send-image.ts). */
  readonly sent: SentImageStore;
  constructor(
    private readonly bundleDir: string,
    private readonly keep = 64,
  ) {
    this.sent = new SentImageStore(bundleDir, keep);
  }

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

/** The body with image data elided, for display (`--dry-run`); `mime` as the model is sent it. */
export function elideImages<T>(body: T, style: ImageStyle = 'data_url', mime = 'image/png'): T {
  const note = (d: string) => `…(image ${d.slice(0, 12)}…, elided)`;
  return mapImageRefs(
    body,
    (d) => (style === 'data_url' ? `data:${mime};base64,${note(d)}` : note(d)),
    () => mime,
  );
}
