/**
 * A0 against the reference vectors: EXIF orientations 1–8 in PNG and JPEG, 16-bit, palette with
 * transparency, RGBA, grey; the size rule; the downscale against an independent Lanczos-3
 * (Pillow's construction) within |Δ| ≤ 2 and mean |Δ| ≤ 0.2, for PNG and for JPEG (no
 * shrink-on-load); ICC → sRGB; PNG outputs without metadata chunks.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeA0, flattenToRgb, targetSize } from '../../../src/variants/ops/original.js';
import { encodePng } from '../../../src/variants/ops/png.js';
import { defaultRecipe } from '../../../src/variants/recipe.js';
import { DEMO_DIR, diff, IMAGES, pngChunks, rawOf, sha, vectors, writePng } from '../helpers.js';

const V = await vectors('image_vectors.json');
const ORIGINAL = defaultRecipe().original;

describe('A0 edge cases (exact)', () => {
  for (const c of V.a0_cases as Array<{
    input: string;
    sha256_rgb: string;
    expected_size_wh?: number[];
  }>) {
    it(`${c.input}`, async () => {
      const { image } = await decodeA0(
        await readFile(path.join(IMAGES, 'a0_inputs', c.input)),
        ORIGINAL,
      );
      expect(image.channels).toBe(3);
      if (c.expected_size_wh) expect([image.width, image.height]).toEqual(c.expected_size_wh);
      expect(sha(image.data)).toBe(c.sha256_rgb);
      const expectedPng = path.join(IMAGES, 'a0_expected', c.input.replace('.', '_') + '.png');
      if (existsSync(expectedPng))
        expect(diff(image.data, (await rawOf(expectedPng)).data).max).toBe(0);
    });
  }

  it('composites alpha over white with the rounding rule, for RGBA and grey+alpha', () => {
    // c = 10, a = 128: (10·128 + 255·127)/255 + 1/2 = 132.5196… → 132
    expect([...flattenToRgb(new Uint8Array([10, 20, 30, 128]), 1, 4)]).toEqual([132, 137, 142]);
    expect([...flattenToRgb(new Uint8Array([10, 128]), 1, 2)]).toEqual([132, 132, 132]);
    expect([...flattenToRgb(new Uint8Array([0, 0, 0, 0]), 1, 4)]).toEqual([255, 255, 255]);
    // exhaustive against the formula in floating point (no ties: 255 does not divide 2N + 255)
    for (let c = 0; c < 256; c += 5) {
      for (let a = 0; a < 256; a++) {
        const got = flattenToRgb(new Uint8Array([c, c, c, a]), 1, 4)[0];
        expect(got).toBe(Math.floor((c * a + 255 * (255 - a)) / 255 + 0.5));
      }
    }
  });
});

describe('A0 size rule', () => {
  it('matches every geometry of the reference', () => {
    for (const g of V.resize_geometry as Array<{
      in_wh: [number, number];
      out_wh: [number, number];
      resized: boolean;
    }>) {
      const t = targetSize(g.in_wh[0], g.in_wh[1], 1024);
      expect([t.width, t.height, t.resized]).toEqual([...g.out_wh, g.resized]);
    }
  });
});

/** Pillow's Lanczos-3 resampling (separable, horizontal pass rounded to 8 bits, then vertical). */
function lanczosReference(
  src: Uint8Array,
  w: number,
  h: number,
  ch: number,
  ow: number,
  oh: number,
): Uint8Array {
  const sinc = (x: number) => (x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x));
  const kernel = (x: number) => (Math.abs(x) < 3 ? sinc(x) * sinc(x / 3) : 0);
  const pass = (inSize: number, outSize: number) => {
    const scale = inSize / outSize;
    const fs = Math.max(scale, 1);
    const support = 3 * fs;
    return Array.from({ length: outSize }, (_, i) => {
      const center = (i + 0.5) * scale;
      const xmin = Math.max(Math.trunc(center - support + 0.5), 0);
      const xmax = Math.min(Math.trunc(center + support + 0.5), inSize);
      const ws = [];
      for (let x = xmin; x < xmax; x++) ws.push(kernel((x - center + 0.5) / fs));
      const total = ws.reduce((a, b) => a + b, 0);
      return { xmin, ws: ws.map((v) => v / total) };
    });
  };
  const clip = (v: number) => Math.min(255, Math.max(0, Math.floor(v + 0.5)));
  // Plain loops (the same sums in the same order as a forEach per tap, a few times faster).
  const hx = pass(w, ow);
  const tmp = new Uint8Array(ow * h * ch);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < ow; x++) {
      const { xmin, ws } = hx[x]!;
      for (let k = 0; k < ch; k++) {
        let s = 0;
        for (let j = 0; j < ws.length; j++) s += ws[j]! * src[(y * w + xmin + j) * ch + k]!;
        tmp[(y * ow + x) * ch + k] = clip(s);
      }
    }
  const vy = pass(h, oh);
  const out = new Uint8Array(ow * oh * ch);
  for (let y = 0; y < oh; y++) {
    const { xmin, ws } = vy[y]!;
    for (let x = 0; x < ow; x++)
      for (let k = 0; k < ch; k++) {
        let s = 0;
        for (let j = 0; j < ws.length; j++) s += ws[j]! * tmp[((xmin + j) * ow + x) * ch + k]!;
        out[(y * ow + x) * ch + k] = clip(s);
      }
  }
  return out;
}

describe('A0 downscale (tolerance |Δ| ≤ 2, mean ≤ 0.2; the 4.1× JPEG would fail with shrink-on-load or the libvips pre-shrink)', () => {
  for (const [format, w, h] of [
    ['png', 2000, 1500],
    ['jpeg', 4200, 1400],
    ['png', 1500, 2000],
    ['png', 3000, 1001],
  ] as const) {
    it(`${format} ${w}×${h}`, async () => {
      // A photograph (corpora/demo/chelsea.png) enlarged: smooth content with real edges.
      const pipe = sharp(path.join(DEMO_DIR, 'chelsea.png')).resize(w, h, {
        fit: 'fill',
        kernel: 'lanczos3',
      });
      const bytes =
        format === 'png'
          ? await pipe.png().toBuffer()
          : await pipe.jpeg({ quality: 95 }).toBuffer();
      const { image, facts } = await decodeA0(bytes, ORIGINAL);
      const t = targetSize(w, h, 1024);
      expect([image.width, image.height, facts.resized]).toEqual([t.width, t.height, true]);
      const full = await sharp(bytes).toColourspace('srgb').raw().toBuffer();
      const ref = lanczosReference(new Uint8Array(full), w, h, 3, t.width, t.height);
      const d = diff(image.data, ref);
      expect(d.max).toBeLessThanOrEqual(2);
      expect(d.mean).toBeLessThanOrEqual(0.2);
      // resample.ts is Pillow's fixed-point construction: off by one on a handful of pixels only
      expect(d.n / image.data.length).toBeLessThan(0.001);
    });
  }

  it('never upscales, and keeps a 1-pixel short side', async () => {
    const small = await sharp({
      create: { width: 40, height: 30, channels: 3, background: '#336699' },
    })
      .png()
      .toBuffer();
    expect((await decodeA0(small, ORIGINAL)).image.width).toBe(40);
    const strip = await sharp({
      create: { width: 4000, height: 3, channels: 3, background: '#808080' },
    })
      .png()
      .toBuffer();
    const { image } = await decodeA0(strip, ORIGINAL);
    expect([image.width, image.height]).toEqual([1024, 1]);
    expect(new Set(image.data)).toEqual(new Set([128]));
  });
});

describe('A0 colour', () => {
  it('converts an embedded ICC profile to sRGB (rocket.jpg carries Adobe RGB 1998)', async () => {
    const bytes = await readFile(path.join(DEMO_DIR, 'rocket.jpg'));
    const { image } = await decodeA0(bytes, ORIGINAL);
    const unconverted = await sharp(bytes).keepIccProfile().raw().toBuffer();
    // the reference notes a maximum per-channel change of 55 levels for this conversion
    const d = diff(image.data, new Uint8Array(unconverted));
    expect(d.max).toBeGreaterThanOrEqual(53);
    expect(d.max).toBeLessThanOrEqual(57);
  });

  it('16-bit RGBA and grey+alpha keep the high byte and flatten', async () => {
    const w = 8;
    const rgba: number[] = [];
    const ga: number[] = [];
    for (let i = 0; i < w; i++) {
      rgba.push(i * 8000 + 255, 40000, 1000, i === 0 ? 65535 : 32768 + i * 999);
      ga.push(i * 8100 + 129, i * 9000);
    }
    const { image } = await decodeA0(writePng(w, 1, 6, 16, rgba), ORIGINAL);
    expect([...image.data]).toEqual([
      ...flattenToRgb(new Uint8Array(rgba.map((v) => v >> 8)), w, 4),
    ]);
    const grey = await decodeA0(writePng(w, 1, 4, 16, ga), ORIGINAL);
    expect([...grey.image.data]).toEqual([
      ...flattenToRgb(new Uint8Array(ga.map((v) => v >> 8)), w, 2),
    ]);
    const grey8 = await decodeA0(
      writePng(
        w,
        1,
        4,
        8,
        ga.map((v) => v >> 8),
      ),
      ORIGINAL,
    );
    expect([...grey8.image.data]).toEqual([...grey.image.data]);
  });
});

describe('PNG output', () => {
  it('has no ICC, EXIF or text chunks, and grey is 1-channel', async () => {
    const rgb = await encodePng(
      { width: 2, height: 1, channels: 3, data: new Uint8Array([1, 2, 3, 4, 5, 6]) },
      6,
    );
    const grey = await encodePng(
      { width: 2, height: 1, channels: 1, data: new Uint8Array([7, 8]) },
      6,
    );
    const metadata = ['iCCP', 'eXIf', 'tEXt', 'iTXt', 'zTXt', 'sRGB', 'gAMA', 'cHRM', 'tIME'];
    for (const png of [rgb, grey]) {
      expect(pngChunks(png)).toContain('IDAT');
      expect(pngChunks(png).filter((t) => metadata.includes(t))).toEqual([]);
    }
    expect((await sharp(grey).metadata()).channels).toBe(1);
    expect([...(await rawOf(grey)).data]).toEqual([7, 8]);
  });
});
