/**
 * A5 FFT low-pass (removes high-frequency detail): `F = DFT2(x)` of the exact image size (no
 * padding, no window), `H = exp(−ρ²/(2c²))` (or the ideal `[ρ ≤ c]`), output
 * `clip(floor(Re(IDFT2(F·H)) + 1/2), 0, 255)`. On A2, or on each channel of A0. Records the
 * spectral energy retained, `Σ|H·F|²/Σ|F|²`, with and without the DC term. VARIANTS.md, A5.
 */
import {
  columnWeight,
  fft2Real,
  ifft2Real,
  radialFrequency,
  planeEnergy,
  type Spectrum,
} from './fft.js';
import { keptPerKey } from './kept.js';
import { gaussianPlane } from './lowpass-gaussian.js';
import { roundClipKernel } from '../kernels/pixels.js';
import type { Recipe } from '../recipe.js';
import type { Image8, VariantDef } from '../types.js';

/**
 * Gains below this are treated as zero: a column of the half spectrum whose largest gain is
 * smaller is neither transformed nor inverted (for the default Gaussian at 1024 px, a quarter of
 * the columns; for the ideal filter, nine tenths). What that drops from a pixel is at most
 * GAIN_FLOOR · Σ|F| / N ≤ GAIN_FLOOR · 255 · √N — under 3e-7 at A0's largest size (1024², N ≈ 10⁶),
 * against VARIANTS.md's |Δ| ≤ 1 — and from the retained energy a relative GAIN_FLOOR², against its
 * 1e-9; from the AC fraction r, a relative GAIN_FLOOR²/r (within 1e-9 while r ≥ 1e-15; an image
 * whose AC energy all lies where the gain is below the floor, such as 2 × 1, gets r = 0). A test
 * compares the result with the full transform.
 */
const GAIN_FLOOR = 1e-12;

/**
 * How many half-spectrum columns (kx = 0, 1, …) hold a gain ≥ GAIN_FLOOR. The gain of column kx is
 * largest at ky = 0 (ρ grows with |fy|), so that row decides; beyond it the filter passes nothing.
 */
export function passedColumns(
  width: number,
  p: Pick<Recipe['lowpass'], 'filter' | 'cutoff'>,
): number {
  return passed(`${width} ${p.filter} ${p.cutoff}`, () => passedColumnsOf(width, p));
}

/** `passedColumns` of each (width, filter, cutoff) met, per thread (A2's metric and A5 ask alike). */
const passed = keptPerKey<number>();

function passedColumnsOf(width: number, p: Pick<Recipe['lowpass'], 'filter' | 'cutoff'>): number {
  const half = Math.floor(width / 2) + 1;
  const gains = filterGains(width, 1, p, half);
  let cols = half;
  while (cols > 1 && gains[cols - 1]! < GAIN_FLOOR) cols--;
  return cols;
}

/** The filter's gain at every half-spectrum bin (height × cols; cols defaults to floor(width/2) + 1). */
export function filterGains(
  width: number,
  height: number,
  p: Pick<Recipe['lowpass'], 'filter' | 'cutoff'>,
  cols = Math.floor(width / 2) + 1,
): Float64Array {
  const gains = new Float64Array(height * cols);
  const c = p.cutoff;
  for (let ky = 0; ky < height; ky++) {
    for (let kx = 0; kx < cols; kx++) {
      const rho = radialFrequency(ky, kx, width, height);
      gains[ky * cols + kx] =
        p.filter === 'ideal' ? (rho <= c ? 1 : 0) : Math.exp(-(rho * rho) / (2 * c * c));
    }
  }
  return gains;
}

/**
 * Energy sums of a plane's full spectrum, with and without the DC term. The AC sums are made over
 * the non-DC bins (or, for Σ|F|², exactly in integers), never as a total minus the DC term: when
 * the filter keeps almost no AC energy, that difference would cancel to a few digits.
 */
export interface Energy {
  /** Σ|F|². */
  total: number;
  /** Σ|F|² without the DC term. */
  ac: number;
  /** Σ|H·F|². */
  filtered: number;
  /** Σ|H·F|² without the DC term. */
  filteredAc: number;
}

/** Σ|H·F|² over the full spectrum, from its half, with and without the DC term (bin 0). */
function filteredEnergy(
  spec: Spectrum,
  gains: Float64Array,
): Pick<Energy, 'filtered' | 'filteredAc'> {
  const { cols, height, width, data } = spec;
  let filtered = 0;
  let filteredAc = 0;
  for (let ky = 0; ky < height; ky++) {
    for (let kx = 0; kx < cols; kx++) {
      const i = ky * cols + kx;
      const e = (data[2 * i]! ** 2 + data[2 * i + 1]! ** 2) * columnWeight(kx, width);
      filtered += e * gains[i]! * gains[i]!;
      if (i > 0) filteredAc += e * gains[i]! * gains[i]!;
    }
  }
  return { filtered, filteredAc };
}

/**
 * Low-pass one plane of 8-bit values; returns the rounded, clipped plane and its energy sums.
 * `gains` (not read for the Gaussian, which passes its cutoff and its number of columns instead)
 * covers the first `gains.length / height` columns of the half spectrum; the columns
 * beyond are taken as stopped (gain 0) and are not computed. Σ|F|², with and without the DC term,
 * then comes from the pixels (planeEnergy).
 */
export function lowpassPlane(
  values: ArrayLike<number>,
  width: number,
  height: number,
  gains: Float64Array,
  gaussian?: { cutoff: number; cols: number },
): { plane: Uint8Array; energy: Energy } {
  if (gaussian) {
    const g = gaussianPlane(values, width, height, gaussian.cutoff, gaussian.cols);
    return { plane: roundClip(g.filtered), energy: g.energy };
  }
  const cols = gains.length / height;
  const spec = fft2Real(values, width, height, cols);
  const energy: Energy = {
    ...planeEnergy(values, width * height),
    ...filteredEnergy(spec, gains),
  };
  for (let i = 0; i < gains.length; i++) {
    spec.data[2 * i] = spec.data[2 * i]! * gains[i]!;
    spec.data[2 * i + 1] = spec.data[2 * i + 1]! * gains[i]!;
  }
  return { plane: roundClip(ifft2Real(spec)), energy };
}

/**
 * `min(255, max(0, floor(x + 1/2)))` of each value: by the WebAssembly kernel (kernels/as/pixels.ts)
 * when built, else `roundClipJs`; the same bytes either way.
 */
export function roundClip(real: Float64Array): Uint8Array {
  return roundClipKernel(real) ?? roundClipJs(real);
}

/** `roundClip` in TypeScript: the reference of the WebAssembly kernel. */
export function roundClipJs(real: Float64Array): Uint8Array {
  const plane = new Uint8Array(real.length);
  for (let i = 0; i < real.length; i++)
    plane[i] = Math.min(255, Math.max(0, Math.floor(real[i]! + 0.5)));
  return plane;
}

/** A5 of an image (grey, or each RGB channel), with the energy retained over all its planes. */
export function lowpass(
  image: Image8,
  p: Recipe['lowpass'],
): { image: Image8; retained: number | null; retainedAc: number | null } {
  const { width, height, channels } = image;
  const cols = passedColumns(width, p);
  // The Gaussian is separable: filtered without a 2-D transform (lowpass-gaussian.ts), from its
  // cutoff; an empty array of gains stands for the columns counted.
  const gaussian = p.filter === 'gaussian' ? { cutoff: p.cutoff, cols } : undefined;
  const gains = gaussian ? new Float64Array(0) : filterGains(width, height, p, cols);
  // A grey image's plane is its output (no copy); RGB interleaves its three.
  let out: Uint8Array | undefined = channels === 1 ? undefined : new Uint8Array(image.data.length);
  const n = width * height;
  // A grey image is its own plane (read as numbers, the same values as a Float64 copy).
  const plane = channels === 1 ? image.data : new Float64Array(n);
  let total = 0;
  let ac = 0;
  let kept = 0;
  let keptAc = 0;
  for (let ch = 0; ch < channels; ch++) {
    if (channels > 1) for (let i = 0; i < n; i++) plane[i] = image.data[i * channels + ch]!;
    const r = lowpassPlane(plane, width, height, gains, gaussian);
    if (!out) out = r.plane;
    else for (let i = 0; i < n; i++) out[i * channels + ch] = r.plane[i]!;
    total += r.energy.total;
    ac += r.energy.ac;
    kept += r.energy.filtered;
    keptAc += r.energy.filteredAc;
  }
  return {
    image: { width, height, channels, data: out! },
    retained: total > 0 ? kept / total : null,
    retainedAc: ac > 0 ? keptAc / ac : null,
  };
}

export const lowpassVariant: VariantDef = {
  code: 'A5',
  name: 'lowpass',
  removes: 'high-frequency detail (FFT low-pass)',
  recipeKeys: ['lowpass'],
  run: (ctx) => {
    const p = ctx.recipe.lowpass;
    const r = lowpass(p.channels === 'rgb' ? ctx.a0 : ctx.a2, p);
    return {
      image: r.image,
      params: { ...p },
      metrics: { spectral_energy_retained: r.retained, spectral_energy_retained_ac: r.retainedAc },
    };
  },
};
