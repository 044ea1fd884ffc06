/**
 * `npm run bench -- variant-ops [--repeat N]`
 *
 * A3's detector and A5's low-pass, on the demo photos brought to 1024 px on the long side
 * (Lanczos-3), on one thread: A3's detector (its one implementation, the WebAssembly kernel)
 * against opencv-wasm (GaussianBlur + Canny, the tests' reference), with the default parameters
 * and with others (aperture 5 and the L2 gradient, a 9 × 9 blur; aperture 7); the bilinear resize
 * (its one implementation, the kernel) against opencv-wasm's; A5 (its one
 * implementation, the FFT kernels) as the
 * separable Gaussian and through the 2-D transform (Bluestein for other lengths). Prints the
 * median ms of CPU per image (CPU, not wall: it holds on a shared machine) and whether each gives
 * the same bytes as the first of its group. opencv-wasm's one-off load is printed apart.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { luma } from '../src/variants/ops/grayscale.js';
import { filterGains, lowpass, lowpassPlane, passedColumns } from '../src/variants/ops/lowpass.js';
import { gaussianBlur } from '../src/variants/ops/blur.js';
import { cannyCounted, complement } from '../src/variants/ops/canny.js';
import { thresholdsFor } from '../src/variants/ops/edges.js';
import { resizeLinear } from '../src/variants/ops/resize-linear.js';
import { defaultRecipe, type Recipe } from '../src/variants/recipe.js';
import * as cv from '../test/helpers/opencv.js';
import type { Image8 } from '../src/variants/types.js';

const DEMO = fileURLToPath(new URL('../corpora/demo/', import.meta.url));
const args = process.argv.slice(2);
const REPEAT = args.includes('--repeat') ? Number(args[args.indexOf('--repeat') + 1]) : 3;
const recipe = defaultRecipe();

async function grey1024(file: string): Promise<Image8> {
  const { data, info } = await sharp(file)
    .flatten({ background: '#ffffff' })
    .resize({ width: 1024, height: 1024, fit: 'inside', kernel: 'lanczos3' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const rgb: Image8 = {
    width: info.width,
    height: info.height,
    channels: 3,
    data: new Uint8Array(data),
  };
  return luma(rgb);
}

/** CPU ms of one call (user + system, this process). */
function cpuMs(fn: () => void): number {
  const c = process.cpuUsage();
  fn();
  const u = process.cpuUsage(c);
  return (u.user + u.system) / 1000;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

interface Way {
  name: string;
  run: (g: Image8) => Uint8Array;
}

const EDGES: Array<[string, Recipe['edges']]> = [
  ['default', recipe.edges],
  [
    'aperture 5, L2, 9 × 9 σ 2',
    { ...recipe.edges, aperture: 5, l2_gradient: true, blur_ksize: 9, blur_sigma: 2 },
  ],
  ['aperture 7, L1', { ...recipe.edges, aperture: 7 }],
];

/** For each parameter set: the kernel, then opencv-wasm (each group compares the two). */
const detectorGroups: Way[][] = EDGES.map(([label, p]) => [
  { name: `A3 ${label}: WebAssembly kernel`, run: (g) => kernelA3(g, p) },
  { name: `A3 ${label}: opencv-wasm`, run: (g) => opencvA3(g, p) },
]);

/** The bilinear resize (A1's upscale for its SSIM) to 1.6 × each side: the kernel, then opencv-wasm. */
const up = (g: Image8): [number, number] => [Math.round(1.6 * g.width), Math.round(1.6 * g.height)];
const resizeWays: Way[] = [
  { name: 'bilinear resize × 1.6: WebAssembly kernel', run: (g) => resizeLinear(g, ...up(g)).data },
  { name: 'bilinear resize × 1.6: opencv-wasm', run: (g) => cv.resizeLinear(g, ...up(g)).data },
];

/** A3 by the kernel, as edges.ts runs it (not `edgeMap`, which keeps its result per image). */
function kernelA3(g: Image8, p: Recipe['edges']): Uint8Array {
  const b = gaussianBlur(g, p.blur_ksize, p.blur_sigma);
  const t = thresholdsFor(b, p);
  return complement(cannyCounted(b, t.low, t.high, p).image.data);
}

/** A3 by opencv-wasm: blur, thresholds from the median, Canny, edges → 0. */
function opencvA3(g: Image8, p: Recipe['edges']): Uint8Array {
  const b = cv.gaussianBlur(g, p.blur_ksize, p.blur_sigma);
  const t = thresholdsFor(b, p);
  return cv.canny(b, t.low, t.high, p.aperture, p.l2_gradient).data.map((v) => 255 - v);
}

const lowpassWays: Way[] = [
  {
    name: 'A5 separable Gaussian: WebAssembly kernels',
    run: (g) => lowpass(g, recipe.lowpass).image.data,
  },
  { name: 'A5 2-D transform: WebAssembly kernels', run: (g) => lowpass2d(g) },
];

function lowpass2d(g: Image8): Uint8Array {
  const cols = passedColumns(g.width, recipe.lowpass);
  const gains = filterGains(g.width, g.height, recipe.lowpass, cols);
  return lowpassPlane(g.data, g.width, g.height, gains).plane;
}

function measure(ways: Way[], images: Image8[]): void {
  const first: Array<Uint8Array | undefined> = images.map(() => undefined);
  for (const way of ways) {
    const times: number[] = [];
    let same = true;
    for (const [i, g] of images.entries()) {
      let out: Uint8Array = new Uint8Array(0);
      way.run(g); // warm: plans, kernels, JIT
      const ms: number[] = [];
      for (let r = 0; r < REPEAT; r++) ms.push(cpuMs(() => (out = way.run(g))));
      times.push(median(ms));
      const ref = first[i];
      if (ref === undefined) first[i] = out;
      else same &&= Buffer.from(ref).equals(Buffer.from(out));
    }
    process.stdout.write(
      `${way.name.padEnd(46)} ${median(times).toFixed(1).padStart(7)} ms CPU per image (median; per image ${times.map((t) => t.toFixed(0)).join(' ')})   ${same ? 'same bytes' : 'DIFFERENT bytes'}\n`,
    );
  }
}

const files = readdirSync(DEMO)
  .filter((f) => /\.(png|jpe?g)$/i.test(f))
  .sort();
const images = await Promise.all(files.map((f) => grey1024(path.join(DEMO, f))));
process.stdout.write(
  `${images.length} demo photos at 1024 px on the long side (${images.map((g) => `${g.width}×${g.height}`).join(', ')}), repeat ${REPEAT}\n`,
);
const load = cpuMs(() => cv.gaussianBlur(images[0]!, 5, 1.4));
process.stdout.write(`opencv-wasm load and first call: ${load.toFixed(0)} ms CPU\n`);
for (const group of detectorGroups) measure(group, images);
measure(resizeWays, images);
measure(lowpassWays, images);
