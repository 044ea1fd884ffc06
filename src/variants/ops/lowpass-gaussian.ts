/**
 * A5's Gaussian low-pass, separably. `H = exp(−ρ²/2c²) = gx(fx)·gy(fy)`, so the 2-D filter is a
 * row filter times a column filter. Rows: the real DFT of each row (the columns whose gain
 * gx ≥ GAIN_FLOOR only), times gx. Columns: instead of a DFT of every kept column, its product
 * with gy and an inverse DFT (three Bluestein transforms each when the height is not a power of
 * two), the equivalent circular convolution with `hy = IDFT(gy)`: a Gaussian of σ = 1/(2πc) pixels
 * (3.2 px at c = 0.05), whose taps past the first below TAP_FLOOR of the largest are dropped. Then
 * the inverse row DFTs. Same result as the 2-D transform to rounding (~10⁻¹³); the energies follow
 * from Parseval along the columns: Σ_ky |gy·F|² = h·Σ_y |hy ⊛ R|², except column 0's without its DC
 * term (columnZeroAc). The steps after the row pass run in one call of the FFT kernel (fft-kernel.ts
 * `gaussianKernel`), nothing copied between them.
 */
import {
  dft,
  columnWeight,
  fftfreq,
  keptRows,
  planeEnergy,
  transientRows,
  type Spectrum,
} from './fft.js';
import { columnsKernel, gaussianKernel } from './fft-kernel.js';
import { keptPerKey } from './kept.js';
import type { Energy } from './lowpass.js';

/**
 * The column kernel ends at its first tap below this fraction of the centre tap (d ≈ 27 px at
 * c = 0.05). Near the rounding noise of the kernel's own sums (~1e-16 of the centre tap), which
 * is also the noise of the 2-D transform this replaces.
 */
const TAP_FLOOR = 1e-15;

/** The gains and column taps of each (length, cutoff) met, per thread. */
const cached = keptPerKey<Float64Array>();

/** gy at every ky (numpy fftfreq order); shared, not to be modified. */
function axisGains(n: number, c: number): Float64Array {
  return cached(`g ${n} ${c}`, () => axisGainsOf(n, c));
}

function axisGainsOf(n: number, c: number): Float64Array {
  const g = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const f = fftfreq(k, n);
    g[k] = Math.exp(-(f * f) / (2 * c * c));
  }
  return g;
}

/**
 * The periodic column kernel `hy[d] = (1/h)·Σ_ky gy(ky)·cos(2π·ky·d/h)` for d = 0 … D (it is even),
 * D the last tap at or above TAP_FLOOR of hy[0] (at most floor(h/2)).
 */
function columnKernel(height: number, c: number): Float64Array {
  const g = axisGains(height, c);
  // cos(2π·j/h) for each j = k·d mod h, computed once per j (the same values).
  const cos = Float64Array.from({ length: height }, (_, j) => Math.cos((2 * Math.PI * j) / height));
  const taps: number[] = [];
  for (let d = 0; d <= Math.floor(height / 2); d++) {
    let s = 0;
    for (let k = 0; k < height; k++) s += g[k]! * cos[(k * d) % height]!;
    const v = s / height;
    if (d > 0 && Math.abs(v) < TAP_FLOOR * taps[0]!) break;
    taps.push(v);
  }
  return Float64Array.from(taps);
}

/**
 * Σ_{ky ≠ 0} |gy·F(ky, 0)|²: column 0's filtered energy without the DC term, summed over its own
 * bins (a DFT of the column of row sums). Column 0's energy less the DC term would cancel when gy
 * keeps little of it (5 × 1: to 5 digits).
 */
function columnZeroAc(rows: Spectrum, gy: Float64Array): number {
  const { height, cols, data } = rows;
  const col = new Float64Array(2 * height);
  for (let y = 0; y < height; y++) {
    col[2 * y] = data[2 * y * cols]!;
    col[2 * y + 1] = data[2 * y * cols + 1]!;
  }
  columnsKernel(col, 1, height, 1, 'forward', dft(height));
  let e = 0;
  for (let ky = 1; ky < height; ky++)
    e += (col[2 * ky]! ** 2 + col[2 * ky + 1]! ** 2) * gy[ky]! ** 2;
  return e;
}

/**
 * Gaussian low-pass of one plane; `cols` is the number of half-spectrum columns passed (passedColumns).
 * Returns the unrounded filtered values (a view of the FFT kernel's memory: read them before the
 * next call into it) and the energy sums (total and DC from the pixels).
 */
export function gaussianPlane(
  values: ArrayLike<number>,
  width: number,
  height: number,
  cutoff: number,
  cols: number,
): { filtered: Float64Array; energy: Energy } {
  // A grey image's row pass may already be there (the low-frequency energy of A2 computes it with
  // A5's columns); src is only read. Otherwise it goes to this thread's scratch (nobody needs it
  // after this call).
  const rows =
    (values instanceof Uint8Array ? keptRows(values, width, height, cols) : undefined) ??
    transientRows(values, width, height, cols);
  const gx = axisGains(width, cutoff);
  // d = h/2 (even h, a kernel spanning the whole column): rows y ± d are one row, counted once.
  const taps = cached(`t ${height} ${cutoff}`, () =>
    Float64Array.from(columnKernel(height, cutoff), (v, d) =>
      d > 0 && 2 * d === height ? v / 2 : v,
    ),
  );
  // Before gaussianKernel: its output is a view of the kernel's memory, which a later call reuses.
  const sums = planeEnergy(values, width * height);
  let filteredAc = columnZeroAc(rows, axisGains(height, cutoff));
  // The kernel scales each column by gx and sums its energy over y in row order (rows are
  // contiguous; a column's sum sees its terms in the same order as a pass down the column would).
  const { filtered: out, energy: e } = gaussianKernel(
    rows,
    width,
    height,
    cols,
    taps,
    dft(width),
    gx,
  );
  let filtered = 0;
  for (let kx = 0; kx < cols; kx++) {
    const ek = e[kx]! * height * columnWeight(kx, width);
    filtered += ek;
    if (kx > 0) filteredAc += ek;
  }
  return {
    filtered: out,
    energy: { ...sums, filtered, filteredAc },
  };
}
