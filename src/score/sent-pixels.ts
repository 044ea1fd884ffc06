/**
 * Were two models of one comparison sent different pixels? The ledger records the sha256 of the
 * bytes each model was sent, but two encodings of the same pixels (a PNG written at another zlib
 * level, or with other filters or chunks) have different bytes and show the model the same image.
 * So images whose bytes differ are decoded (sharp, as 8-bit sRGB with alpha) and compared pixel
 * by pixel, through the sha256 of their size and decoded samples. An image whose bytes cannot be
 * had or decoded is compared by its bytes, and counted (`byBytes`) so the report can say so.
 */
import sharp from '../core/sharp.js';
import { sha256 } from '../core/fsio.js';
import { ImageBlock } from '../models/image.js';
import { SentImageStore } from '../client/send-image.js';

/** One image sent, as the ledger records it. */
export interface SentImageKey {
  model: string;
  trial_id: string;
  /** sha256 of the bundle image it was made from. */
  source: string;
  /** sha256 of the bytes sent. */
  sha256: string;
}

/** The bytes of an image sent, or null when they cannot be had. */
export type SentBytes = (image: SentImageKey) => Promise<Uint8Array | null>;

/** Per model: how many of its images differ in pixels from another model's, and whose. */
export interface PixelDifferences {
  byModel: Map<string, { n: number; from: Set<string> }>;
  /** Distinct images (by sha256) compared by their bytes: not to be had, or not decodable. */
  byBytes: number;
}

/** sha256 of an image's decoded pixels (size and 8-bit sRGBA samples), or null when it cannot be decoded. */
export async function pixelDigest(bytes: Uint8Array): Promise<string | null> {
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: false })
      .toColourspace('srgb')
      .ensureAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    return sha256(Buffer.concat([Buffer.from(`${info.width}x${info.height}:`), data]));
  } catch {
    return null;
  }
}

/** What each distinct image (by the sha256 of its bytes) is compared by: its pixels, else its bytes. */
function pixelKeys(bytesOf: SentBytes) {
  const keys = new Map<string, Promise<string>>();
  let byBytes = 0;
  const keyOf = (i: SentImageKey): Promise<string> => {
    let k = keys.get(i.sha256);
    if (!k) {
      k = bytesOf(i)
        .then((b) => (b !== null && sha256(b) === i.sha256 ? pixelDigest(b) : null))
        .catch(() => null)
        .then((d) => {
          if (d !== null) return `pixels:${d}`;
          byBytes++;
          return `bytes:${i.sha256}`;
        });
      keys.set(i.sha256, k);
    }
    return k;
  };
  return { keyOf, byBytes: () => byBytes };
}

/**
 * Per model, the other models that were sent different pixels for the same trial's image (the
 * same trial and bundle image), and how many of its images that concerns. Images of equal bytes
 * are equal without decoding; only differing bytes are decoded.
 */
export async function pixelDifferences(
  images: readonly SentImageKey[],
  bytesOf: SentBytes,
): Promise<PixelDifferences> {
  const byImage = new Map<string, Map<string, SentImageKey>>();
  for (const i of images) {
    const key = `${i.trial_id}\u0000${i.source}`;
    const m = byImage.get(key) ?? new Map<string, SentImageKey>();
    m.set(i.model, i);
    byImage.set(key, m);
  }
  const { keyOf, byBytes } = pixelKeys(bytesOf);
  const byModel = new Map<string, { n: number; from: Set<string> }>();
  for (const m of byImage.values()) {
    const sent = [...m.values()];
    if (new Set(sent.map((i) => i.sha256)).size < 2) continue;
    const pix = new Map<string, string>();
    for (const i of sent) pix.set(i.model, await keyOf(i));
    for (const [model, k] of pix) {
      const others = [...pix].filter(([o, ok]) => o !== model && ok !== k).map(([o]) => o);
      if (others.length === 0) continue;
      const d = byModel.get(model) ?? { n: 0, from: new Set<string>() };
      d.n += 1;
      others.forEach((o) => d.from.add(o));
      byModel.set(model, d);
    }
  }
  return { byModel, byBytes: byBytes() };
}

/**
 * The bytes each model was sent, made again from the bundle's image and the model's image policy
 * (the ledger's request profile): the making is deterministic, so the bytes are those sent when
 * their sha256 is the one recorded (checked by `pixelDifferences`).
 */
export function bundleSentBytes(
  bundleDir: string,
  policies: ReadonlyMap<string, Record<string, unknown> | null>,
): SentBytes {
  const store = new SentImageStore(bundleDir);
  return async (i) => {
    if (i.sha256 === i.source) return store.source(i.source);
    const p = policies.get(i.model);
    if (!p) return null;
    const block = ImageBlock.safeParse(
      Object.fromEntries(Object.entries(p).filter(([, v]) => v !== null)),
    );
    return block.success ? (await store.get(i.source, block.data)).data : null;
  };
}
