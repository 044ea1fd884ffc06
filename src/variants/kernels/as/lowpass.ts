// A5's column pass (src/variants/ops/lowpass-gaussian.ts, `columnConvolve`): the periodic
// convolution along y of the half-spectrum rows with the even kernel hy, in f64x2 lanes. Each
// lane is one value of a row and sees the operations k0·x, then + k_d·(x[y+d] + x[y−d]) for
// d = 1 … D, in that order (the order of the TypeScript loop it replaced: the same bits).

/** First free byte of the memory: the caller lays its buffers out from here. */
export function base(): usize {
  return __heap_base;
}

/**
 * dst[y] = k0·src[y] + Σ_{d=1..D} k[d]·(src[y+d mod h] + src[y−d mod h]), rows of `stride` f64
 * (stride even). `kern` holds the D + 1 taps as the JavaScript uses them; `tab` has room for 2D
 * row addresses.
 */
export function columnConvolve(src: usize, dst: usize, kern: usize, D: i32, height: i32, stride: i32, tab: usize): void {
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
      v128.store(o + i, a0);
      v128.store(o + i + 16, a1);
      v128.store(o + i + 32, a2);
      v128.store(o + i + 48, a3);
    }
    for (; i < rowBytes; i += 16) {
      let a0 = f64x2.mul(k0, v128.load(so + i));
      for (let d = 1; d <= D; d++) {
        const k = f64x2.splat(load<f64>(kern + ((<usize>d) << 3)));
        const p = load<usize>(tab + ((<usize>(2 * d - 2)) << 2)) + i;
        const q = load<usize>(tab + ((<usize>(2 * d - 1)) << 2)) + i;
        a0 = f64x2.add(a0, f64x2.mul(k, f64x2.add(v128.load(p), v128.load(q))));
      }
      v128.store(o + i, a0);
    }
  }
}
