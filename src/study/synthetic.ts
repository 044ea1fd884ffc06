/**
 * The synthetic stand-in for the audit paper's corpus: the paper's shapes (200 core entries of
 * which 52 are anchors and 45 low-sensitivity controls, plus 14 abstraction entries of which 3
 * are controls) with tiny generated images, so that `manifests/paper.study.yaml` can be bundled
 * offline. The paper's archive photographs are copyrighted and are not shipped.
 *
 * Every image is a small block pattern with one coloured shape on it, drawn from a seeded PRNG;
 * the expected fact of each entry is true of its image ("a red ellipse"). Deterministic: the same
 * code writes the same manifest and the same pixels.
 *
 * Regenerate the committed files: `npm run synthetic` (scripts/synthetic.ts).
 */
import path from 'node:path';
import sharp from '../core/sharp.js';
import { stringify } from 'yaml';
import { writeIfChanged } from '../core/fsio.js';
import { PACKAGE_ROOT } from '../core/tool.js';

/** The shape of the synthetic corpus (the audit paper's numbers). */
export const SYNTHETIC = {
  core: 200,
  anchors: 52,
  lowSensitivity: 45,
  abstraction: 14,
  abstractionControls: 3,
  topics: 8,
} as const;

const COLOURS = [
  { en: 'red', zh: '红色', rgb: [200, 30, 30] },
  { en: 'blue', zh: '蓝色', rgb: [30, 60, 200] },
  { en: 'green', zh: '绿色', rgb: [30, 160, 50] },
  { en: 'yellow', zh: '黄色', rgb: [230, 200, 20] },
  { en: 'black', zh: '黑色', rgb: [15, 15, 15] },
  { en: 'white', zh: '白色', rgb: [245, 245, 245] },
  { en: 'purple', zh: '紫色', rgb: [120, 40, 160] },
  { en: 'orange', zh: '橙色', rgb: [240, 120, 20] },
] as const;
const SHAPES = [
  { en: 'ellipse', zh: '椭圆' },
  { en: 'rectangle', zh: '矩形' },
  { en: 'triangle', zh: '三角形' },
  { en: 'diamond', zh: '菱形' },
] as const;

/** mulberry32: a tiny, well-known 32-bit PRNG (deterministic across platforms). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What one synthetic image shows. */
export interface SyntheticImageSpec {
  seed: number;
  width: number;
  height: number;
  colour: (typeof COLOURS)[number];
  shape: (typeof SHAPES)[number];
}

function imageSpec(seed: number, width: number, height: number): SyntheticImageSpec {
  const rand = mulberry32(seed * 2654435761);
  return {
    seed,
    width,
    height,
    colour: COLOURS[Math.floor(rand() * COLOURS.length)]!,
    shape: SHAPES[Math.floor(rand() * SHAPES.length)]!,
  };
}

function inside(shape: string, u: number, v: number): boolean {
  // u, v in [-1, 1] relative to the shape's box.
  if (shape === 'ellipse') return u * u + v * v <= 1;
  if (shape === 'rectangle') return Math.abs(u) <= 0.9 && Math.abs(v) <= 0.9;
  if (shape === 'triangle') return v >= -1 && v <= 1 && Math.abs(u) <= (v + 1) / 2;
  return Math.abs(u) + Math.abs(v) <= 1;
}

/** The raw RGB pixels of a synthetic image. */
export function syntheticPixels(spec: SyntheticImageSpec): Buffer {
  const { width: w, height: h } = spec;
  const rand = mulberry32(spec.seed * 40503 + 17);
  const block = 4;
  const cols = Math.ceil(w / block);
  const rows = Math.ceil(h / block);
  const grid = Array.from({ length: rows * cols }, () => [
    50 + Math.floor(rand() * 160),
    50 + Math.floor(rand() * 160),
    50 + Math.floor(rand() * 160),
  ]);
  const cx = w / 2 + (rand() - 0.5) * w * 0.2;
  const cy = h / 2 + (rand() - 0.5) * h * 0.2;
  const rx = w * (0.22 + rand() * 0.1);
  const ry = h * (0.25 + rand() * 0.1);
  const out = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const fg = inside(spec.shape.en, (x + 0.5 - cx) / rx, (y + 0.5 - cy) / ry);
      const c = fg ? spec.colour.rgb : grid[Math.floor(y / block) * cols + Math.floor(x / block)]!;
      out.set(c, (y * w + x) * 3);
    }
  }
  return out;
}

/** PNG bytes of a synthetic image. */
export async function syntheticPng(spec: SyntheticImageSpec): Promise<Buffer> {
  return sharp(syntheticPixels(spec), {
    raw: { width: spec.width, height: spec.height, channels: 3 },
  })
    .png({ compressionLevel: 9, adaptiveFiltering: false })
    .toBuffer();
}

const pad = (n: number, width = 3) => String(n).padStart(width, '0');
const PROVENANCE = {
  archive: 'stimkit synthetic generator',
  credit: 'stimkit',
  license: 'CC0-1.0',
};

/** The entries manifest and the image specs of the synthetic corpus. */
export function syntheticCorpus(): {
  manifest: Record<string, unknown>;
  images: Array<{ file: string; spec: SyntheticImageSpec }>;
} {
  const entries: Array<Record<string, unknown>> = [];
  const images: Array<{ file: string; spec: SyntheticImageSpec }> = [];
  const fact = (s: SyntheticImageSpec) => [
    {
      id: 'subject-shape',
      en: `The image shows a ${s.colour.en} ${s.shape.en}.`,
      zh: `图中是一个${s.colour.zh}${s.shape.zh}。`,
    },
  ];
  for (let i = 1; i <= SYNTHETIC.core; i++) {
    const id = `core-${pad(i)}`;
    const spec = imageSpec(i, 48, 32);
    const anchor = i <= SYNTHETIC.anchors;
    images.push({ file: `${id}.png`, spec });
    entries.push({
      id,
      title: { en: `Synthetic core stimulus ${pad(i)}`, zh: `合成核心刺激 ${pad(i)}` },
      topic: `synthetic-topic-${((i - 1) % SYNTHETIC.topics) + 1}`,
      sensitivity: i > SYNTHETIC.core - SYNTHETIC.lowSensitivity ? 'low' : 'high',
      roles: anchor ? ['core', 'anchor'] : ['core'],
      image: { file: `${id}.png` },
      provenance: PROVENANCE,
      expected_facts: fact(spec),
      ...(anchor
        ? { anchor: { name: { en: `the synthetic subject ${pad(i)}`, zh: `合成主体 ${pad(i)}` } } }
        : {}),
    });
  }
  for (let i = 1; i <= SYNTHETIC.abstraction; i++) {
    const id = `abstraction-${pad(i, 2)}`;
    const spec = imageSpec(1000 + i, 64, 48);
    const control = i > SYNTHETIC.abstraction - SYNTHETIC.abstractionControls;
    images.push({ file: `${id}.png`, spec });
    entries.push({
      id,
      title: { en: `Synthetic abstraction stimulus ${pad(i, 2)}`, zh: `合成抽象刺激 ${pad(i, 2)}` },
      topic: control ? 'synthetic-control' : `synthetic-topic-${((i - 1) % SYNTHETIC.topics) + 1}`,
      sensitivity: control ? 'low' : 'high',
      roles: control ? ['abstraction', 'control'] : ['abstraction'],
      image: { file: `${id}.png` },
      provenance: PROVENANCE,
      expected_facts: fact(spec),
    });
  }
  const manifest = {
    format: 'stimkit.entries',
    version: 1,
    corpus: 'paper-synthetic',
    description:
      "Synthetic stand-in with the audit paper's shapes (200 core, 52 anchors, 45 low-sensitivity, 14 abstraction incl. 3 controls). Generated by scripts/synthetic.ts; do not edit by hand.",
    languages: ['en', 'zh'],
    images: '../corpora/paper-synthetic',
    entries,
  };
  return { manifest, images };
}

/** The manifest as committed: YAML with one flow mapping per entry (compact and diffable). */
export function syntheticManifestText(): string {
  const { manifest } = syntheticCorpus();
  const { entries, ...head } = manifest as { entries: unknown[] };
  const header = '# Generated by scripts/synthetic.ts (npm run synthetic). Do not edit by hand.\n';
  const body = entries
    .map((e) => `  - ${stringify(e, { collectionStyle: 'flow', lineWidth: 0 }).trim()}\n`)
    .join('');
  return `${header}${stringify(head, { lineWidth: 0 })}entries:\n${body}`;
}

/** Write the manifest and the images (only files whose bytes change are rewritten). */
export async function writeSyntheticCorpus(
  manifestFile: string,
  imagesDir: string,
): Promise<{ written: number }> {
  let written = 0;
  if (await writeIfChanged(manifestFile, syntheticManifestText())) written++;
  for (const img of syntheticCorpus().images) {
    if (await writeIfChanged(path.join(imagesDir, img.file), await syntheticPng(img.spec)))
      written++;
  }
  return { written };
}

/** Default locations in the package. */
export const SYNTHETIC_FILES = {
  manifest: path.join(PACKAGE_ROOT, 'manifests', 'paper-synthetic.entries.yaml'),
  images: path.join(PACKAGE_ROOT, 'corpora', 'paper-synthetic'),
};
