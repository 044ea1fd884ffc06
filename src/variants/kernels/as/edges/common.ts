// Pieces shared by A3's detector functions (../edges.ts, blur.ts, sobel.ts): the histogram the
// blurs count as they write, reflect-101 indices, and OpenCV's direction classes.

/** reflect-101 index (… 2 1 | 0 1 2 … n−1 | n−2 …) for any i, n ≥ 1 (reflected as often as needed). */
export function reflect101(i: i32, n: i32): i32 {
  if (n == 1) return 0;
  let j = i;
  while (j < 0 || j >= n) j = j < 0 ? -j : 2 * n - 2 - j;
  return j;
}

/** Add the `w` bytes at `out` to four partial histograms of 256 u32 at `parts` (in turn, so that equal neighbours do not wait on each other). */
// @ts-ignore: decorator
@inline
export function countRow(out: usize, w: i32, parts: usize): void {
  let x = 0;
  for (; x + 4 <= w; x += 4) {
    const q = out + <usize>x;
    const i0 = parts + ((<usize>load<u8>(q)) << 2);
    const i1 = parts + 1024 + ((<usize>load<u8>(q, 1)) << 2);
    const i2 = parts + 2048 + ((<usize>load<u8>(q, 2)) << 2);
    const i3 = parts + 3072 + ((<usize>load<u8>(q, 3)) << 2);
    store<u32>(i0, load<u32>(i0) + 1);
    store<u32>(i1, load<u32>(i1) + 1);
    store<u32>(i2, load<u32>(i2) + 1);
    store<u32>(i3, load<u32>(i3) + 1);
  }
  for (; x < w; x++) {
    const i0 = parts + ((<usize>load<u8>(out + <usize>x)) << 2);
    store<u32>(i0, load<u32>(i0) + 1);
  }
}

/** The histogram (256 u32 at `hist`) as the sum of the four partial ones at `parts`. */
export function mergeHistograms(parts: usize, hist: usize): void {
  for (let b: usize = 0; b < 1024; b += 16) {
    const s = i32x4.add(i32x4.add(v128.load(parts + b), v128.load(parts + 1024 + b)), i32x4.add(v128.load(parts + 2048 + b), v128.load(parts + 3072 + b)));
    v128.store(hist + b, s);
  }
}

const TG22: i32 = 13573; // tan(22.5°) · 2^15, as OpenCV rounds it

/**
 * OpenCV's direction classes of eight gradients (i16 lanes, |·| ≤ 2^15 − 1 and |gx|·79109 < 2^31):
 * 0 left/right (|gy|·2^15 < |gx|·13573), 1 above/below (|gy|·2^15 > |gx|·(13573 + 2^16)), else
 * 2 when gx and gy have opposite signs, 3 when not. Compared in i32 lanes.
 */
// @ts-ignore: decorator
@inline
export function directionClass(gx: v128, gy: v128, ax: v128, ay: v128): v128 {
  const tg = i32x4.splat(TG22);
  const axl = i32x4.extend_low_i16x8_s(ax);
  const axh = i32x4.extend_high_i16x8_s(ax);
  const ayl = i32x4.shl(i32x4.extend_low_i16x8_s(ay), 15);
  const ayh = i32x4.shl(i32x4.extend_high_i16x8_s(ay), 15);
  const tl = i32x4.mul(axl, tg);
  const th = i32x4.mul(axh, tg);
  const c0 = i16x8.narrow_i32x4_s(i32x4.lt_s(ayl, tl), i32x4.lt_s(ayh, th));
  const c1 = i16x8.narrow_i32x4_s(
    i32x4.gt_s(ayl, i32x4.add(tl, i32x4.shl(axl, 16))),
    i32x4.gt_s(ayh, i32x4.add(th, i32x4.shl(axh, 16))),
  );
  const diag = i16x8.add(i16x8.splat(3), i16x8.lt_s(v128.xor(gx, gy), i16x8.splat(0)));
  return v128.andnot(v128.bitselect(i16x8.splat(1), diag, c1), c0);
}

/** `directionClass` of one gradient. */
// @ts-ignore: decorator
@inline
export function directionClass1(gx: i32, gy: i32): u8 {
  const ax = gx < 0 ? -gx : gx;
  const ay = (gy < 0 ? -gy : gy) * 32768;
  const tg22x = ax * TG22;
  return <u8>(ay < tg22x ? 0 : ay > tg22x + ax * 65536 ? 1 : (gx ^ gy) < 0 ? 2 : 3);
}
