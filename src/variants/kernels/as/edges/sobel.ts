// A3's gradient with any of the apertures the recipe allows (3, 5, 7) and either magnitude (L1,
// L2), and the non-maximum suppression of L2 magnitudes: what OpenCV's Canny computes
// (src/variants/ops/canny.ts). ../edges.ts has the faster special case of the default detector
// (aperture 3, L1) and the suppression of L1 magnitudes.
import { directionClass, directionClass1 } from './common';

// Sobel's 1-D kernels per aperture (OpenCV's getDerivKernels): smoothing and derivative, the
// aperture-3 ones at 0, the 5 at 3, the 7 at 8 (i16 each).
const SMOOTH = memory.data<i16>([1, 2, 1, 1, 4, 6, 4, 1, 1, 6, 15, 20, 15, 6, 1]);
const DERIV = memory.data<i16>([-1, 0, 1, -1, -2, 0, 2, 1, -1, -4, -5, 0, 5, 4, 1]);

/**
 * Sobel dx and dy with an aperture of 3, 5 or 7 (replicated borders), then the magnitude —
 * |dx| + |dy| (u16) or, with `l2`, dx² + dy² (i32) — into `mag` ((w + 2) × (h + 2), zero border)
 * and the direction class into `dir` (w × h u8), as OpenCV's Canny: per row the column sums of
 * the smoothing and derivative kernels (|·| ≤ 64 · 255: exact in i16 lanes), padded by replication,
 * then the row sums of those in i32 lanes. With aperture 7 OpenCV scales by 1/16 in floats (exact
 * here: multiples of 1/16 below 2^20) and rounds half to even; the results fit in i16 (|·| ≤ 12240)
 * as OpenCV stores them. `scratch` needs 4 · (w + 7) + 4 · 7 + 32 bytes.
 */
export function gradientN(src: usize, mag: usize, dir: usize, w: i32, h: i32, aperture: i32, l2: bool, scratch: usize): void {
  const r = aperture >> 1;
  const table = <usize>(aperture == 3 ? 0 : aperture == 5 ? 6 : 16);
  const sm = SMOOTH + table;
  const dv = DERIV + table;
  const sb = scratch; // w + 2r i16: column sums of the smoothing kernel
  const db = (sb + ((<usize>(w + 2 * r)) << 1) + 15) & ~(<usize>15); // … of the derivative kernel
  const rows = (db + ((<usize>(w + 2 * r)) << 1) + 15) & ~(<usize>15); // aperture row addresses
  const cell = <usize>(l2 ? 4 : 2);
  const mw = <usize>(w + 2);
  memory.fill(mag, 0, mw * cell);
  memory.fill(mag + <usize>(h + 1) * mw * cell, 0, mw * cell);
  for (let y = 0; y < h; y++) {
    for (let j = 0; j < aperture; j++) store<u32>(rows + ((<usize>j) << 2), <u32>(src + <usize>(min(h - 1, max(0, y - r + j)) * w)));
    columnSums(sb + ((<usize>r) << 1), db + ((<usize>r) << 1), rows, sm, dv, aperture, w);
    for (let i = 1; i <= r; i++) {
      store<i16>(sb + ((<usize>(r - i)) << 1), load<i16>(sb + ((<usize>r) << 1)));
      store<i16>(db + ((<usize>(r - i)) << 1), load<i16>(db + ((<usize>r) << 1)));
      store<i16>(sb + ((<usize>(r + w - 1 + i)) << 1), load<i16>(sb + ((<usize>(r + w - 1)) << 1)));
      store<i16>(db + ((<usize>(r + w - 1 + i)) << 1), load<i16>(db + ((<usize>(r + w - 1)) << 1)));
    }
    const mo = mag + (<usize>(y + 1) * mw + 1) * cell;
    if (l2) {
      store<i32>(mo - 4, 0);
      store<i32>(mo + ((<usize>w) << 2), 0);
    } else {
      store<u16>(mo - 2, 0);
      store<u16>(mo + ((<usize>w) << 1), 0);
    }
    rowSums(mo, dir + <usize>(y * w), sb, db, sm, dv, aperture, w, l2);
  }
}

/** Column sums of the `n` rows at `rows` with the smoothing (`sm`) and derivative (`dv`) kernels. */
// @ts-ignore: decorator
@inline
function columnSums(sb: usize, db: usize, rows: usize, sm: usize, dv: usize, n: i32, w: i32): void {
  let x = 0;
  for (; x + 8 <= w; x += 8) {
    const o = <usize>x;
    let s = i16x8.splat(0);
    let d = i16x8.splat(0);
    for (let j = 0; j < n; j++) {
      const px = v128.load8x8_u(<usize>load<u32>(rows + ((<usize>j) << 2)) + o);
      s = i16x8.add(s, i16x8.mul(i16x8.splat(load<i16>(sm + ((<usize>j) << 1))), px));
      d = i16x8.add(d, i16x8.mul(i16x8.splat(load<i16>(dv + ((<usize>j) << 1))), px));
    }
    v128.store(sb + (o << 1), s);
    v128.store(db + (o << 1), d);
  }
  for (; x < w; x++) {
    const o = <usize>x;
    let s = 0;
    let d = 0;
    for (let j = 0; j < n; j++) {
      const px = <i32>load<u8>(<usize>load<u32>(rows + ((<usize>j) << 2)) + o);
      s += <i32>load<i16>(sm + ((<usize>j) << 1)) * px;
      d += <i32>load<i16>(dv + ((<usize>j) << 1)) * px;
    }
    store<i16>(sb + (o << 1), <i16>s);
    store<i16>(db + (o << 1), <i16>d);
  }
}

/** v / 16 rounded half to even, in i32 lanes (v + 8 floored by 16, one less on a tie that lands odd). */
// @ts-ignore: decorator
@inline
function sixteenth(v: v128): v128 {
  const q = i32x4.shr_s(i32x4.add(v, i32x4.splat(8)), 4);
  const tie = v128.and(i32x4.eq(v128.and(v, i32x4.splat(15)), i32x4.splat(8)), i32x4.eq(v128.and(q, i32x4.splat(1)), i32x4.splat(1)));
  return i32x4.add(q, tie);
}

/** `sixteenth` of one value. */
// @ts-ignore: decorator
@inline
function sixteenth1(v: i32): i32 {
  const q = (v + 8) >> 4;
  return (v & 15) == 8 && (q & 1) != 0 ? q - 1 : q;
}

/** dx, dy of one row from the padded column sums, then its magnitudes (at `mo`) and classes (at `dout`). */
// @ts-ignore: decorator
@inline
function rowSums(mo: usize, dout: usize, sb: usize, db: usize, sm: usize, dv: usize, n: i32, w: i32, l2: bool): void {
  let x = 0;
  for (; x + 8 <= w; x += 8) {
    const p = (<usize>x) << 1;
    let xl = i32x4.splat(0);
    let xh = i32x4.splat(0);
    let yl = i32x4.splat(0);
    let yh = i32x4.splat(0);
    for (let i = 0; i < n; i++) {
      const o = p + ((<usize>i) << 1);
      const kd = i16x8.splat(load<i16>(dv + ((<usize>i) << 1)));
      const ks = i16x8.splat(load<i16>(sm + ((<usize>i) << 1)));
      const s = v128.load(sb + o);
      const d = v128.load(db + o);
      xl = i32x4.add(xl, i32x4.extmul_low_i16x8_s(s, kd));
      xh = i32x4.add(xh, i32x4.extmul_high_i16x8_s(s, kd));
      yl = i32x4.add(yl, i32x4.extmul_low_i16x8_s(d, ks));
      yh = i32x4.add(yh, i32x4.extmul_high_i16x8_s(d, ks));
    }
    if (n == 7) {
      xl = sixteenth(xl);
      xh = sixteenth(xh);
      yl = sixteenth(yl);
      yh = sixteenth(yh);
    }
    const gx = i16x8.narrow_i32x4_s(xl, xh);
    const gy = i16x8.narrow_i32x4_s(yl, yh);
    const ax = i16x8.abs(gx);
    const ay = i16x8.abs(gy);
    if (l2) {
      const q = mo + ((<usize>x) << 2);
      v128.store(q, i32x4.add(i32x4.extmul_low_i16x8_s(gx, gx), i32x4.extmul_low_i16x8_s(gy, gy)));
      v128.store(q, i32x4.add(i32x4.extmul_high_i16x8_s(gx, gx), i32x4.extmul_high_i16x8_s(gy, gy)), 16);
    } else v128.store(mo + p, i16x8.add(ax, ay));
    const cls = directionClass(gx, gy, ax, ay);
    v128.store64_lane(dout + <usize>x, i8x16.narrow_i16x8_u(cls, cls), 0);
  }
  for (; x < w; x++) {
    let gx = 0;
    let gy = 0;
    for (let i = 0; i < n; i++) {
      const o = (<usize>(x + i)) << 1;
      gx += <i32>load<i16>(dv + ((<usize>i) << 1)) * <i32>load<i16>(sb + o);
      gy += <i32>load<i16>(sm + ((<usize>i) << 1)) * <i32>load<i16>(db + o);
    }
    if (n == 7) {
      gx = sixteenth1(gx);
      gy = sixteenth1(gy);
    }
    gx = min(32767, max(-32768, gx));
    gy = min(32767, max(-32768, gy));
    if (l2) store<i32>(mo + ((<usize>x) << 2), gx * gx + gy * gy);
    else store<u16>(mo + ((<usize>x) << 1), <u16>((gx < 0 ? -gx : gx) + (gy < 0 ? -gy : gy)));
    store<u8>(dout + <usize>x, directionClass1(gx, gy));
  }
}

/**
 * `suppress` (../edges.ts) for L2 magnitudes (i32 cells): `map` gets 0, 1 (candidate) or 2
 * (candidate above high); returns the number of candidates. `low` and `high` are OpenCV's
 * thresholds for L2 (squared, then floored).
 */
export function suppress32(mag: usize, dir: usize, map: usize, w: i32, h: i32, low: i32, high: i32): i32 {
  const mw = w + 2;
  const rowBytes = (<usize>mw) << 2;
  memory.fill(map, 0, <usize>mw);
  memory.fill(map + <usize>((h + 1) * mw), 0, <usize>mw);
  const lo = i32x4.splat(low);
  const hi = i32x4.splat(high);
  const one = i32x4.splat(1);
  let found = 0;
  for (let y = 0; y < h; y++) {
    const row = (y + 1) * mw + 1;
    const drow = dir + <usize>(y * w);
    store<u8>(map + <usize>(row - 1), 0);
    store<u8>(map + <usize>(row + w), 0);
    let x = 0;
    for (; x + 4 <= w; x += 4) {
      const p = mag + ((<usize>(row + x)) << 2);
      const m = v128.load(p);
      const cand0 = i32x4.gt_s(m, lo);
      if (!v128.any_true(cand0)) {
        store<u32>(map + <usize>(row + x), 0);
        continue;
      }
      const up = p - rowBytes;
      const dn = p + rowBytes;
      const c0 = v128.and(i32x4.gt_s(m, v128.load(p - 4)), i32x4.ge_s(m, v128.load(p, 4)));
      const c1 = v128.and(i32x4.gt_s(m, v128.load(up)), i32x4.ge_s(m, v128.load(dn)));
      const c2 = v128.and(i32x4.gt_s(m, v128.load(up, 4)), i32x4.gt_s(m, v128.load(dn - 4)));
      const c3 = v128.and(i32x4.gt_s(m, v128.load(up - 4)), i32x4.gt_s(m, v128.load(dn, 4)));
      const d = i32x4.extend_low_i16x8_u(i16x8.extend_low_i8x16_u(v128.load32_zero(drow + <usize>x)));
      const sel = v128.or(
        v128.or(v128.and(c0, i32x4.eq(d, i32x4.splat(0))), v128.and(c1, i32x4.eq(d, i32x4.splat(1)))),
        v128.or(v128.and(c2, i32x4.eq(d, i32x4.splat(2))), v128.and(c3, i32x4.eq(d, i32x4.splat(3)))),
      );
      const cand = v128.and(sel, cand0);
      const strong = v128.and(cand, i32x4.gt_s(m, hi));
      const val = i32x4.add(v128.and(cand, one), v128.and(strong, one));
      const b = i16x8.narrow_i32x4_u(val, val);
      v128.store32_lane(map + <usize>(row + x), i8x16.narrow_i16x8_u(b, b), 0);
      found += popcnt(i32x4.bitmask(cand));
    }
    for (; x < w; x++) found += suppressOne(mag, drow, map, row, x, rowBytes, low, high);
  }
  return found;
}

/** The scalar `suppress32` of the pixel x of a row; 1 when it is a candidate. */
// @ts-ignore: decorator
@inline
function suppressOne(mag: usize, drow: usize, map: usize, row: i32, x: i32, rowBytes: usize, low: i32, high: i32): i32 {
  const j = row + x;
  const pj = mag + ((<usize>j) << 2);
  const m = load<i32>(pj);
  store<u8>(map + <usize>j, 0);
  if (m <= low) return 0;
  const cls = <i32>load<u8>(drow + <usize>x);
  const a = load<i32>(cls == 0 ? pj - 4 : cls == 1 ? pj - rowBytes : cls == 2 ? pj - rowBytes + 4 : pj - rowBytes - 4);
  const b = load<i32>(cls == 0 ? pj + 4 : cls == 1 ? pj + rowBytes : cls == 2 ? pj + rowBytes - 4 : pj + rowBytes + 4);
  if (!(m > a && (cls < 2 ? m >= b : m > b))) return 0;
  store<u8>(map + <usize>j, m > high ? 2 : 1);
  return 1;
}
