// SSIM's windows (src/variants/metrics/ssim.ts, `ssimJs`): the 7-row column sums (of x and x² for
// the reference's window sums, computed once; of y, y² and xy for each comparison) slide down in
// i32x4 lanes (Σy in i16x8: at most 7·255, and 49·255 for a window), 16 columns a step from the
// bytes widened to i16x8 (a − b and a + b of two bytes fit i16; a² − b² = (a − b)(a + b)); each
// window's 7-wide sums are added from them in i32x4 (i16x8) lanes, and its ratio is computed in
// f64x2 lanes. Every sum and every integer factor of the ratio is an exact integer of magnitude at
// most 2·(49·255)² < 2^29, so it is the same integer as the JavaScript's whatever the order of the
// additions, and i32 never wraps; the floating-point part, (A + c1)(B + c2) / ((C + c1)(D + c2)),
// is the JavaScript's operations in its order. The ratios are added to the sum one by one in the
// JavaScript's order (inside the loop, where the additions' latency overlaps the next windows'
// work): the same bits.

/** First free byte of the memory: the caller lays its buffers out from here. */
export function base(): usize {
  return __heap_base;
}

/** This module's interface version (kernels/load.ts `ABI`): raised when an export's signature or meaning changes. */
export function abi(): i32 {
  return 1;
}

/** Whether each of the n bytes at p is 0 or 255. */
export function twoTone(p: usize, n: i32): i32 {
  const end = p + <usize>n;
  const zero = i8x16.splat(0);
  const full = i8x16.splat(-1);
  let q = p;
  for (; q + 64 <= end; q += 64) {
    const a = v128.load(q);
    const b = v128.load(q + 16);
    const c = v128.load(q + 32);
    const d = v128.load(q + 48);
    const ok = v128.and(
      v128.and(v128.or(i8x16.eq(a, zero), i8x16.eq(a, full)), v128.or(i8x16.eq(b, zero), i8x16.eq(b, full))),
      v128.and(v128.or(i8x16.eq(c, zero), i8x16.eq(c, full)), v128.or(i8x16.eq(d, zero), i8x16.eq(d, full))),
    );
    if (!i8x16.all_true(ok)) return 0;
  }
  for (; q < end; q++) {
    const v = load<u8>(q);
    if (v != 0 && v != 255) return 0;
  }
  return 1;
}

/** Sum of 7 consecutive i32x4 (columns c … c + 9 for windows c … c + 3). */
// @ts-ignore: decorator
@inline function win7(p: usize): v128 {
  return i32x4.add(
    i32x4.add(i32x4.add(v128.load(p), v128.load(p + 4)), i32x4.add(v128.load(p + 8), v128.load(p + 12))),
    i32x4.add(i32x4.add(v128.load(p + 16), v128.load(p + 20)), v128.load(p + 24)),
  );
}

// @ts-ignore: decorator
@inline function addTo(p: usize, v: v128): void {
  v128.store(p, i32x4.add(v128.load(p), v));
}

/** Rotate the two 64-bit halves (lanes 2, 3 of an i32x4 to lanes 0, 1). */
// @ts-ignore: decorator
@inline function high(v: v128): v128 {
  return i8x16.shuffle(v, v, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
}

/**
 * Column sums of x and x² over the rows: add row `inX`, remove row `outX` (an all-zero row when
 * filling). 16 columns a step up to the width rounded up (the bytes read past a row's end only
 * reach columns no window uses); `cwb` bytes per array.
 */
// @ts-ignore: decorator
@inline function slideX(inX: usize, outX: usize, width: i32, cols: usize, cwb: usize): void {
  const cx = cols;
  const cxx = cols + cwb;
  for (let c: usize = 0; c < <usize>width; c += 16) {
    const pi = v128.load(inX + c);
    const po = v128.load(outX + c);
    const o = c << 2;
    let a = i16x8.extend_low_i8x16_u(pi);
    let b = i16x8.extend_low_i8x16_u(po);
    let d = i16x8.sub(a, b);
    let s = i16x8.add(a, b);
    addTo(cx + o, i32x4.extend_low_i16x8_s(d));
    addTo(cx + o + 16, i32x4.extend_high_i16x8_s(d));
    addTo(cxx + o, i32x4.extmul_low_i16x8_s(d, s)); // a² − b² = (a − b)(a + b)
    addTo(cxx + o + 16, i32x4.extmul_high_i16x8_s(d, s));
    a = i16x8.extend_high_i8x16_u(pi);
    b = i16x8.extend_high_i8x16_u(po);
    d = i16x8.sub(a, b);
    s = i16x8.add(a, b);
    addTo(cx + o + 32, i32x4.extend_low_i16x8_s(d));
    addTo(cx + o + 48, i32x4.extend_high_i16x8_s(d));
    addTo(cxx + o + 32, i32x4.extmul_low_i16x8_s(d, s));
    addTo(cxx + o + 48, i32x4.extmul_high_i16x8_s(d, s));
  }
}

/**
 * The reference's window sums, as `referenceSums` of ssim.ts: per interior window (row-major,
 * iw × ih, 3 i32 of slack after each array) Σx at `rx` and 49·Σx² − (Σx)² at `rxx`. `zero`: width
 * rounded up to 16 zero bytes; `cols`: 2 arrays of `cw` i32 (cw ≥ width rounded up to 16, + 16).
 */
export function referenceSums(x: usize, width: i32, height: i32, zero: usize, cols: usize, cw: i32, rx: usize, rxx: usize): void {
  const w = <usize>width;
  const cwb = (<usize>cw) << 2;
  const iw = width - 6;
  const ih = height - 6;
  const cx = cols;
  const cxx = cols + cwb;
  memory.fill(cols, 0, 2 * cwb);
  for (let r: usize = 0; r < 7; r++) slideX(x + r * w, zero, width, cols, cwb);
  const v49 = i32x4.splat(49);
  for (let yy = 0; yy < ih; yy++) {
    if (yy > 0) slideX(x + (<usize>(yy + 6)) * w, x + (<usize>(yy - 1)) * w, width, cols, cwb);
    const out = (<usize>(yy * iw)) << 2;
    // Whole groups of 4 (the last may spill up to 3 values into the next row, rewritten next).
    for (let xx = 0; xx < iw; xx += 4) {
      const o = (<usize>xx) << 2;
      const X = win7(cx + o);
      v128.store(rx + out + o, X);
      v128.store(rxx + out + o, i32x4.sub(i32x4.mul(v49, win7(cxx + o)), i32x4.mul(X, X)));
    }
  }
}

/**
 * Column sums of y (i16), y² (unless `squaresY` is false) and xy (i32) over the rows: add rows
 * `inX`/`inY`, remove rows `outX`/`outY` (all-zero rows when filling); as `slideX`.
 */
// @ts-ignore: decorator
@inline function slideY(inX: usize, inY: usize, outX: usize, outY: usize, width: i32, cols: usize, cwb: usize, squaresY: bool): void {
  const cy = cols;
  const cxy = cols + cwb;
  const cyy = cols + 2 * cwb;
  for (let c: usize = 0; c < <usize>width; c += 16) {
    const pi = v128.load(inX + c);
    const qi = v128.load(inY + c);
    const po = v128.load(outX + c);
    const qo = v128.load(outY + c);
    const o = c << 2;
    // Columns c … c + 7.
    let a = i16x8.extend_low_i8x16_u(pi);
    let b = i16x8.extend_low_i8x16_u(po);
    let u = i16x8.extend_low_i8x16_u(qi);
    let v = i16x8.extend_low_i8x16_u(qo);
    let d = i16x8.sub(u, v);
    v128.store(cy + (c << 1), i16x8.add(v128.load(cy + (c << 1)), d));
    if (squaresY) {
      const s = i16x8.add(u, v);
      addTo(cyy + o, i32x4.extmul_low_i16x8_s(d, s));
      addTo(cyy + o + 16, i32x4.extmul_high_i16x8_s(d, s));
    }
    addTo(cxy + o, i32x4.sub(i32x4.extmul_low_i16x8_u(a, u), i32x4.extmul_low_i16x8_u(b, v)));
    addTo(cxy + o + 16, i32x4.sub(i32x4.extmul_high_i16x8_u(a, u), i32x4.extmul_high_i16x8_u(b, v)));
    // Columns c + 8 … c + 15.
    a = i16x8.extend_high_i8x16_u(pi);
    b = i16x8.extend_high_i8x16_u(po);
    u = i16x8.extend_high_i8x16_u(qi);
    v = i16x8.extend_high_i8x16_u(qo);
    d = i16x8.sub(u, v);
    v128.store(cy + (c << 1) + 16, i16x8.add(v128.load(cy + (c << 1) + 16), d));
    if (squaresY) {
      const s = i16x8.add(u, v);
      addTo(cyy + o + 32, i32x4.extmul_low_i16x8_s(d, s));
      addTo(cyy + o + 48, i32x4.extmul_high_i16x8_s(d, s));
    }
    addTo(cxy + o + 32, i32x4.sub(i32x4.extmul_low_i16x8_u(a, u), i32x4.extmul_low_i16x8_u(b, v)));
    addTo(cxy + o + 48, i32x4.sub(i32x4.extmul_high_i16x8_u(a, u), i32x4.extmul_high_i16x8_u(b, v)));
  }
}

/** The SSIM ratios (A + c1)(B + c2) / ((C + c1)(D + c2)) of the low two i32 lanes. */
// @ts-ignore: decorator
@inline function ratio(A: v128, B: v128, C: v128, D: v128, k1: v128, k2: v128): v128 {
  return f64x2.div(
    f64x2.mul(f64x2.add(f64x2.convert_low_i32x4_s(A), k1), f64x2.add(f64x2.convert_low_i32x4_s(B), k2)),
    f64x2.mul(f64x2.add(f64x2.convert_low_i32x4_s(C), k1), f64x2.add(f64x2.convert_low_i32x4_s(D), k2)),
  );
}

/** Sum of 7 consecutive i16x8 (columns c … c + 13 for windows c … c + 7). */
// @ts-ignore: decorator
@inline function win7h(p: usize): v128 {
  return i16x8.add(
    i16x8.add(i16x8.add(v128.load(p), v128.load(p + 2)), i16x8.add(v128.load(p + 4), v128.load(p + 6))),
    i16x8.add(i16x8.add(v128.load(p + 8), v128.load(p + 10)), v128.load(p + 12)),
  );
}

/** `sum` plus the ratios of windows xx … xx + 3 of a row (those below iw), in order; Y their Σy. */
// @ts-ignore: decorator
@inline function group(sum: f64, xx: i32, iw: i32, rx: usize, rxx: usize, cxy: usize, cyy: usize, Y: v128, row: usize, squaresY: bool, v49: v128, v12495: v128, k1: v128, k2: v128): f64 {
  const o = (<usize>xx) << 2;
  const X = v128.load(rx + o);
  const XYs = win7(cxy + o);
  const nYY = squaresY ? i32x4.mul(v49, win7(cyy + o)) : i32x4.mul(v12495, Y);
  const XY = i32x4.mul(X, Y);
  const Y2 = i32x4.mul(Y, Y);
  const A = i32x4.add(XY, XY); // 2XY
  const Bh = i32x4.sub(i32x4.mul(v49, XYs), XY);
  const B = i32x4.add(Bh, Bh); // 2(N·XY − X·Y)
  const C = i32x4.add(i32x4.mul(X, X), Y2); // X² + Y²
  const D = i32x4.sub(i32x4.add(v128.load(rxx + o), nYY), Y2); // N·XX − X² + N·YY − Y²
  const lo = ratio(A, B, C, D, k1, k2);
  const hi = ratio(high(A), high(B), high(C), high(D), k1, k2);
  if (xx + 4 <= iw) {
    sum += f64x2.extract_lane(lo, 0);
    sum += f64x2.extract_lane(lo, 1);
    sum += f64x2.extract_lane(hi, 0);
    sum += f64x2.extract_lane(hi, 1);
  } else {
    // The last 1–3 windows of the row (the lanes past them are not added).
    v128.store(row, lo);
    v128.store(row + 16, hi);
    for (let i = 0; i < iw - xx; i++) sum += load<f64>(row + ((<usize>i) << 3));
  }
  return sum;
}

/**
 * The sum, in row-major order, of the SSIM ratios of the interior windows of x (the reference, its
 * window sums at rx, rxx from `referenceSums`) and y (width × height bytes, 16 bytes of slack
 * after each image). `zero`: width rounded up to 16 zero bytes; `cols`: 3 arrays of `cw` i32 (cw ≥
 * width rounded up to 16, + 16; Σy's i16 use half of the first); `row`: 4 f64. `twoToneY`: y holds
 * only 0 and 255, so Σy² = 255·Σy (the same integer; fewer sums).
 */
export function ssimSum(x: usize, y: usize, width: i32, height: i32, zero: usize, cols: usize, cw: i32, rx: usize, rxx: usize, row: usize, c1: f64, c2: f64, twoToneY: i32): f64 {
  const w = <usize>width;
  const cwb = (<usize>cw) << 2;
  const iw = width - 6;
  const ih = height - 6;
  const cy = cols;
  const cxy = cols + cwb;
  const cyy = cols + 2 * cwb;
  const squaresY = twoToneY == 0;
  memory.fill(cols, 0, 3 * cwb);
  for (let r: usize = 0; r < 7; r++) {
    if (squaresY) slideY(x + r * w, y + r * w, zero, zero, width, cols, cwb, true);
    else slideY(x + r * w, y + r * w, zero, zero, width, cols, cwb, false);
  }
  const v49 = i32x4.splat(49);
  const v12495 = i32x4.splat(49 * 255);
  const k1 = f64x2.splat(c1);
  const k2 = f64x2.splat(c2);
  let sum: f64 = 0;
  for (let yy = 0; yy < ih; yy++) {
    if (yy > 0) {
      const oin = (<usize>(yy + 6)) * w;
      const oout = (<usize>(yy - 1)) * w;
      if (squaresY) slideY(x + oin, y + oin, x + oout, y + oout, width, cols, cwb, true);
      else slideY(x + oin, y + oin, x + oout, y + oout, width, cols, cwb, false);
    }
    const ro = (<usize>(yy * iw)) << 2;
    // 8 windows a step: their Σy in one i16x8, the rest in two groups of 4.
    for (let x8 = 0; x8 < iw; x8 += 8) {
      const Y8 = win7h(cy + ((<usize>x8) << 1));
      sum = group(sum, x8, iw, rx + ro, rxx + ro, cxy, cyy, i32x4.extend_low_i16x8_s(Y8), row, squaresY, v49, v12495, k1, k2);
      if (x8 + 4 < iw) sum = group(sum, x8 + 4, iw, rx + ro, rxx + ro, cxy, cyy, i32x4.extend_high_i16x8_s(Y8), row, squaresY, v49, v12495, k1, k2);
    }
  }
  return sum;
}
