// The row and column DFTs of src/variants/ops/fft.ts and fft-band.ts (rowsReal, rowsInverseReal,
// rowsBand, the column passes of fft2FromRows / ifft2Real and of bandEnergy), two sequences at a
// time, one per f64x2 lane: the one implementation of stimkit's DFTs. Each lane does the scalar
// operations, in the order, of the npm fft.js 4 radix-4 transform (`_transform4`,
// `_singleTransform2/4`, `inverseTransform`'s division by the size) with its twiddle table and
// bit reversal (laid out by the caller), which stimkit used before this kernel, and the Bluestein /
// chirp-z steps of fft.ts and fft-band.ts around it: so A5's pixels are the ones it always made.
//
// Complex sequences are held "lane-split": element j of the two sequences at p + 32·j, the two
// real parts as one v128 at +0 and the two imaginary parts at +16. fft.js indexes its interleaved
// arrays in doubles (d even = element d/2): its element d is at p + 16·d here.
//
// A plan (struct of i32 at P, laid out by ops/fft-kernel.ts):
//   +0 n, +4 m (power-of-two FFT length), +8 kind (0 identity, 1 power of two, 2 chirp),
//   +12 table (f64[2m], fft.js's), +16 bitrev (i32[], fft.js's), +20 fft.js's _width,
//   +24 wn (f64[2n]), +28 B (f64[2m]), +32 wk (f64[2·count]), +36 count, +40 shift,
//   +44 a (scratch, m elements), +48 A (scratch, m elements).

/** First free byte of the memory: the caller lays its buffers out from here. */
export function base(): usize {
  return __heap_base;
}

/** This module's interface version (kernels/load.ts `ABI`): raised when an export's signature or meaning changes. */
export function abi(): i32 {
  return 2;
}

@inline function fld(P: usize, off: usize): i32 {
  return load<i32>(P + off);
}
@inline function ptr(P: usize, off: usize): usize {
  return <usize>load<i32>(P + off);
}
@inline function sp(p: usize): v128 {
  return v128.load64_splat(p);
}

// fft.js multiplies by inv = ±1 (`inv * table[k + 1]`, `inv * (MBr − MDr)`): x·1 = x and
// x·(−1) = −x exactly (signed zeros included), so the forward transform skips the product and
// the inverse one negates.
@inline function sgn(inv: bool, x: v128): v128 {
  return inv ? f64x2.neg(x) : x;
}
@inline function sgn1(inv: bool, x: f64): f64 {
  return inv ? -x : x;
}

/** fft.js `transform` without the scaling: out ← FFT(data), size = 2m doubles. */
function transformForward(out: usize, data: usize, size: i32, width: i32, table: usize, bitrev: usize): void {
  transform4(out, data, size, width, table, bitrev, false);
}

/** fft.js `inverseTransform` before its division by m. */
function transformInverse(out: usize, data: usize, size: i32, width: i32, table: usize, bitrev: usize): void {
  transform4(out, data, size, width, table, bitrev, true);
}

/** fft.js `_transform4` (+ `_singleTransform2/4`): out ← FFT(data), size = 2m doubles; inv: fft.js's `_inv`. */
@inline function transform4(out: usize, data: usize, size: i32, width: i32, table: usize, bitrev: usize, inv: bool): void {
  let step = 1 << width;
  let len = (size / step) << 1;
  if (len == 4) {
    for (let outOff = 0, t = 0; outOff < size; outOff += len, t++) {
      const off = load<i32>(bitrev + ((<usize>t) << 2));
      const e = data + ((<usize>off) << 4);
      const o = data + ((<usize>(off + step)) << 4);
      const evenR = v128.load(e);
      const evenI = v128.load(e, 16);
      const oddR = v128.load(o);
      const oddI = v128.load(o, 16);
      const q = out + ((<usize>outOff) << 4);
      v128.store(q, f64x2.add(evenR, oddR));
      v128.store(q, f64x2.add(evenI, oddI), 16);
      v128.store(q, f64x2.sub(evenR, oddR), 32);
      v128.store(q, f64x2.sub(evenI, oddI), 48);
    }
  } else {
    const step2 = step * 2;
    const step3 = step * 3;
    for (let outOff = 0, t = 0; outOff < size; outOff += len, t++) {
      const off = load<i32>(bitrev + ((<usize>t) << 2));
      const pa = data + ((<usize>off) << 4);
      const pb = data + ((<usize>(off + step)) << 4);
      const pc = data + ((<usize>(off + step2)) << 4);
      const pd = data + ((<usize>(off + step3)) << 4);
      const Ar = v128.load(pa);
      const Ai = v128.load(pa, 16);
      const Br = v128.load(pb);
      const Bi = v128.load(pb, 16);
      const Cr = v128.load(pc);
      const Ci = v128.load(pc, 16);
      const Dr = v128.load(pd);
      const Di = v128.load(pd, 16);
      const T0r = f64x2.add(Ar, Cr);
      const T0i = f64x2.add(Ai, Ci);
      const T1r = f64x2.sub(Ar, Cr);
      const T1i = f64x2.sub(Ai, Ci);
      const T2r = f64x2.add(Br, Dr);
      const T2i = f64x2.add(Bi, Di);
      const T3r = sgn(inv, f64x2.sub(Br, Dr));
      const T3i = sgn(inv, f64x2.sub(Bi, Di));
      const q = out + ((<usize>outOff) << 4);
      v128.store(q, f64x2.add(T0r, T2r));
      v128.store(q, f64x2.add(T0i, T2i), 16);
      v128.store(q, f64x2.add(T1r, T3i), 32);
      v128.store(q, f64x2.sub(T1i, T3r), 48);
      v128.store(q, f64x2.sub(T0r, T2r), 64);
      v128.store(q, f64x2.sub(T0i, T2i), 80);
      v128.store(q, f64x2.sub(T1r, T3i), 96);
      v128.store(q, f64x2.add(T1i, T3r), 112);
    }
  }
  for (step >>= 2; step >= 2; step >>= 2) {
    len = (size / step) << 1;
    const quarterLen = len >>> 2;
    const qb = (<usize>quarterLen) << 4;
    for (let outOff = 0; outOff < size; outOff += len) {
      const limit = outOff + quarterLen;
      for (let i = outOff, k = 0; i < limit; i += 2, k += step) {
        const pa = out + ((<usize>i) << 4);
        const pb = pa + qb;
        const pc = pb + qb;
        const pd = pc + qb;
        const Ar = v128.load(pa);
        const Ai = v128.load(pa, 16);
        const Br = v128.load(pb);
        const Bi = v128.load(pb, 16);
        const Cr = v128.load(pc);
        const Ci = v128.load(pc, 16);
        const Dr = v128.load(pd);
        const Di = v128.load(pd, 16);
        const tb = table + ((<usize>k) << 3);
        const tc = table + ((<usize>(2 * k)) << 3);
        const td = table + ((<usize>(3 * k)) << 3);
        const tableBr = sp(tb);
        const tableBi = f64x2.splat(sgn1(inv, load<f64>(tb, 8)));
        const MBr = f64x2.sub(f64x2.mul(Br, tableBr), f64x2.mul(Bi, tableBi));
        const MBi = f64x2.add(f64x2.mul(Br, tableBi), f64x2.mul(Bi, tableBr));
        const tableCr = sp(tc);
        const tableCi = f64x2.splat(sgn1(inv, load<f64>(tc, 8)));
        const MCr = f64x2.sub(f64x2.mul(Cr, tableCr), f64x2.mul(Ci, tableCi));
        const MCi = f64x2.add(f64x2.mul(Cr, tableCi), f64x2.mul(Ci, tableCr));
        const tableDr = sp(td);
        const tableDi = f64x2.splat(sgn1(inv, load<f64>(td, 8)));
        const MDr = f64x2.sub(f64x2.mul(Dr, tableDr), f64x2.mul(Di, tableDi));
        const MDi = f64x2.add(f64x2.mul(Dr, tableDi), f64x2.mul(Di, tableDr));
        const T0r = f64x2.add(Ar, MCr);
        const T0i = f64x2.add(Ai, MCi);
        const T1r = f64x2.sub(Ar, MCr);
        const T1i = f64x2.sub(Ai, MCi);
        const T2r = f64x2.add(MBr, MDr);
        const T2i = f64x2.add(MBi, MDi);
        const T3r = sgn(inv, f64x2.sub(MBr, MDr));
        const T3i = sgn(inv, f64x2.sub(MBi, MDi));
        v128.store(pa, f64x2.add(T0r, T2r));
        v128.store(pa, f64x2.add(T0i, T2i), 16);
        v128.store(pb, f64x2.add(T1r, T3i));
        v128.store(pb, f64x2.sub(T1i, T3r), 16);
        v128.store(pc, f64x2.sub(T0r, T2r));
        v128.store(pc, f64x2.sub(T0i, T2i), 16);
        v128.store(pd, f64x2.sub(T1r, T3i));
        v128.store(pd, f64x2.add(T1i, T3r), 16);
      }
    }
  }
}

/** fft.js `transform` (inv 0) or `inverseTransform` (inv 1: then every value / m) of length m. */
function fftm(P: usize, out: usize, data: usize, inv: i32): void {
  const m = fld(P, 4);
  if (inv) transformInverse(out, data, 2 * m, fld(P, 20), ptr(P, 12), ptr(P, 16));
  else transformForward(out, data, 2 * m, fld(P, 20), ptr(P, 12), ptr(P, 16));
  if (inv) {
    // x / m = x · (1/m) exactly for a power of two m (the same real value, rounded once)
    const d = f64x2.splat(1 / <f64>m);
    const end = out + ((<usize>m) << 5);
    for (let p = out; p < end; p += 16) v128.store(p, f64x2.mul(v128.load(p), d));
  }
}

/**
 * The chirp convolution of fft.ts's Bluestein `forward(out, input, sign)` (wk = wn, shift 0,
 * count n) and of fft-band.ts's `bandDft.forward` (sign 1, shift n − 1).
 */
function chirp(P: usize, out: usize, input: usize, sign: f64): void {
  const n = fld(P, 0);
  const m = fld(P, 4);
  const wn = ptr(P, 24);
  const B = ptr(P, 28);
  const wk = ptr(P, 32);
  const count = fld(P, 36);
  const shift = fld(P, 40);
  const a = ptr(P, 44);
  const A = ptr(P, 48);
  const vs = f64x2.splat(sign);
  memory.fill(a, 0, (<usize>m) << 5);
  for (let k = 0; k < n; k++) {
    const x = input + ((<usize>k) << 5);
    const xr = v128.load(x);
    const xi = f64x2.mul(vs, v128.load(x, 16));
    const w = wn + ((<usize>k) << 4);
    const wr = sp(w);
    const wi = sp(w + 8);
    const q = a + ((<usize>k) << 5);
    v128.store(q, f64x2.sub(f64x2.mul(xr, wr), f64x2.mul(xi, wi)));
    v128.store(q, f64x2.add(f64x2.mul(xr, wi), f64x2.mul(xi, wr)), 16);
  }
  fftm(P, A, a, 0);
  for (let k = 0; k < m; k++) {
    const q = A + ((<usize>k) << 5);
    const ar = v128.load(q);
    const ai = v128.load(q, 16);
    const b = B + ((<usize>k) << 4);
    const br = sp(b);
    const bi = sp(b + 8);
    v128.store(q, f64x2.sub(f64x2.mul(ar, br), f64x2.mul(ai, bi)));
    v128.store(q, f64x2.add(f64x2.mul(ar, bi), f64x2.mul(ai, br)), 16);
  }
  fftm(P, a, A, 1);
  for (let t = 0; t < count; t++) {
    const c = a + ((<usize>(t + shift)) << 5);
    const cr = v128.load(c);
    const ci = v128.load(c, 16);
    const w = wk + ((<usize>t) << 4);
    const wr = sp(w);
    const wi = sp(w + 8);
    const q = out + ((<usize>t) << 5);
    v128.store(q, f64x2.sub(f64x2.mul(cr, wr), f64x2.mul(ci, wi)));
    v128.store(q, f64x2.mul(vs, f64x2.add(f64x2.mul(cr, wi), f64x2.mul(ci, wr))), 16);
  }
}

/** fft.ts `dft(n).forward` (inv 0) or `.inverse` (inv 1). */
function dft(P: usize, out: usize, input: usize, inv: i32): void {
  const kind = fld(P, 8);
  if (kind == 0) {
    v128.store(out, v128.load(input));
    v128.store(out, v128.load(input, 16), 16);
  } else if (kind == 1) {
    fftm(P, out, input, inv);
  } else {
    chirp(P, out, input, inv ? -1 : 1);
    if (inv) {
      const n = fld(P, 0);
      const d = f64x2.splat(<f64>n);
      const end = out + ((<usize>n) << 5);
      for (let p = out; p < end; p += 16) v128.store(p, f64x2.div(v128.load(p), d));
    }
  }
}


/**
 * fft.ts `rowsReal` (band 0) or fft-band.ts `rowsBand` (band 1, P a chirp plan of 2·cols − 1
 * outputs): rows y, y+1 in lane 0 and y+2, y+3 in lane 1 (z = x + i·y each), separated as the
 * TypeScript does. `values` are u8 (u8 = 1) or f64; `zero` is a row of zeros (missing rows);
 * z has n elements, Z max(n, count).
 */
export function rowsForward(P: usize, band: i32, values: usize, u8: i32, width: i32, height: i32, cols: i32, data: usize, z: usize, Z: usize, zero: usize): void {
  const rowBytes = (<usize>width) << (u8 ? 0 : 3);
  // x / 2 = x · 0.5 exactly (the same real value, rounded once)
  const half = f64x2.splat(0.5);
  for (let y = 0; y < height; y += 4) {
    const r0 = values + (<usize>y) * rowBytes;
    const r1 = y + 1 < height ? r0 + rowBytes : zero;
    const r2 = y + 2 < height ? r0 + 2 * rowBytes : zero;
    const r3 = y + 3 < height ? r0 + 3 * rowBytes : zero;
    if (u8) {
      for (let x = 0; x < width; x++) {
        const q = z + ((<usize>x) << 5);
        const u = <usize>x;
        v128.store(q, f64x2.replace_lane(f64x2.splat(<f64>load<u8>(r0 + u)), 1, <f64>load<u8>(r2 + u)));
        v128.store(q, f64x2.replace_lane(f64x2.splat(<f64>load<u8>(r1 + u)), 1, <f64>load<u8>(r3 + u)), 16);
      }
    } else {
      for (let x = 0; x < width; x++) {
        const q = z + ((<usize>x) << 5);
        const u = (<usize>x) << 3;
        v128.store(q, f64x2.replace_lane(v128.load64_splat(r0 + u), 1, load<f64>(r2 + u)));
        v128.store(q, f64x2.replace_lane(v128.load64_splat(r1 + u), 1, load<f64>(r3 + u)), 16);
      }
    }
    if (band) chirp(P, Z, z, 1);
    else dft(P, Z, z, 0);
    const o0 = data + ((<usize>y) * (<usize>cols) << 4);
    const o1 = o0 + ((<usize>cols) << 4);
    const o2 = o1 + ((<usize>cols) << 4);
    const o3 = o2 + ((<usize>cols) << 4);
    for (let k = 0; k < cols; k++) {
      const p = band ? k + cols - 1 : k;
      const j = band ? cols - 1 - k : k == 0 ? 0 : width - k; // (width − k) mod width
      const pz = Z + ((<usize>p) << 5);
      const pj = Z + ((<usize>j) << 5);
      const zr = v128.load(pz);
      const zi = v128.load(pz, 16);
      const cr = v128.load(pj);
      const ci = f64x2.neg(v128.load(pj, 16));
      const Xr = f64x2.mul(f64x2.add(zr, cr), half);
      const Xi = f64x2.mul(f64x2.add(zi, ci), half);
      const Yr = f64x2.mul(f64x2.sub(zi, ci), half);
      const Yi = f64x2.mul(f64x2.neg(f64x2.sub(zr, cr)), half);
      const ko = (<usize>k) << 4;
      v128.store(o0 + ko, v128.shuffle<f64>(Xr, Xi, 0, 2));
      if (y + 1 < height) v128.store(o1 + ko, v128.shuffle<f64>(Yr, Yi, 0, 2));
      if (y + 2 < height) v128.store(o2 + ko, v128.shuffle<f64>(Xr, Xi, 1, 3));
      if (y + 3 < height) v128.store(o3 + ko, v128.shuffle<f64>(Yr, Yi, 1, 3));
    }
  }
}

/**
 * fft.ts `rowsInverseReal`: rows y, y+1 of the half spectrum `data` (height × cols) in lane 0,
 * y+2, y+3 in lane 1, each completed by G[−k] = conj(G[k]); out (f64, width × height) ← the real
 * rows. `zero` holds at least cols complex zeros.
 */
export function rowsInverse(P: usize, data: usize, width: i32, height: i32, cols: i32, out: usize, z: usize, Z: usize, zero: usize): void {
  const halfCols = width / 2 + 1;
  const rowBytes = (<usize>cols) << 4;
  const outRow = (<usize>width) << 3;
  const plus = f64x2.splat(1);
  const minus = f64x2.splat(-1);
  const vzero = f64x2.splat(0);
  for (let y = 0; y < height; y += 4) {
    const g0 = data + (<usize>y) * rowBytes;
    const has1 = y + 1 < height;
    const has2 = y + 2 < height;
    const has3 = y + 3 < height;
    const h0 = has1 ? g0 + rowBytes : zero;
    const g1 = has2 ? g0 + 2 * rowBytes : zero;
    const h1 = has3 ? g0 + 3 * rowBytes : zero;
    // lanes of a missing odd row take hr = hi = +0, as the TypeScript does (not s·0)
    const hmask = i64x2.replace_lane(i64x2.splat(has1 ? -1 : 0), 1, has3 ? -1 : 0);
    for (let k = 0; k < width; k++) {
      const mirrored = k >= halfCols;
      const kk = mirrored ? width - k : k;
      const q = Z + ((<usize>k) << 5);
      if (kk >= cols) {
        v128.store(q, vzero);
        v128.store(q, vzero, 16);
        continue;
      }
      const s = mirrored ? minus : plus;
      const ko = (<usize>kk) << 4;
      const a = v128.load(g0 + ko); // (gr, gi) of lane 0's even row
      const b = v128.load(g1 + ko);
      const c = v128.load(h0 + ko);
      const d = v128.load(h1 + ko);
      const gr = v128.shuffle<f64>(a, b, 0, 2);
      const gi = f64x2.mul(s, v128.shuffle<f64>(a, b, 1, 3));
      const hr = v128.shuffle<f64>(c, d, 0, 2);
      const hi = v128.bitselect(f64x2.mul(s, v128.shuffle<f64>(c, d, 1, 3)), vzero, hmask);
      v128.store(q, f64x2.sub(gr, hi));
      v128.store(q, f64x2.add(gi, hr), 16);
    }
    dft(P, z, Z, 1);
    const o0 = out + (<usize>y) * outRow;
    for (let x = 0; x < width; x++) {
      const p = z + ((<usize>x) << 5);
      const xo = (<usize>x) << 3;
      v128.store64_lane(o0 + xo, v128.load(p), 0);
      if (has1) v128.store64_lane(o0 + outRow + xo, v128.load(p, 16), 0);
      if (has2) v128.store64_lane(o0 + 2 * outRow + xo, v128.load(p), 1);
      if (has3) v128.store64_lane(o0 + 3 * outRow + xo, v128.load(p, 16), 1);
    }
  }
}

/**
 * The column transforms of a half spectrum `data` (height rows of `stride` complex values),
 * columns kx and kx+1 in the two lanes, for kx < cols. mode 0: in place, forward (fft.ts
 * `columnPass(…, 'forward')`); 1: in place, inverse; 2: P is a chirp plan of `count` outputs
 * (fft-band.ts `bandEnergy`), out ← its outputs, column after column (cols × count complex).
 */
export function columns(P: usize, mode: i32, data: usize, stride: i32, height: i32, cols: i32, out: usize, c: usize, C: usize): void {
  const rowBytes = (<usize>stride) << 4;
  const count = mode == 2 ? fld(P, 36) : height;
  for (let kx = 0; kx < cols; kx += 2) {
    const two = kx + 1 < cols;
    const p0 = data + ((<usize>kx) << 4);
    const p1 = two ? p0 + 16 : p0;
    for (let y = 0; y < height; y++) {
      const a = v128.load(p0 + (<usize>y) * rowBytes);
      const b = v128.load(p1 + (<usize>y) * rowBytes);
      const q = c + ((<usize>y) << 5);
      v128.store(q, v128.shuffle<f64>(a, b, 0, 2));
      v128.store(q, v128.shuffle<f64>(a, b, 1, 3), 16);
    }
    if (mode == 2) chirp(P, C, c, 1);
    else dft(P, C, c, mode);
    if (mode == 2) {
      const q0 = out + (<usize>kx) * (<usize>count) * 16;
      const q1 = q0 + (<usize>count) * 16;
      for (let t = 0; t < count; t++) {
        const p = C + ((<usize>t) << 5);
        const re = v128.load(p);
        const im = v128.load(p, 16);
        v128.store(q0 + ((<usize>t) << 4), v128.shuffle<f64>(re, im, 0, 2));
        if (two) v128.store(q1 + ((<usize>t) << 4), v128.shuffle<f64>(re, im, 1, 3));
      }
    } else {
      for (let y = 0; y < height; y++) {
        const p = C + ((<usize>y) << 5);
        const re = v128.load(p);
        const im = v128.load(p, 16);
        v128.store(p0 + (<usize>y) * rowBytes, v128.shuffle<f64>(re, im, 0, 2));
        if (two) v128.store(p1 + (<usize>y) * rowBytes, v128.shuffle<f64>(re, im, 1, 3));
      }
    }
  }
}

// A5's column pass (src/variants/ops/lowpass-gaussian.ts): the periodic convolution along y of the
// half-spectrum rows with the even kernel hy, in f64x2 lanes. Each lane is one value of a row and
// sees the operations k0·x, then + k_d·(x[y+d] + x[y−d]) for d = 1 … D, in that order (the order of
// the TypeScript loop it replaced: the same bits).

/** Store a·g (g = gains[x]) at o, and add re² + im² of it to energy[x]. */
// @ts-ignore: decorator
@inline function scaled(o: usize, a: v128, gains: usize, energy: usize, x: usize): void {
  const v = f64x2.mul(a, f64x2.splat(load<f64>(gains + (x << 3))));
  v128.store(o, v);
  const q = f64x2.mul(v, v);
  const e = energy + (x << 3);
  store<f64>(e, load<f64>(e) + (f64x2.extract_lane(q, 0) + f64x2.extract_lane(q, 1)));
}

/**
 * dst[y] = g·(k0·src[y] + Σ_{d=1..D} k[d]·(src[y+d mod h] + src[y−d mod h])), rows of `stride`
 * f64 (stride/2 complex values), g = gains[x] the gain of the row's complex value x; and
 * energy[x] += re² + im² of each scaled value, rows in order (the operations, in their order, of
 * the TypeScript loop this replaced in lowpass-gaussian.ts: re·g, im·g, then re² + im² added to
 * the column's sum). `kern` holds the D + 1 taps as the JavaScript uses them; `tab` has room for
 * 2D row addresses.
 */
export function columnConvolve(src: usize, dst: usize, kern: usize, D: i32, height: i32, stride: i32, tab: usize, gains: usize, energy: usize): void {
  const rowBytes = (<usize>stride) << 3;
  const k0 = f64x2.splat(load<f64>(kern));
  for (let y = 0; y < height; y++) {
    for (let d = 1; d <= D; d++) {
      store<usize>(tab + ((<usize>(2 * d - 2)) << 2), src + (<usize>((((y + d) % height) + height) % height)) * rowBytes);
      store<usize>(tab + ((<usize>(2 * d - 1)) << 2), src + (<usize>((((y - d) % height) + height) % height)) * rowBytes);
    }
    const o = dst + (<usize>y) * rowBytes;
    const so = src + (<usize>y) * rowBytes;
    let i: usize = 0;
    for (; i + 64 <= rowBytes; i += 64) {
      let a0 = f64x2.mul(k0, v128.load(so + i));
      let a1 = f64x2.mul(k0, v128.load(so + i + 16));
      let a2 = f64x2.mul(k0, v128.load(so + i + 32));
      let a3 = f64x2.mul(k0, v128.load(so + i + 48));
      for (let d = 1; d <= D; d++) {
        const k = f64x2.splat(load<f64>(kern + ((<usize>d) << 3)));
        const p = load<usize>(tab + ((<usize>(2 * d - 2)) << 2)) + i;
        const q = load<usize>(tab + ((<usize>(2 * d - 1)) << 2)) + i;
        a0 = f64x2.add(a0, f64x2.mul(k, f64x2.add(v128.load(p), v128.load(q))));
        a1 = f64x2.add(a1, f64x2.mul(k, f64x2.add(v128.load(p + 16), v128.load(q + 16))));
        a2 = f64x2.add(a2, f64x2.mul(k, f64x2.add(v128.load(p + 32), v128.load(q + 32))));
        a3 = f64x2.add(a3, f64x2.mul(k, f64x2.add(v128.load(p + 48), v128.load(q + 48))));
      }
      const x = i >> 4;
      scaled(o + i, a0, gains, energy, x);
      scaled(o + i + 16, a1, gains, energy, x + 1);
      scaled(o + i + 32, a2, gains, energy, x + 2);
      scaled(o + i + 48, a3, gains, energy, x + 3);
    }
    for (; i < rowBytes; i += 16) {
      let a0 = f64x2.mul(k0, v128.load(so + i));
      for (let d = 1; d <= D; d++) {
        const k = f64x2.splat(load<f64>(kern + ((<usize>d) << 3)));
        const p = load<usize>(tab + ((<usize>(2 * d - 2)) << 2)) + i;
        const q = load<usize>(tab + ((<usize>(2 * d - 1)) << 2)) + i;
        a0 = f64x2.add(a0, f64x2.mul(k, f64x2.add(v128.load(p), v128.load(q))));
      }
      scaled(o + i, a0, gains, energy, i >> 4);
    }
  }
}
