/**
 * `npm run bench -- variant-ops [--repeat N]`
 *
 * Each implementation of A3's detector and of A5's low-pass, on the demo photos brought to
 * 1024 px on the long side (Lanczos-3), on one thread: A3's detector in its WebAssembly kernel and
 * in opencv-wasm (GaussianBlur + Canny); A5 (its one implementation, the FFT kernels) as the
 * separable Gaussian and through the 2-D transform (Bluestein for other lengths). Prints the
 * median ms of CPU per image (CPU, not wall: it holds on a shared machine) and whether each gives
 * the same bytes as the first of its group. opencv-wasm's one-off load is printed apart.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { blur5, cannyL1 } from '../src/variants/ops/canny.js';
import { luma } from '../src/variants/ops/grayscale.js';
import { filterGains, lowpass, lowpassPlane, passedColumns } from '../src/variants/ops/lowpass.js';
import { canny, gaussianBlur } from '../src/variants/ops/opencv.js';
import { thresholdsFor } from '../src/variants/ops/edges.js';
import { defaultRecipe } from '../src/variants/recipe.js';
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

const detectorWays: Way[] = [
  { name: 'A3 detector: WebAssembly kernel', run: (g) => detector(g, blur5, cannyL1) },
  {
    name: 'A3 detector: opencv-wasm',
    run: (g) =>
      detector(
        g,
        (x) => gaussianBlur(x, 5, 1.4),
        (x, lo, hi) => canny(x, lo, hi, 3, false),
      ),
  },
];

function detector(
  g: Image8,
  blur: (x: Image8) => Image8,
  edges: (x: Image8, lo: number, hi: number) => Image8,
): Uint8Array {
  const b = blur(g);
  const t = thresholdsFor(b, recipe.edges);
  return edges(b, t.low, t.high).data;
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
const load = cpuMs(() => gaussianBlur(images[0]!, 5, 1.4));
process.stdout.write(`opencv-wasm load and first call: ${load.toFixed(0)} ms CPU\n`);
measure(detectorWays, images);
measure(lowpassWays, images);
