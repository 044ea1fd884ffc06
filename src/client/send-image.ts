/**
 * The image bytes a model is sent, made by stimkit from the bundle's PNG and the model's `image`
 * block (src/models/image.ts), and what is recorded about them per result (sha256, byte size,
 * pixel dimensions). One function, `prepareImage`, serves every provider's request builder: it
 * takes the bundle image and the block and gives the bytes with their MIME type.
 *
 * Deterministic on any machine: the downscale is the variants' exact Pillow Lanczos-3 in
 * TypeScript (src/variants/ops/resample.ts, integer arithmetic after float coefficients from
 * V8's own Math.sin) rather than libvips' SIMD reduce, and the encoders run with fixed settings
 * and no metadata (PNG: zlib level 9, no adaptive filtering; JPEG: baseline, 4:2:0, standard
 * tables, no trellis). Without a block, or when a PNG needs no resizing, the bundle's bytes are
 * sent unchanged, so existing request hashes and ledgers stay as they were.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { imagePayloadPath } from '../bundle/format.js';
import { StimkitError } from '../core/errors.js';
import { sha256 } from '../core/fsio.js';
import { canonicalJson } from '../core/json.js';
import type { ImageBlock } from '../models/image.js';
import { mapImageRefs, refsOf, type ImageStyle } from './image-refs.js';

/** What a result records about one image it sent (the ledger's `sent_images`, in order). */
export interface SentImage {
  /** sha256 of the bundle image it was made from. */
  source: string;
  /** sha256 of the bytes sent. */
  sha256: string;
  bytes: number;
  /** Pixel size as sent; null only for a bundle file that is not a PNG (sent as it is). */
  width: number | null;
  height: number | null;
  mime: 'image/png' | 'image/jpeg';
}

/** The bytes to send, with their record. */
export interface PreparedImage extends SentImage {
  data: Buffer;
}

/** Width and height from a PNG's IHDR chunk (bytes 16–23) without decoding; null when not a PNG. */
export function pngSize(png: Uint8Array): { width: number; height: number } | null {
  if (png.byteLength < 24) return null;
  const v = new DataView(png.buffer, png.byteOffset, png.byteLength);
  if (v.getUint32(0) !== 0x89504e47 || v.getUint32(12) !== 0x49484452) return null;
  return { width: v.getUint32(16), height: v.getUint32(20) };
}

function record(
  source: string,
  data: Buffer,
  size: { width: number | null; height: number | null },
  mime: SentImage['mime'],
): PreparedImage {
  return { source, sha256: sha256(data), bytes: data.byteLength, ...size, mime, data };
}

/**
 * The bytes to send for the bundle image `png` (whose sha256 is `source`) under `block`.
 * Same input and block → same bytes.
 *
 * @example (await prepareImage(png, digest, { max_side: 512, format: 'jpeg' })).mime // 'image/jpeg'
 */
export async function prepareImage(
  png: Uint8Array,
  source: string,
  block?: ImageBlock,
): Promise<PreparedImage> {
  const bytes = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  const size = pngSize(png);
  if (!block) return record(source, bytes, size ?? { width: null, height: null }, 'image/png');
  if (!size)
    throw new StimkitError(
      'E_RUN_IMAGE',
      `bundle image ${source} is not a PNG: the image block cannot convert it`,
      {
        fix: 'rebuild the bundle with `stimkit bundle` (its images are PNGs), or remove the image block from the model',
      },
    );
  // The converter loads sharp and the resampler: only a model with an image block needs them.
  const { convertImage } = await import('./image-convert.js');
  const made = await convertImage(png, size, block);
  return made
    ? record(source, made.data, { width: made.width, height: made.height }, made.mime)
    : record(source, bytes, size, 'image/png');
}

/** Prepared images of a bundle by (digest, block), keeping the last few in memory. */
export class SentImageStore {
  private readonly cache = new Map<string, Promise<PreparedImage & { base64: string }>>();
  constructor(
    private readonly bundleDir: string,
    private readonly keep = 64,
  ) {}

  /** The bundle image's bytes. */
  async source(digest: string): Promise<Buffer> {
    return readFile(path.join(this.bundleDir, 'data', imagePayloadPath(digest)));
  }

  /** The image with this digest as `block` makes it, with its base64 (for any provider's body). */
  get(digest: string, block?: ImageBlock): Promise<PreparedImage & { base64: string }> {
    const key = `${digest}|${block ? canonicalJson(block) : ''}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const made = this.source(digest)
      .then((png) => prepareImage(png, digest, block))
      .then((p) => ({ ...p, base64: p.data.toString('base64') }));
    made.catch(() => this.cache.delete(key));
    this.cache.set(key, made);
    if (this.cache.size > this.keep) this.cache.delete(this.cache.keys().next().value as string);
    return made;
  }

  /**
   * A built body ready to send: every image reference replaced by the bytes `block` makes, as a
   * data URL (`style` data_url, OpenAI) or plain base64 with its MIME type beside it (Anthropic,
   * Gemini); and the record of each image sent, in order.
   */
  async materialize<T>(
    body: T,
    block?: ImageBlock,
    style: ImageStyle = 'data_url',
  ): Promise<{ body: T; sent: SentImage[] }> {
    const refs = refsOf(body);
    if (refs.length === 0) return { body, sent: [] };
    const made = new Map<string, PreparedImage & { base64: string }>();
    const sent: SentImage[] = [];
    for (const d of refs) {
      const p = made.get(d) ?? (await this.get(d, block));
      made.set(d, p);
      sent.push(sentRecord(p));
    }
    const render = (d: string) => {
      const p = made.get(d)!;
      return style === 'data_url' ? `data:${p.mime};base64,${p.base64}` : p.base64;
    };
    return { body: mapImageRefs(body, render, (d) => made.get(d)!.mime), sent };
  }
}

/** The record of a prepared image (without its bytes). */
function sentRecord(p: PreparedImage): SentImage {
  return {
    source: p.source,
    sha256: p.sha256,
    bytes: p.bytes,
    width: p.width,
    height: p.height,
    mime: p.mime,
  };
}
