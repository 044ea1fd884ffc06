// A3's Gaussian blur with any odd kernel size (src/variants/ops/blur.ts computes OpenCV's taps).
import { countRow, mergeHistograms, reflect101 } from './common';

/**
 * GaussianBlur n × n, 8-bit, reflect-101, as OpenCV's fixed-point path computes it: `taps` (n u16,
 * n odd, summing to 256) vertically, then horizontally, `(acc + 2^15) >> 16`. The vertical sums
 * are ≤ 256 · 255 < 2^16, exact in 16-bit lanes (i16 arithmetic wraps, the sum does not); the
 * horizontal ones (≤ 2^16 · 255) in u32 lanes. Exact integers: the order of the sums does not
 * matter. `hist` (256 u32) gets the histogram of the output; `scratch` needs
 * 2 · (w + n) + 4 · n + 64 + 4096 bytes.
 */
export function blurN(src: usize, dst: usize, w: i32, h: i32, taps: usize, n: i32, hist: usize, scratch: usize): void {
  const r = n >> 1;
  const v = scratch; // w + 2r u16: the vertical sums, padded by reflection
  const rows = (v + ((<usize>(w + n)) << 1) + 15) & ~(<usize>15); // n row addresses
  const parts = (rows + ((<usize>n) << 2) + 15) & ~(<usize>15); // 4 histograms of 256 u32
  memory.fill(parts, 0, 4096);
  for (let y = 0; y < h; y++) {
    for (let j = 0; j < n; j++) store<u32>(rows + ((<usize>j) << 2), <u32>(src + <usize>(reflect101(y - r + j, h) * w)));
    vertical(v + ((<usize>r) << 1), rows, taps, n, w);
    for (let i = 1; i <= r; i++) {
      store<u16>(v + ((<usize>(r - i)) << 1), load<u16>(v + ((<usize>(r + reflect101(-i, w))) << 1)));
      store<u16>(v + ((<usize>(r + w - 1 + i)) << 1), load<u16>(v + ((<usize>(r + reflect101(w - 1 + i, w))) << 1)));
    }
    const out = dst + <usize>(y * w);
    horizontal(out, v, taps, n, w);
    countRow(out, w, parts);
  }
  mergeHistograms(parts, hist);
}

/** Σ_j taps[j] · row_j[x] for x < w into `v` (u16), the rows' addresses at `rows`. */
// @ts-ignore: decorator
@inline
function vertical(v: usize, rows: usize, taps: usize, n: i32, w: i32): void {
  let x = 0;
  for (; x + 8 <= w; x += 8) {
    const o = <usize>x;
    let acc = i16x8.splat(0);
    for (let j = 0; j < n; j++) {
      const row = <usize>load<u32>(rows + ((<usize>j) << 2));
      acc = i16x8.add(acc, i16x8.mul(i16x8.splat(load<i16>(taps + ((<usize>j) << 1))), v128.load8x8_u(row + o)));
    }
    v128.store(v + (o << 1), acc);
  }
  for (; x < w; x++) {
    const o = <usize>x;
    let acc: u32 = 0;
    for (let j = 0; j < n; j++) {
      const row = <usize>load<u32>(rows + ((<usize>j) << 2));
      acc += <u32>load<u16>(taps + ((<usize>j) << 1)) * <u32>load<u8>(row + o);
    }
    store<u16>(v + (o << 1), <u16>acc);
  }
}

/** out[x] = (Σ_i taps[i] · v[x + i] + 2^15) >> 16 for x < w. */
// @ts-ignore: decorator
@inline
function horizontal(out: usize, v: usize, taps: usize, n: i32, w: i32): void {
  const half = i32x4.splat(32768);
  let x = 0;
  for (; x + 8 <= w; x += 8) {
    const p = v + ((<usize>x) << 1);
    let lo = half;
    let hi = half;
    for (let i = 0; i < n; i++) {
      const k = i16x8.splat(load<i16>(taps + ((<usize>i) << 1)));
      const s = v128.load(p + ((<usize>i) << 1));
      lo = i32x4.add(lo, i32x4.extmul_low_i16x8_u(s, k));
      hi = i32x4.add(hi, i32x4.extmul_high_i16x8_u(s, k));
    }
    const r = i16x8.narrow_i32x4_u(i32x4.shr_u(lo, 16), i32x4.shr_u(hi, 16));
    v128.store64_lane(out + <usize>x, i8x16.narrow_i16x8_u(r, r), 0);
  }
  for (; x < w; x++) {
    const p = v + ((<usize>x) << 1);
    let acc: u32 = 32768;
    for (let i = 0; i < n; i++) acc += <u32>load<u16>(taps + ((<usize>i) << 1)) * <u32>load<u16>(p + ((<usize>i) << 1));
    store<u8>(out + <usize>x, <u8>(acc >> 16));
  }
}
