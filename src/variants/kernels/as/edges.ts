// A3's detector (src/variants/ops/canny.ts): the 5 × 5 Gaussian in OpenCV's 8-bit fixed point,
// Sobel with the L1 magnitude and OpenCV's direction classes, non-maximum suppression and
// hysteresis. All integer arithmetic, lane by lane the TypeScript's (the ranges are noted where a
// lane is narrower than JavaScript's 32-bit integers), so the bytes are the same.

import { countRow, directionClass, directionClass1, mergeHistograms, reflect101 } from './edges/common';

export { blurN } from './edges/blur';
export { gradientN, suppress32 } from './edges/sobel';

/** First free byte of the memory: the caller lays its buffers out from here. */
export function base(): usize {
  return __heap_base;
}

/** This module's interface version (kernels/load.ts `ABI`): raised when an export's signature or meaning changes. */
export function abi(): i32 {
  return 1;
}

/**
 * GaussianBlur 5 × 5, σ 1.4, 8-bit, reflect-101: per output row the vertical sums
 * 28·(r−2 + r+2) + 61·(r−1 + r+1) + 78·r (≤ 256 · 255 < 2^16: exact in u16 lanes, though i16
 * arithmetic wraps) into `v` (w + 4 u16, padded), then the horizontal sums of those,
 * `(acc + 2^15) >> 16` (acc ≤ 256² · 255), in 16-bit lanes (`horizontal8`). `hist` (256 u32)
 * gets the histogram of the output; `scratch` needs 2 · (w + 4) + 32 + 4096 bytes.
 */
export function blur5(src: usize, dst: usize, w: i32, h: i32, hist: usize, scratch: usize): void {
  const v = scratch;
  const parts = (scratch + ((<usize>(w + 4)) << 1) + 31) & ~(<usize>15); // 4 histograms of 256 u32
  memory.fill(parts, 0, 4096);
  const k0 = i16x8.splat(28);
  const k1 = i16x8.splat(61);
  const k2 = i16x8.splat(78);
  const l0 = <usize>(reflect101(-2, w) + 2);
  const l1 = <usize>(reflect101(-1, w) + 2);
  const r0 = <usize>(reflect101(w, w) + 2);
  const r1 = <usize>(reflect101(w + 1, w) + 2);
  for (let y = 0; y < h; y++) {
    const m2 = src + <usize>(reflect101(y - 2, h) * w);
    const m1 = src + <usize>(reflect101(y - 1, h) * w);
    const c = src + <usize>(y * w);
    const p1 = src + <usize>(reflect101(y + 1, h) * w);
    const p2 = src + <usize>(reflect101(y + 2, h) * w);
    let x = 0;
    for (; x + 8 <= w; x += 8) {
      const o = <usize>x;
      const a = i16x8.add(v128.load8x8_u(m2 + o), v128.load8x8_u(p2 + o));
      const b = i16x8.add(v128.load8x8_u(m1 + o), v128.load8x8_u(p1 + o));
      const s = i16x8.add(i16x8.add(i16x8.mul(k0, a), i16x8.mul(k1, b)), i16x8.mul(k2, v128.load8x8_u(c + o)));
      v128.store(v + ((<usize>(x + 2)) << 1), s);
    }
    for (; x < w; x++) {
      const o = <usize>x;
      const s = 28 * (<i32>load<u8>(m2 + o) + <i32>load<u8>(p2 + o)) + 61 * (<i32>load<u8>(m1 + o) + <i32>load<u8>(p1 + o)) + 78 * <i32>load<u8>(c + o);
      store<u16>(v + ((<usize>(x + 2)) << 1), <u16>s);
    }
    store<u16>(v, load<u16>(v + (l0 << 1)));
    store<u16>(v + 2, load<u16>(v + (l1 << 1)));
    store<u16>(v + ((<usize>(w + 2)) << 1), load<u16>(v + (r0 << 1)));
    store<u16>(v + ((<usize>(w + 3)) << 1), load<u16>(v + (r1 << 1)));
    const out = dst + <usize>(y * w);
    x = 0;
    for (; x + 16 <= w; x += 16) {
      const p = v + ((<usize>x) << 1);
      const lo = horizontal8(p);
      const hi = horizontal8(p + 16);
      v128.store(out + <usize>x, i8x16.narrow_i16x8_u(lo, hi));
    }
    for (; x < w; x++) {
      const p = v + ((<usize>x) << 1);
      const acc = 28 * (<i32>load<u16>(p) + <i32>load<u16>(p, 8)) + 61 * (<i32>load<u16>(p, 2) + <i32>load<u16>(p, 6)) + 78 * <i32>load<u16>(p, 4);
      store<u8>(out + <usize>x, <u8>((acc + 32768) >> 16));
    }
    countRow(out, w, parts);
  }
  mergeHistograms(parts, hist);
}

/**
 * Eight outputs of the horizontal pass from the padded vertical sums at `p` (u16 lanes), as i16
 * lanes ≤ 255, in 16-bit arithmetic: with v = 256·vh + vl (vh, vl ≤ 255), H = Σ k·vh and
 * L = Σ k·vl are ≤ 256 · 255 each, and (256·H + L + 2^15) >> 16 = (H + (L >> 8) + 128) >> 8, whose
 * sum stays ≤ Σ k·v / 256 + 128 ≤ 65408 (an integer plus a fraction below 1, floored by 256, is
 * the integer floored by 256).
 */
// @ts-ignore: decorator
@inline
function horizontal8(p: usize): v128 {
  const k0 = i16x8.splat(28);
  const k1 = i16x8.splat(61);
  const k2 = i16x8.splat(78);
  const low = i16x8.splat(255);
  const a = v128.load(p);
  const b = v128.load(p, 2);
  const c = v128.load(p, 4);
  const d = v128.load(p, 6);
  const e = v128.load(p, 8);
  const hi = i16x8.add(
    i16x8.add(i16x8.mul(k0, i16x8.add(i16x8.shr_u(a, 8), i16x8.shr_u(e, 8))), i16x8.mul(k1, i16x8.add(i16x8.shr_u(b, 8), i16x8.shr_u(d, 8)))),
    i16x8.mul(k2, i16x8.shr_u(c, 8)),
  );
  const lo = i16x8.add(
    i16x8.add(i16x8.mul(k0, i16x8.add(v128.and(a, low), v128.and(e, low))), i16x8.mul(k1, i16x8.add(v128.and(b, low), v128.and(d, low)))),
    i16x8.mul(k2, v128.and(c, low)),
  );
  return i16x8.shr_u(i16x8.add(i16x8.add(hi, i16x8.shr_u(lo, 8)), i16x8.splat(128)), 8);
}

/**
 * Sobel 3 × 3 with replicated borders: `mag` ((w + 2) × (h + 2) u16, zero border) gets |dx| + |dy|
 * (≤ 2040), `dir` (w × h u8) the direction class (0 left/right, 1 above/below, 2 and 3 the
 * diagonals). Per row, each column's s = above + 2·here + below and d = below − above (|·| ≤ 1020)
 * go to padded rows of i16; gx = s[x+1] − s[x−1], gy = d[x−1] + 2·d[x] + d[x+1] (|·| ≤ 1020), and
 * the class compares |dy|·2^15 with |dx|·13573 in i32 lanes (≤ 2^26). `scratch`: 4 · (w + 2) + 32 bytes.
 */
export function gradient(src: usize, mag: usize, dir: usize, w: i32, h: i32, scratch: usize): void {
  const mw = w + 2;
  const sb = scratch;
  const db = (scratch + ((<usize>mw) << 1) + 15) & ~(<usize>15);
  // The zero border (the rows below write every inner cell).
  memory.fill(mag, 0, (<usize>mw) << 1);
  memory.fill(mag + ((<usize>((h + 1) * mw)) << 1), 0, (<usize>mw) << 1);
  for (let y = 0; y < h; y++) {
    const up = src + <usize>(max(0, y - 1) * w);
    const mid = src + <usize>(y * w);
    const dn = src + <usize>(min(h - 1, y + 1) * w);
    let x = 0;
    for (; x + 8 <= w; x += 8) {
      const o = <usize>x;
      const u = v128.load8x8_u(up + o);
      const d = v128.load8x8_u(dn + o);
      const m = v128.load8x8_u(mid + o);
      v128.store(sb + ((o + 1) << 1), i16x8.add(i16x8.add(u, d), i16x8.shl(m, 1)));
      v128.store(db + ((o + 1) << 1), i16x8.sub(d, u));
    }
    for (; x < w; x++) {
      const o = <usize>x;
      const u = <i32>load<u8>(up + o);
      const d = <i32>load<u8>(dn + o);
      const m = <i32>load<u8>(mid + o);
      store<i16>(sb + ((o + 1) << 1), <i16>(u + 2 * m + d));
      store<i16>(db + ((o + 1) << 1), <i16>(d - u));
    }
    store<i16>(sb, load<i16>(sb, 2));
    store<i16>(db, load<i16>(db, 2));
    store<i16>(sb + ((<usize>(w + 1)) << 1), load<i16>(sb + ((<usize>w) << 1)));
    store<i16>(db + ((<usize>(w + 1)) << 1), load<i16>(db + ((<usize>w) << 1)));
    const mo = mag + ((<usize>((y + 1) * mw + 1)) << 1);
    store<u16>(mo - 2, 0);
    store<u16>(mo + ((<usize>w) << 1), 0);
    const dout = dir + <usize>(y * w);
    x = 0;
    for (; x + 8 <= w; x += 8) {
      const o = (<usize>x) << 1;
      const gx = i16x8.sub(v128.load(sb + o, 4), v128.load(sb + o));
      const gy = i16x8.add(i16x8.add(v128.load(db + o), v128.load(db + o, 4)), i16x8.shl(v128.load(db + o, 2), 1));
      const ax = i16x8.abs(gx);
      const ayv = i16x8.abs(gy);
      v128.store(mo + o, i16x8.add(ax, ayv));
      const cls = directionClass(gx, gy, ax, ayv);
      v128.store64_lane(dout + <usize>x, i8x16.narrow_i16x8_u(cls, cls), 0);
    }
    for (; x < w; x++) {
      const o = (<usize>x) << 1;
      const gx = <i32>load<i16>(sb + o, 4) - <i32>load<i16>(sb + o);
      const gy = <i32>load<i16>(db + o) + 2 * <i32>load<i16>(db + o, 2) + <i32>load<i16>(db + o, 4);
      const ax = gx < 0 ? -gx : gx;
      const ayv = gy < 0 ? -gy : gy;
      store<u16>(mo + o, <u16>(ax + ayv));
      store<u8>(dout + <usize>x, directionClass1(gx, gy));
    }
  }
}

/**
 * Non-maximum suppression: `map` ((w + 2) × (h + 2) u8) gets 0 (not an edge, and the border),
 * 1 (candidate: m > low, a local maximum across its direction) or 2 (a candidate above high).
 * Left/right and above/below: m > before and
 * m ≥ after; diagonals: m > both. `low` and `high` are the floored thresholds clamped to
 * [−1, 2041] (the same comparisons with magnitudes ≤ 2040). Returns the number of candidates
 * (1s and 2s), which bounds the hysteresis' stack.
 */
export function suppress(mag: usize, dir: usize, map: usize, w: i32, h: i32, low: i32, high: i32): i32 {
  const mw = w + 2;
  const rowBytes = (<usize>mw) << 1;
  // The zero border (the rows below write every inner cell).
  memory.fill(map, 0, <usize>mw);
  memory.fill(map + <usize>((h + 1) * mw), 0, <usize>mw);
  const lo = i16x8.splat(<i16>low);
  const hi = i16x8.splat(<i16>high);
  const one = i16x8.splat(1);
  const v0 = i16x8.splat(0);
  const v1 = i16x8.splat(1);
  const v2 = i16x8.splat(2);
  const v3 = i16x8.splat(3);
  let found = 0;
  for (let y = 0; y < h; y++) {
    const row = (y + 1) * mw + 1;
    const drow = dir + <usize>(y * w);
    store<u8>(map + <usize>(row - 1), 0);
    store<u8>(map + <usize>(row + w), 0);
    let x = 0;
    for (; x + 8 <= w; x += 8) {
      const p = mag + ((<usize>(row + x)) << 1);
      const m = v128.load(p);
      const cand0 = i16x8.gt_s(m, lo);
      if (!v128.any_true(cand0)) {
        store<u64>(map + <usize>(row + x), 0);
        continue;
      }
      const up = p - rowBytes;
      const dn = p + rowBytes;
      const c0 = v128.and(i16x8.gt_s(m, v128.load(p - 2)), i16x8.ge_s(m, v128.load(p, 2)));
      const c1 = v128.and(i16x8.gt_s(m, v128.load(up)), i16x8.ge_s(m, v128.load(dn)));
      const c2 = v128.and(i16x8.gt_s(m, v128.load(up, 2)), i16x8.gt_s(m, v128.load(dn - 2)));
      const c3 = v128.and(i16x8.gt_s(m, v128.load(up - 2)), i16x8.gt_s(m, v128.load(dn, 2)));
      const d = v128.load8x8_u(drow + <usize>x);
      const sel = v128.or(
        v128.or(v128.and(c0, i16x8.eq(d, v0)), v128.and(c1, i16x8.eq(d, v1))),
        v128.or(v128.and(c2, i16x8.eq(d, v2)), v128.and(c3, i16x8.eq(d, v3))),
      );
      const cand = v128.and(sel, cand0);
      const strong = v128.and(cand, i16x8.gt_s(m, hi));
      const val = i16x8.add(v128.and(cand, one), v128.and(strong, one));
      v128.store64_lane(map + <usize>(row + x), i8x16.narrow_i16x8_u(val, val), 0);
      found += popcnt(i16x8.bitmask(cand));
    }
    for (; x < w; x++) {
      const j = row + x;
      const pj = mag + ((<usize>j) << 1);
      const m = <i32>load<u16>(pj);
      store<u8>(map + <usize>j, 0);
      if (m <= low) continue;
      const cls = <i32>load<u8>(drow + <usize>x);
      let a: i32;
      let b: i32;
      if (cls == 0) {
        a = <i32>load<u16>(pj - 2);
        b = <i32>load<u16>(pj + 2);
      } else if (cls == 1) {
        a = <i32>load<u16>(pj - rowBytes);
        b = <i32>load<u16>(pj + rowBytes);
      } else if (cls == 2) {
        a = <i32>load<u16>(pj - rowBytes + 2);
        b = <i32>load<u16>(pj + rowBytes - 2);
      } else {
        a = <i32>load<u16>(pj - rowBytes - 2);
        b = <i32>load<u16>(pj + rowBytes + 2);
      }
      if (!(m > a && (cls < 2 ? m >= b : m > b))) continue;
      found++;
      store<u8>(map + <usize>j, m > high ? 2 : 1);
    }
  }
  return found;
}

/**
 * Hysteresis after `suppress`: every candidate 8-connected to a 2 becomes 2 (a stack-based flood
 * from the 2s, found row by row). Each candidate is pushed at most once, so `stack` needs room for
 * as many i32 as `suppress` found candidates. Returns the number of edges (2s).
 */
export function hysteresis(map: usize, w: i32, h: i32, stack: usize): i32 {
  const mw = <usize>(w + 2);
  const two = i8x16.splat(2);
  let top: usize = 0;
  const cells = <usize>((w + 2) * (h + 2));
  let j: usize = 0;
  for (; j + 16 <= cells; j += 16) {
    let bits = i8x16.bitmask(i8x16.eq(v128.load(map + j), two));
    while (bits != 0) {
      store<i32>(stack + (top << 2), <i32>(j + <usize>ctz(bits)));
      top++;
      bits &= bits - 1;
    }
  }
  for (; j < cells; j++) {
    if (load<u8>(map + j) == 2) {
      store<i32>(stack + (top << 2), <i32>j);
      top++;
    }
  }
  let count = 0;
  while (top > 0) {
    top--;
    const j = <usize>load<i32>(stack + (top << 2));
    count++;
    const p = map + j;
    // The eight neighbours, in the order of the TypeScript (the result does not depend on it).
    if (load<u8>(p - mw - 1) == 1) { store<u8>(p - mw - 1, 2); store<i32>(stack + (top << 2), <i32>(j - mw - 1)); top++; }
    if (load<u8>(p - mw) == 1) { store<u8>(p - mw, 2); store<i32>(stack + (top << 2), <i32>(j - mw)); top++; }
    if (load<u8>(p - mw + 1) == 1) { store<u8>(p - mw + 1, 2); store<i32>(stack + (top << 2), <i32>(j - mw + 1)); top++; }
    if (load<u8>(p - 1) == 1) { store<u8>(p - 1, 2); store<i32>(stack + (top << 2), <i32>(j - 1)); top++; }
    if (load<u8>(p + 1) == 1) { store<u8>(p + 1, 2); store<i32>(stack + (top << 2), <i32>(j + 1)); top++; }
    if (load<u8>(p + mw - 1) == 1) { store<u8>(p + mw - 1, 2); store<i32>(stack + (top << 2), <i32>(j + mw - 1)); top++; }
    if (load<u8>(p + mw) == 1) { store<u8>(p + mw, 2); store<i32>(stack + (top << 2), <i32>(j + mw)); top++; }
    if (load<u8>(p + mw + 1) == 1) { store<u8>(p + mw + 1, 2); store<i32>(stack + (top << 2), <i32>(j + mw + 1)); top++; }
  }
  return count;
}

/** The edges of a hysteresis map as cv.Canny returns them: 255 where the map holds 2, else 0 (w × h). */
export function edgeImage(map: usize, out: usize, w: i32, h: i32): void {
  const mw = w + 2;
  const two = i8x16.splat(2);
  for (let y = 0; y < h; y++) {
    const row = map + <usize>((y + 1) * mw + 1);
    const o = out + <usize>(y * w);
    let x = 0;
    for (; x + 16 <= w; x += 16) v128.store(o + <usize>x, i8x16.eq(v128.load(row + <usize>x), two));
    for (; x < w; x++) store<u8>(o + <usize>x, load<u8>(row + <usize>x) == 2 ? 255 : 0);
  }
}

/** The number of the `n` bytes at `p` equal to `value` (0 … 255). */
export function countEqual(p: usize, n: i32, value: i32): i32 {
  const v = i8x16.splat(<i8>value);
  let total = i32x4.splat(0);
  let i: usize = 0;
  const end = <usize>n;
  while (i + 16 <= end) {
    // Up to 255 blocks into u8 lanes (each lane counts at most one per block), then widened.
    let acc = i8x16.splat(0);
    let blocks = 0;
    for (; blocks < 255 && i + 16 <= end; blocks++, i += 16) acc = i8x16.sub(acc, i8x16.eq(v128.load(p + i), v));
    total = i32x4.add(total, i32x4.extadd_pairwise_i16x8_u(i16x8.extadd_pairwise_i8x16_u(acc)));
  }
  let count = i32x4.extract_lane(total, 0) + i32x4.extract_lane(total, 1) + i32x4.extract_lane(total, 2) + i32x4.extract_lane(total, 3);
  for (; i < end; i++) if (<i32>load<u8>(p + i) == value) count++;
  return count;
}

/** Replace each of the `n` bytes at `p` by its complement, 255 − v (an edge map ↔ A3's black edges on white). */
export function complement(p: usize, n: i32): void {
  let i: usize = 0;
  const end = <usize>n;
  for (; i + 16 <= end; i += 16) v128.store(p + i, v128.not(v128.load(p + i)));
  for (; i < end; i++) store<u8>(p + i, ~load<u8>(p + i));
}
