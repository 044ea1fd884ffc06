/**
 * Shared test helpers for the variants stage: the reference vectors (test/variants/vectors, see
 * its README for provenance), raw-pixel loading, a fake segmenter (keeps tests offline and fast),
 * and a tiny corpus built from the demo photos (corpora/demo/SOURCES.md).
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { stringify } from 'yaml';
import type { Segmenter } from '../../src/variants/segment/index.js';
import type { Image8 } from '../../src/variants/types.js';
import { PNG_SIGNATURE, pngChunk } from '../helpers/png.js';
import { tempDir } from '../helpers/tmp.js';

const VECTORS = new URL('./vectors', import.meta.url).pathname;
export const IMAGES = path.join(VECTORS, 'images');
export const DEMO_DIR = new URL('../../corpora/demo/', import.meta.url).pathname;
export const DEMO_LOCK = path.join(DEMO_DIR, 'corpus.lock.json');

/** A JSON file of the vectors folder. */
export async function vectors<T = any>(name: string): Promise<T> {
  return JSON.parse(await readFile(path.join(VECTORS, name), 'utf8')) as T;
}

/** Hex sha256 of bytes. */
export function sha(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Raw pixels of a PNG/JPEG as the reference stores them: 1 channel if grey, else RGB. */
export async function rawOf(file: string | Buffer): Promise<Image8> {
  const meta = await sharp(file).metadata();
  const grey = meta.channels === 1;
  const pipe = grey
    ? sharp(file).toColourspace('b-w')
    : sharp(file).removeAlpha().toColourspace('srgb');
  const { data, info } = await pipe.raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    channels: grey ? 1 : 3,
    data: new Uint8Array(data),
  };
}

/** Max and mean absolute difference of two equal-length byte arrays. */
export function diff(a: Uint8Array, b: Uint8Array): { max: number; mean: number; n: number } {
  if (a.length !== b.length) throw new Error(`length ${a.length} vs ${b.length}`);
  let max = 0;
  let sum = 0;
  let n = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!);
    if (d) n++;
    sum += d;
    if (d > max) max = d;
  }
  return { max, mean: sum / a.length, n };
}

/** Relative difference |a − b| / |b|. */
export function rel(a: number, b: number): number {
  return Math.abs(a - b) / Math.abs(b);
}

/** A fake segmenter: foreground where luma is below `threshold`; counts its calls. */
export function fakeSegmenter(
  threshold = 128,
  describe: Record<string, unknown> = { fake: true, threshold },
): Segmenter & { calls: number; disposed: boolean } {
  const s = {
    method: 'grabcut' as const,
    calls: 0,
    disposed: false,
    describe: () => describe,
    segment: (rgb: Uint8Array, width: number, height: number) => {
      s.calls++;
      const mask = new Uint8Array(width * height);
      for (let i = 0; i < mask.length; i++) {
        const y = (299 * rgb[3 * i]! + 587 * rgb[3 * i + 1]! + 114 * rgb[3 * i + 2]! + 500) / 1000;
        mask[i] = y < threshold ? 1 : 0;
      }
      return Promise.resolve(mask);
    },
    dispose: () => {
      s.disposed = true;
      return Promise.resolve();
    },
  };
  return s;
}

/** A manifest entry for a test corpus. */
export function entry(
  id: string,
  file: string,
  roles: string[] = ['core'],
): Record<string, unknown> {
  return {
    id,
    title: { en: `Title of ${id}`, zh: `${id} 的标题` },
    topic: 'test-topic',
    sensitivity: 'low',
    roles,
    image: { file },
    provenance: { archive: 'test archive', credit: 'test credit', license: 'CC0-1.0' },
    expected_facts: [{ id: 'fact-1', en: 'An English fact.', zh: '一个中文事实。' }],
  };
}

/**
 * A temp corpus with small copies (long side `side`) of demo photos, and its manifest.
 * `photos`: [id, demo file, roles][].
 */
export async function tinyCorpus(
  photos: Array<[string, string, string[]?]>,
  side = 96,
): Promise<{ dir: string; manifest: string }> {
  const dir = await tempDir('stimkit-variants-');
  for (const [, file] of photos) {
    await sharp(path.join(DEMO_DIR, file))
      .resize(side, side, { fit: 'inside' })
      .png()
      .toFile(path.join(dir, file.replace(/\.\w+$/, '.png')));
  }
  const manifest = path.join(dir, 'test.entries.yaml');
  const entries = photos.map(([id, file, roles]) =>
    entry(id, file.replace(/\.\w+$/, '.png'), roles ?? ['core']),
  );
  await writeFile(
    manifest,
    stringify({
      format: 'stimkit.entries',
      version: 1,
      corpus: 'test',
      languages: ['en', 'zh'],
      entries,
    }),
  );
  return { dir, manifest };
}

/** The chunk types of a PNG file, in order. */
export function pngChunks(png: Uint8Array): string[] {
  const b = Buffer.from(png);
  const types: string[] = [];
  let o = 8;
  while (o < b.length) {
    const len = b.readUInt32BE(o);
    types.push(b.toString('latin1', o + 4, o + 8));
    o += 12 + len;
  }
  return types;
}

/**
 * A PNG written byte by byte (independent of sharp): `colourType` 0 grey, 2 RGB, 4 grey+alpha,
 * 6 RGBA; `depth` 8 or 16; samples row-major, interleaved.
 */
export function writePng(
  width: number,
  height: number,
  colourType: 0 | 2 | 4 | 6,
  depth: 8 | 16,
  samples: number[],
): Buffer {
  const channels = { 0: 1, 2: 3, 4: 2, 6: 4 }[colourType];
  const bps = depth / 8;
  const rowBytes = width * channels * bps;
  const raw = Buffer.alloc(height * (rowBytes + 1));
  for (let y = 0; y < height; y++) {
    for (let i = 0; i < width * channels; i++) {
      const v = samples[y * width * channels + i]!;
      const o = y * (rowBytes + 1) + 1 + i * bps;
      if (depth === 16) raw.writeUInt16BE(v, o);
      else raw[o] = v;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = depth;
  ihdr[9] = colourType;
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
