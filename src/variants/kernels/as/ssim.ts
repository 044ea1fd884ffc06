// SSIM's windows (src/variants/metrics/ssim.ts, `ssimJs`): the 7-row column sums of x, x², y,
// y², xy slide down in i32x4 lanes (16 columns a step, from the bytes widened to i16x8), each
// window's 7-wide sums are added from them in i32x4 lanes, and its ratio is computed in f64x2
// lanes. Every sum and every integer factor of the ratio is an exact integer below 2^31 (49·255²·2
// < 2^29), so it is the same integer as the JavaScript's, whatever the order of the additions;
// the floating-point part, (A + c1)(B + c2) / ((C + c1)(D + c2)), is the JavaScript's operations
// in its order. The ratios of an output row go to a small buffer and are added to the sum one by
// one, in the JavaScript's order: the same bits.

/** First free byte of the memory: the caller lays its buffers out from here. */
export function base(): usize {
  return __heap_base;
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

/**
 * Column sums over the rows: for each column, add row `inX`/`inY` and remove row `outX`/`outY`
 * (an all-zero row when filling). `cw` i32 per array; 16 columns a step up to width rounded up
 * (the bytes read past a row's end only reach columns no window uses).
 */
// @ts-ignore: decorator
@inline function slide(inX: usize, inY: usize, outX: usize, outY: usize, width: i32, cols: usize, cw: usize, squaresY: bool): void {
  const cx = cols;
  const cxx = cols + cw;
  const cy = cols + 2 * cw;
  const cyy = cols + 3 * cw;
  const cxy = cols + 4 * cw;
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
    let dx = i16x8.sub(a, b);
    let sx = i16x8.add(a, b);
    let dy = i16x8.sub(u, v);
    let sy = i16x8.add(u, v);
    addTo(cx + o, i32x4.extend_low_i16x8_s(dx));
    addTo(cx + o + 16, i32x4.extend_high_i16x8_s(dx));
    addTo(cxx + o, i32x4.extmul_low_i16x8_s(dx, sx));
    addTo(cxx + o + 16, i32x4.extmul_high_i16x8_s(dx, sx));
    addTo(cy + o, i32x4.extend_low_i16x8_s(dy));
    addTo(cy + o + 16, i32x4.extend_high_i16x8_s(dy));
    if (squaresY) {
      addTo(cyy + o, i32x4.extmul_low_i16x8_s(dy, sy));
      addTo(cyy + o + 16, i32x4.extmul_high_i16x8_s(dy, sy));
    }
    addTo(cxy + o, i32x4.sub(i32x4.extmul_low_i16x8_u(a, u), i32x4.extmul_low_i16x8_u(b, v)));
    addTo(cxy + o + 16, i32x4.sub(i32x4.extmul_high_i16x8_u(a, u), i32x4.extmul_high_i16x8_u(b, v)));
    // Columns c + 8 … c + 15.
    a = i16x8.extend_high_i8x16_u(pi);
    b = i16x8.extend_high_i8x16_u(po);
    u = i16x8.extend_high_i8x16_u(qi);
    v = i16x8.extend_high_i8x16_u(qo);
    dx = i16x8.sub(a, b);
    sx = i16x8.add(a, b);
    dy = i16x8.sub(u, v);
    sy = i16x8.add(u, v);
    addTo(cx + o + 32, i32x4.extend_low_i16x8_s(dx));
    addTo(cx + o + 48, i32x4.extend_high_i16x8_s(dx));
    addTo(cxx + o + 32, i32x4.extmul_low_i16x8_s(dx, sx));
    addTo(cxx + o + 48, i32x4.extmul_high_i16x8_s(dx, sx));
    addTo(cy + o + 32, i32x4.extend_low_i16x8_s(dy));
    addTo(cy + o + 48, i32x4.extend_high_i16x8_s(dy));
    if (squaresY) {
      addTo(cyy + o + 32, i32x4.extmul_low_i16x8_s(dy, sy));
      addTo(cyy + o + 48, i32x4.extmul_high_i16x8_s(dy, sy));
    }
    addTo(cxy + o + 32, i32x4.sub(i32x4.extmul_low_i16x8_u(a, u), i32x4.extmul_low_i16x8_u(b, v)));
    addTo(cxy + o + 48, i32x4.sub(i32x4.extmul_high_i16x8_u(a, u), i32x4.extmul_high_i16x8_u(b, v)));
  }
}

/**
 * The sum, in row-major order, of the SSIM ratios of the interior windows of the images at x and
 * y (width × height bytes, each followed by 16 bytes of slack). `zero`: width + 16 zero bytes;
 * `cols`: 5 arrays of `cw` i32 (cw ≥ width rounded up to 16); `row`: the interior width rounded
 * up to 4 f64. `twoToneY`: y holds only 0 and 255, so Σy² = 255·Σy (the same integer; fewer sums).
 */
export function ssimSum(x: usize, y: usize, width: i32, height: i32, zero: usize, cols: usize, cw: i32, row: usize, c1: f64, c2: f64, twoToneY: i32): f64 {
  const w = <usize>width;
  const cwb = (<usize>cw) << 2;
  const iw = width - 6;
  const ih = height - 6;
  const cx = cols;
  const cxx = cols + cwb;
  const cy = cols + 2 * cwb;
  const cyy = cols + 3 * cwb;
  const cxy = cols + 4 * cwb;
  memory.fill(cols, 0, 5 * cwb);
  const squaresY = twoToneY == 0;
  for (let r: usize = 0; r < 7; r++) {
    if (squaresY) slide(x + r * w, y + r * w, zero, zero, width, cols, cwb, true);
    else slide(x + r * w, y + r * w, zero, zero, width, cols, cwb, false);
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
      if (squaresY) slide(x + oin, y + oin, x + oout, y + oout, width, cols, cwb, true);
      else slide(x + oin, y + oin, x + oout, y + oout, width, cols, cwb, false);
    }
    for (let xx = 0; xx < iw; xx += 4) {
      const o = (<usize>xx) << 2;
      const X = win7(cx + o);
      const XX = win7(cxx + o);
      const Y = win7(cy + o);
      const XYs = win7(cxy + o);
      const nYY = squaresY ? i32x4.mul(v49, win7(cyy + o)) : i32x4.mul(v12495, Y);
      const XY = i32x4.mul(X, Y);
      const X2 = i32x4.mul(X, X);
      const Y2 = i32x4.mul(Y, Y);
      const A = i32x4.add(XY, XY);
      const Bh = i32x4.sub(i32x4.mul(v49, XYs), XY);
      const B = i32x4.add(Bh, Bh);
      const C = i32x4.add(X2, Y2);
      const D = i32x4.sub(i32x4.add(i32x4.sub(i32x4.mul(v49, XX), X2), nYY), Y2);
      const Ah = i8x16.shuffle(A, A, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
      const Bhi = i8x16.shuffle(B, B, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
      const Ch = i8x16.shuffle(C, C, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
      const Dh = i8x16.shuffle(D, D, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
      const lo = f64x2.div(
        f64x2.mul(f64x2.add(f64x2.convert_low_i32x4_s(A), k1), f64x2.add(f64x2.convert_low_i32x4_s(B), k2)),
        f64x2.mul(f64x2.add(f64x2.convert_low_i32x4_s(C), k1), f64x2.add(f64x2.convert_low_i32x4_s(D), k2)),
      );
      const hi = f64x2.div(
        f64x2.mul(f64x2.add(f64x2.convert_low_i32x4_s(Ah), k1), f64x2.add(f64x2.convert_low_i32x4_s(Bhi), k2)),
        f64x2.mul(f64x2.add(f64x2.convert_low_i32x4_s(Ch), k1), f64x2.add(f64x2.convert_low_i32x4_s(Dh), k2)),
      );
      v128.store(row + (o << 1), lo);
      v128.store(row + (o << 1) + 16, hi);
    }
    for (let i = 0; i < iw; i++) sum += load<f64>(row + ((<usize>i) << 3));
  }
  return sum;
}
