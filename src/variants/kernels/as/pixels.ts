// The small per-pixel passes of the variants and their metrics, in 128-bit SIMD: BT.601 luma
// (ops/grayscale.ts), A0's flattening of grey and alpha images (ops/original.ts), A4's histogram
// and threshold (ops/binary.ts), A5's rounding (ops/lowpass.ts), the bilinear upscale of A1
// (ops/resize-linear.ts), and the metrics' sums and counts (metrics/metrics.ts). Each gives
// exactly the TypeScript's values: integer formulas whose divisions are replaced by
// multiply-and-shift pairs checked exact over the whole input range, and the rounding of A5 by the
// same IEEE operations (x + 0.5, floor, clamp).

/** First free byte of the memory: the caller lays its buffers out from here. */
export function base(): usize {
  return __heap_base;
}

/** This module's interface version (kernels/load.ts `ABI`): raised when an export's signature or meaning changes. */
export function abi(): i32 {
  return 1;
}

// floor(x / 1000) = ((x >> 3) · 134218) >>> 24 for 0 ≤ x ≤ 255500 (checked for every x; the
// product stays below 2^32).
const LUMA_MUL: u32 = 134218;

@inline
function lumaOf(r: u32, g: u32, b: u32): u32 {
  return (((299 * r + 587 * g + 114 * b + 500) >> 3) * LUMA_MUL) >> 24;
}

@inline
function lumaQuad(r: v128, g: v128, b: v128): v128 {
  let x = i32x4.add(i32x4.add(i32x4.mul(r, i32x4.splat(299)), i32x4.mul(g, i32x4.splat(587))), i32x4.add(i32x4.mul(b, i32x4.splat(114)), i32x4.splat(500)));
  x = i32x4.shr_u(x, 3);
  return i32x4.shr_u(i32x4.mul(x, i32x4.splat(LUMA_MUL)), 24);
}

/** out[i] = floor((299·R + 587·G + 114·B + 500) / 1000) of n interleaved RGB pixels. */
export function luma(src: usize, out: usize, n: i32): void {
  const R0 = v128(0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const R1 = v128(-1, -1, -1, -1, -1, -1, 2, 5, 8, 11, 14, -1, -1, -1, -1, -1);
  const R2 = v128(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1, 4, 7, 10, 13);
  const G0 = v128(1, 4, 7, 10, 13, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const G1 = v128(-1, -1, -1, -1, -1, 0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1);
  const G2 = v128(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 2, 5, 8, 11, 14);
  const B0 = v128(2, 5, 8, 11, 14, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const B1 = v128(-1, -1, -1, -1, -1, 1, 4, 7, 10, 13, -1, -1, -1, -1, -1, -1);
  const B2 = v128(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 3, 6, 9, 12, 15);
  let i = 0;
  for (; i + 16 <= n; i += 16) {
    const p = src + <usize>i * 3;
    const v0 = v128.load(p);
    const v1 = v128.load(p + 16);
    const v2 = v128.load(p + 32);
    const r = v128.or(v128.or(i8x16.swizzle(v0, R0), i8x16.swizzle(v1, R1)), i8x16.swizzle(v2, R2));
    const g = v128.or(v128.or(i8x16.swizzle(v0, G0), i8x16.swizzle(v1, G1)), i8x16.swizzle(v2, G2));
    const b = v128.or(v128.or(i8x16.swizzle(v0, B0), i8x16.swizzle(v1, B1)), i8x16.swizzle(v2, B2));
    const rl = i16x8.extend_low_i8x16_u(r);
    const rh = i16x8.extend_high_i8x16_u(r);
    const gl = i16x8.extend_low_i8x16_u(g);
    const gh = i16x8.extend_high_i8x16_u(g);
    const bl = i16x8.extend_low_i8x16_u(b);
    const bh = i16x8.extend_high_i8x16_u(b);
    const y0 = lumaQuad(i32x4.extend_low_i16x8_u(rl), i32x4.extend_low_i16x8_u(gl), i32x4.extend_low_i16x8_u(bl));
    const y1 = lumaQuad(i32x4.extend_high_i16x8_u(rl), i32x4.extend_high_i16x8_u(gl), i32x4.extend_high_i16x8_u(bl));
    const y2 = lumaQuad(i32x4.extend_low_i16x8_u(rh), i32x4.extend_low_i16x8_u(gh), i32x4.extend_low_i16x8_u(bh));
    const y3 = lumaQuad(i32x4.extend_high_i16x8_u(rh), i32x4.extend_high_i16x8_u(gh), i32x4.extend_high_i16x8_u(bh));
    v128.store(out + <usize>i, i8x16.narrow_i16x8_u(i16x8.narrow_i32x4_u(y0, y1), i16x8.narrow_i32x4_u(y2, y3)));
  }
  for (; i < n; i++) {
    const p = src + <usize>i * 3;
    store<u8>(out + <usize>i, <u8>lumaOf(load<u8>(p), load<u8>(p + 1), load<u8>(p + 2)));
  }
}

// floor(x / 510) for x = 2·(c·a + 255·(255 − a)) + 255: floor(y / 255) with y = x >> 1 ≤ 65152,
// = (y + 1 + (y >> 8)) >> 8 (checked for every y).
@inline
function over(c: u32, a: u32): u32 {
  const y = c * a + 255 * (255 - a) + 127;
  return (y + 1 + (y >> 8)) >> 8;
}

/** Interleaved pixels of `channels` (1, 2 or 4) composited over white into RGB (ops/original.ts, flattenToRgb). */
export function flatten(src: usize, out: usize, n: i32, channels: i32): void {
  let i = 0;
  if (channels == 1) {
    const S0 = v128(0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5);
    const S1 = v128(5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 10, 10);
    const S2 = v128(10, 11, 11, 11, 12, 12, 12, 13, 13, 13, 14, 14, 14, 15, 15, 15);
    for (; i + 16 <= n; i += 16) {
      const v = v128.load(src + <usize>i);
      const o = out + <usize>i * 3;
      v128.store(o, i8x16.swizzle(v, S0));
      v128.store(o + 16, i8x16.swizzle(v, S1));
      v128.store(o + 32, i8x16.swizzle(v, S2));
    }
    for (; i < n; i++) {
      const c = load<u8>(src + <usize>i);
      const o = out + <usize>i * 3;
      store<u8>(o, c);
      store<u8>(o + 1, c);
      store<u8>(o + 2, c);
    }
  } else if (channels == 2) {
    for (; i < n; i++) {
      const p = src + (<usize>i << 1);
      const v = <u8>over(load<u8>(p), load<u8>(p + 1));
      const o = out + <usize>i * 3;
      store<u8>(o, v);
      store<u8>(o + 1, v);
      store<u8>(o + 2, v);
    }
  } else {
    for (; i < n; i++) {
      const p = src + (<usize>i << 2);
      const a = <u32>load<u8>(p + 3);
      const o = out + <usize>i * 3;
      store<u8>(o, <u8>over(load<u8>(p), a));
      store<u8>(o + 1, <u8>over(load<u8>(p + 1), a));
      store<u8>(o + 2, <u8>over(load<u8>(p + 2), a));
    }
  }
}

/** hist[v] = count of v among n bytes (256 u32 at `hist`; `work` has room for 4 × 256 u32). */
export function histogram(src: usize, n: i32, hist: usize, work: usize): void {
  memory.fill(work, 0, 4096);
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const w = load<u32>(src + <usize>i);
    const a = work + ((<usize>(w & 255)) << 2);
    const b = work + 1024 + ((<usize>((w >> 8) & 255)) << 2);
    const c = work + 2048 + ((<usize>((w >> 16) & 255)) << 2);
    const d = work + 3072 + ((<usize>(w >> 24)) << 2);
    store<u32>(a, load<u32>(a) + 1);
    store<u32>(b, load<u32>(b) + 1);
    store<u32>(c, load<u32>(c) + 1);
    store<u32>(d, load<u32>(d) + 1);
  }
  for (; i < n; i++) {
    const a = work + ((<usize>load<u8>(src + <usize>i)) << 2);
    store<u32>(a, load<u32>(a) + 1);
  }
  for (let v: usize = 0; v < 1024; v += 4) store<u32>(hist + v, load<u32>(work + v) + load<u32>(work + 1024 + v) + load<u32>(work + 2048 + v) + load<u32>(work + 3072 + v));
}

/** out[i] = src[i] > t ? 255 : 0 (t an integer 0…255). */
export function threshold(src: usize, out: usize, n: i32, t: i32): void {
  const T = i8x16.splat(<i8>t);
  let i = 0;
  for (; i + 16 <= n; i += 16) v128.store(out + <usize>i, i8x16.gt_u(v128.load(src + <usize>i), T));
  for (; i < n; i++) store<u8>(out + <usize>i, load<u8>(src + <usize>i) > <u8>t ? 255 : 0);
}

/** How many of n bytes equal `value`. */
export function count(src: usize, n: i32, value: i32): u32 {
  const V = i8x16.splat(<i8>value);
  let total = i32x4.splat(0);
  let i = 0;
  while (i + 16 <= n) {
    // At most 255 steps per byte lane before widening.
    let acc = i8x16.splat(0);
    const end = min(n - 15, i + 255 * 16);
    for (; i < end; i += 16) acc = i8x16.sub(acc, i8x16.eq(v128.load(src + <usize>i), V));
    total = i32x4.add(total, i32x4.extadd_pairwise_i16x8_u(i16x8.extadd_pairwise_i8x16_u(acc)));
  }
  let c = <u32>(i32x4.extract_lane(total, 0) + i32x4.extract_lane(total, 1) + i32x4.extract_lane(total, 2) + i32x4.extract_lane(total, 3));
  for (; i < n; i++) if (load<u8>(src + <usize>i) == <u8>value) c++;
  return c;
}

/** Σx and Σx² of n bytes, exactly, as two i64 at `out`. */
export function sums(src: usize, n: i32, out: usize): void {
  let sum: i64 = 0;
  let sq: i64 = 0;
  let i = 0;
  while (i + 16 <= n) {
    // Per lane and step at most 4 · 255 (sums) and 4 · 255² (squares): 256 steps stay in i32.
    let s = i32x4.splat(0);
    let q = i32x4.splat(0);
    const end = min(n - 15, i + 256 * 16);
    for (; i < end; i += 16) {
      const v = v128.load(src + <usize>i);
      const lo = i16x8.extend_low_i8x16_u(v);
      const hi = i16x8.extend_high_i8x16_u(v);
      s = i32x4.add(s, i32x4.extadd_pairwise_i16x8_u(i16x8.extadd_pairwise_i8x16_u(v)));
      q = i32x4.add(q, i32x4.add(i32x4.dot_i16x8_s(lo, lo), i32x4.dot_i16x8_s(hi, hi)));
    }
    sum += <i64>(i32x4.extract_lane(s, 0) + i32x4.extract_lane(s, 1) + i32x4.extract_lane(s, 2) + i32x4.extract_lane(s, 3));
    sq += <i64>(<u32>i32x4.extract_lane(q, 0)) + <i64>(<u32>i32x4.extract_lane(q, 1)) + <i64>(<u32>i32x4.extract_lane(q, 2)) + <i64>(<u32>i32x4.extract_lane(q, 3));
  }
  for (; i < n; i++) {
    const v = <i64>load<u8>(src + <usize>i);
    sum += v;
    sq += v * v;
  }
  store<i64>(out, sum);
  store<i64>(out + 8, sq);
}

/**
 * out[i] = min(255, max(0, floor(src[i] + 0.5))) of n f64 (NaN → 0, as a Uint8Array stores it).
 * The clamp is done by the saturating conversions: trunc_sat to i32 (NaN → 0, ±∞ → the i32
 * limits), then the saturating narrowings to i16 and to u8 — the same bytes as clamping first.
 */
export function roundClip(src: usize, out: usize, n: i32): void {
  const half = f64x2.splat(0.5);
  let i = 0;
  for (; i + 8 <= n; i += 8) {
    const p = src + (<usize>i << 3);
    const a = i32x4.trunc_sat_f64x2_s_zero(f64x2.floor(f64x2.add(v128.load(p), half)));
    const b = i32x4.trunc_sat_f64x2_s_zero(f64x2.floor(f64x2.add(v128.load(p + 16), half)));
    const c = i32x4.trunc_sat_f64x2_s_zero(f64x2.floor(f64x2.add(v128.load(p + 32), half)));
    const d = i32x4.trunc_sat_f64x2_s_zero(f64x2.floor(f64x2.add(v128.load(p + 48), half)));
    const w = i16x8.narrow_i32x4_s(i32x4.shuffle(a, b, 0, 1, 4, 5), i32x4.shuffle(c, d, 0, 1, 4, 5));
    v128.store_lane<i64>(out + <usize>i, i8x16.narrow_i16x8_u(w, w), 0);
  }
  for (; i < n; i++) {
    const v = Math.min(255, Math.max(0, Math.floor(load<f64>(src + (<usize>i << 3)) + 0.5)));
    store<u8>(out + <usize>i, v != v ? 0 : <u8>(<i32>v));
  }
}

/**
 * OpenCV's INTER_LINEAR resize of a grey image (ops/resize-linear.ts), with the axes computed by
 * the caller: per destination column `xofs` (i32) and the weights a0, a1 as i16
 * pairs at `xw`, per destination row `yofs`, `ya0`, `ya1` (i32 each). `rows` has room for
 * 2 · width i32. The horizontal pass takes 8 columns at a time: the byte pairs (src[s], src[s+1])
 * gathered, then a0·src[s] + a1·src[s+1] by a dot product in i32 (at most 255 · 4096). A column
 * clamped to the last one (s = sw − 1) has a0 = 2048 and a1 = 0, so the byte read past it counts
 * for nothing: the TypeScript's `src[s]·2048`.
 */
export function resizeLinear(src: usize, sw: i32, sh: i32, out: usize, width: i32, height: i32, xofs: usize, xw: usize, yofs: usize, ya0: usize, ya1: usize, rows: usize): void {
  let rowA = rows;
  let rowB = rows + ((<usize>width) << 2);
  let idxA = -1;
  let idxB = -1;
  for (let y = 0; y < height; y++) {
    const s = load<i32>(yofs + ((<usize>y) << 2));
    const i0 = min(max(s, 0), sh - 1);
    const i1 = min(max(s + 1, 0), sh - 1);
    // The two horizontally interpolated rows, each made once: keep the buffers of rows still
    // wanted, fill the older one otherwise (as the TypeScript does).
    let r0: usize = 0;
    let r1: usize = 0;
    for (let k = 0; k < 2; k++) {
      const r = k == 0 ? i0 : i1;
      let buf: usize;
      if (r == idxA) buf = rowA;
      else if (r == idxB) buf = rowB;
      else {
        if (idxA < idxB) {
          buf = rowA;
          idxA = r;
        } else {
          buf = rowB;
          idxB = r;
        }
        const o = src + <usize>r * <usize>sw;
        let x = 0;
        for (; x + 8 <= width; x += 8) {
          const t = xofs + ((<usize>x) << 2);
          let g = i16x8.splat(0);
          g = i16x8.replace_lane(g, 0, load<u16>(o + <usize>load<i32>(t)));
          g = i16x8.replace_lane(g, 1, load<u16>(o + <usize>load<i32>(t + 4)));
          g = i16x8.replace_lane(g, 2, load<u16>(o + <usize>load<i32>(t + 8)));
          g = i16x8.replace_lane(g, 3, load<u16>(o + <usize>load<i32>(t + 12)));
          g = i16x8.replace_lane(g, 4, load<u16>(o + <usize>load<i32>(t + 16)));
          g = i16x8.replace_lane(g, 5, load<u16>(o + <usize>load<i32>(t + 20)));
          g = i16x8.replace_lane(g, 6, load<u16>(o + <usize>load<i32>(t + 24)));
          g = i16x8.replace_lane(g, 7, load<u16>(o + <usize>load<i32>(t + 28)));
          const w = xw + ((<usize>x) << 2);
          v128.store(buf + ((<usize>x) << 2), i32x4.dot_i16x8_s(i16x8.extend_low_i8x16_u(g), v128.load(w)));
          v128.store(buf + ((<usize>x) << 2) + 16, i32x4.dot_i16x8_s(i16x8.extend_high_i8x16_u(g), v128.load(w + 16)));
        }
        for (; x < width; x++) {
          const xs = load<i32>(xofs + ((<usize>x) << 2));
          const p = o + <usize>xs;
          const a0 = <i32>load<i16>(xw + ((<usize>x) << 2));
          const a1 = <i32>load<i16>(xw + ((<usize>x) << 2) + 2);
          const v = xs + 1 < sw ? <i32>load<u8>(p) * a0 + <i32>load<u8>(p + 1) * a1 : <i32>load<u8>(p) * 2048;
          store<i32>(buf + ((<usize>x) << 2), v);
        }
      }
      if (k == 0) r0 = buf;
      else r1 = buf;
    }
    const b0 = load<i32>(ya0 + ((<usize>y) << 2));
    const b1 = load<i32>(ya1 + ((<usize>y) << 2));
    const B0 = i32x4.splat(b0);
    const B1 = i32x4.splat(b1);
    const two = i32x4.splat(2);
    const mask = i32x4.splat(255);
    const o = out + <usize>y * <usize>width;
    let x = 0;
    for (; x + 16 <= width; x += 16) {
      let q0 = v128.splat<i32>(0);
      let q1 = q0;
      let q2 = q0;
      let q3 = q0;
      for (let k = 0; k < 4; k++) {
        const at = (<usize>(x + 4 * k)) << 2;
        const a = i32x4.shr_s(i32x4.mul(i32x4.shr_s(v128.load(r0 + at), 4), B0), 16);
        const b = i32x4.shr_s(i32x4.mul(i32x4.shr_s(v128.load(r1 + at), 4), B1), 16);
        // & 255: the byte a Uint8Array would store (the values are within 0…255 anyway).
        const v = v128.and(i32x4.shr_s(i32x4.add(i32x4.add(a, b), two), 2), mask);
        if (k == 0) q0 = v;
        else if (k == 1) q1 = v;
        else if (k == 2) q2 = v;
        else q3 = v;
      }
      v128.store(o + <usize>x, i8x16.narrow_i16x8_u(i16x8.narrow_i32x4_s(q0, q1), i16x8.narrow_i32x4_s(q2, q3)));
    }
    for (; x < width; x++) {
      const at = (<usize>x) << 2;
      store<u8>(o + <usize>x, <u8>(((((load<i32>(r0 + at) >> 4) * b0) >> 16) + (((load<i32>(r1 + at) >> 4) * b1) >> 16) + 2) >> 2));
    }
  }
}
