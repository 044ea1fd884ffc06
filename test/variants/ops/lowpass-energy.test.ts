/**
 * A5's retained spectral energy, `Σ|H·F|²/Σ|F|²` with and without the DC term, against sums made
 * here independently: a direct separable DFT in float64 (each angle reduced exactly, mod n, in
 * integers), the filter written out from VARIANTS.md, and the AC sums taken over the non-DC bins
 * alone. VARIANTS.md's tolerance is 1e-9 relative. Low-contrast images keep almost no AC energy
 * beside the DC term (the 5 × 1 patch, Gaussian: 1.4e-8 of it), where a fraction made as
 * (total − DC) cancels: it missed by 4e-5 there. The reference's own error is far below the
 * tolerance: on 5 × 1 and 1 × 7 it agrees with a 50-digit DFT (mpmath) to 6e-14.
 */
import { describe, expect, it } from 'vitest';
import { lowpass } from '../../../src/variants/ops/lowpass.js';

let seed = 41;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

/** numpy's fftfreq(n)[k]. */
const freq = (k: number, n: number) => (k <= Math.floor((n - 1) / 2) ? k : k - n) * (1 / n);

/** cos and sin of −2πk/n for k = 0 … n − 1. */
function twiddles(n: number): [Float64Array, Float64Array] {
  const c = new Float64Array(n);
  const s = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    c[k] = Math.cos((-2 * Math.PI * k) / n);
    s[k] = Math.sin((-2 * Math.PI * k) / n);
  }
  return [c, s];
}

/** The full 2-D spectrum's energies |F|² (height × width), by a direct DFT along rows then columns. */
function directEnergies(px: Uint8Array, w: number, h: number): Float64Array {
  const [cw, sw] = twiddles(w);
  const [ch, sh] = twiddles(h);
  const rRe = new Float64Array(w * h);
  const rIm = new Float64Array(w * h);
  for (let y = 0; y < h; y++)
    for (let kx = 0; kx < w; kx++) {
      let re = 0;
      let im = 0;
      for (let x = 0; x < w; x++) {
        const v = px[y * w + x]!;
        const j = (kx * x) % w;
        re += v * cw[j]!;
        im += v * sw[j]!;
      }
      rRe[y * w + kx] = re;
      rIm[y * w + kx] = im;
    }
  const e = new Float64Array(w * h);
  for (let kx = 0; kx < w; kx++)
    for (let ky = 0; ky < h; ky++) {
      let re = 0;
      let im = 0;
      for (let y = 0; y < h; y++) {
        const j = (ky * y) % h;
        const a = rRe[y * w + kx]!;
        const b = rIm[y * w + kx]!;
        re += a * ch[j]! - b * sh[j]!;
        im += a * sh[j]! + b * ch[j]!;
      }
      e[ky * w + kx] = re * re + im * im;
    }
  return e;
}

/** Retained energy fractions (all bins, and the non-DC bins alone) of filter H on these energies. */
function reference(
  e: Float64Array,
  w: number,
  h: number,
  filter: 'gaussian' | 'ideal',
  c: number,
): { retained: number; retainedAc: number } {
  let all = 0;
  let kept = 0;
  let ac = 0;
  let keptAc = 0;
  for (let ky = 0; ky < h; ky++)
    for (let kx = 0; kx < w; kx++) {
      const fx = freq(kx, w);
      const fy = freq(ky, h);
      const rho = Math.sqrt(fx * fx + fy * fy);
      const H = filter === 'ideal' ? (rho <= c ? 1 : 0) : Math.exp(-(rho * rho) / (2 * c * c));
      const v = e[ky * w + kx]!;
      all += v;
      kept += H * H * v;
      if (kx === 0 && ky === 0) continue;
      ac += v;
      keptAc += H * H * v;
    }
  return { retained: kept / all, retainedAc: keptAc / ac };
}

async function demoPhoto(): Promise<[string, Uint8Array, number, number]> {
  const { default: sharp } = await import('sharp');
  const { data, info } = await sharp(
    new URL('../../../corpora/demo/horse.png', import.meta.url).pathname,
  )
    .resize(400, 400, { fit: 'inside' })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return [
    `horse.png ${info.width} × ${info.height}`,
    new Uint8Array(data),
    info.width,
    info.height,
  ];
}

/** A low-contrast patch (199–201, like a clear sky): its AC energy is tiny beside the DC term. */
const patch = (w: number, h: number): [string, Uint8Array, number, number] => [
  `patch ${w} × ${h}`,
  Uint8Array.from({ length: w * h }, () => 199 + Math.floor(rand() * 3)),
  w,
  h,
];

describe('A5 retained energy against direct sums (1e-9 relative)', () => {
  it('on tiny, odd, prime and demo-size images, Gaussian and ideal', async () => {
    const cases = [patch(5, 1), patch(1, 7), patch(31, 31), patch(97, 61), await demoPhoto()];
    for (const [label, px, width, height] of cases) {
      const e = directEnergies(px, width, height);
      for (const filter of ['gaussian', 'ideal'] as const) {
        // The ideal filter at 0.05 passes no AC bin of the tiny images: 0.3 passes some.
        for (const cutoff of filter === 'ideal' ? [0.05, 0.3] : [0.05]) {
          const ref = reference(e, width, height, filter, cutoff);
          const got = lowpass(
            { width, height, channels: 1, data: px },
            { filter, cutoff, channels: 'grey' },
          );
          const what = `${label} ${filter} ${cutoff}`;
          expect
            .soft(Math.abs(got.retained! - ref.retained) / ref.retained, what)
            .toBeLessThan(1e-9);
          if (ref.retainedAc === 0) expect.soft(got.retainedAc, what).toBe(0);
          else
            expect
              .soft(
                Math.abs(got.retainedAc! - ref.retainedAc) / ref.retainedAc,
                `${what} AC (${got.retainedAc} vs ${ref.retainedAc})`,
              )
              .toBeLessThan(1e-9);
        }
      }
    }
  });
});
