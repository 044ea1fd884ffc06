/**
 * Fixtures for the segmentation tests: demo photos decoded to A0-like RGB (sharp: EXIF rotate,
 * alpha over white, RGB, long side ≤ 1024 — the demo photos are all smaller, so no resize), a
 * synthetic disc, and IoU.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));
export const DEMO = path.join(REPO, 'corpora', 'demo');
/** The reference vectors, copied into the repository from ../shared/data/vectors (see test/variants/vectors/). */
export const VECTORS = path.join(REPO, 'test', 'variants', 'vectors');

/** Decoded 8-bit RGB pixels. */
export interface Rgb {
  rgb: Uint8Array;
  width: number;
  height: number;
}

/** Decode an image the way A0 does for these inputs (no resize needed below 1024 px). */
export async function decodeA0(file: string): Promise<Rgb> {
  const { data, info } = await sharp(file)
    .rotate()
    .flatten({ background: '#ffffff' })
    .resize({
      width: 1024,
      height: 1024,
      fit: 'inside',
      withoutEnlargement: true,
      kernel: 'lanczos3',
    })
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    rgb: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  };
}

/** Decode a single-channel PNG to its grey values. */
export async function decodeGrey(
  file: string,
): Promise<{ grey: Uint8Array; width: number; height: number }> {
  const { data, info } = await sharp(file)
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    grey: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  };
}

/** A dark disc (RGB 40,40,60) of radius r centred in a light (230,225,220) w×h image, and its mask. */
export function disc(w: number, h: number, r: number): Rgb & { truth: Uint8Array } {
  const rgb = new Uint8Array(w * h * 3);
  const truth = new Uint8Array(w * h);
  const cx = (w - 1) / 2;
  const cy = (h - 1) / 2;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const inside = (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
      const i = y * w + x;
      truth[i] = inside ? 1 : 0;
      rgb.set(inside ? [40, 40, 60] : [230, 225, 220], i * 3);
    }
  }
  return { rgb, width: w, height: h, truth };
}

/** Intersection over union of two 0/1 masks (1 when both are empty). */
export function iou(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) throw new Error(`mask sizes differ: ${a.length} vs ${b.length}`);
  let inter = 0;
  let union = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] && b[i]) inter++;
    if (a[i] || b[i]) union++;
  }
  return union === 0 ? 1 : inter / union;
}

/** Fraction of 1s in a mask. */
export function fraction(mask: Uint8Array): number {
  let n = 0;
  for (const v of mask) n += v ? 1 : 0;
  return n / mask.length;
}

/** The horse's subject: its dark pixels (BT.601 luma < 128 on A0). */
export function darkMask({ rgb, width, height }: Rgb): Uint8Array {
  const m = new Uint8Array(width * height);
  for (let i = 0; i < m.length; i++) {
    const y = Math.floor(
      (299 * rgb[3 * i]! + 587 * rgb[3 * i + 1]! + 114 * rgb[3 * i + 2]! + 500) / 1000,
    );
    m[i] = y < 128 ? 1 : 0;
  }
  return m;
}
