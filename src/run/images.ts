/** Images for requests: read from the bag by digest, as data URLs, with a small cache. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { imagePayloadPath } from '../bundle/format.js';
import { withImages, imageRefs, type RequestBody } from './request.js';
import { SentImageStore } from './send-image.js';

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

  /** The body ready to send: every image reference replaced by its data URL. */
  async materialize(body: RequestBody): Promise<RequestBody> {
    const refs = imageRefs(body);
    if (refs.length === 0) return body;
    const data = new Map<string, string>();
    for (const d of refs) data.set(d, await this.base64(d));
    return withImages(body, (d) => `data:image/png;base64,${data.get(d)}`);
  }
}

/** The body with image data elided, for display (`--dry-run`); `mime` as the model is sent it. */
export function elideImages(body: RequestBody, mime = 'image/png'): RequestBody {
  return withImages(body, (d) => `data:${mime};base64,…(image ${d.slice(0, 12)}…, elided)`);
}
