/**
 * A6 post-processing of a foreground mask, exact (VARIANTS.md, A6): keep the largest 8-connected
 * foreground component (ties: the component met first in raster order), then fill holes
 * (background pixels not 4-connected to the image border become foreground).
 */

/** Keep only the largest 8-connected component of `mask` (1 = foreground). Returns a new mask. */
export function largestComponent(mask: Uint8Array, width: number, height: number): Uint8Array {
  const n = width * height;
  const label = new Int32Array(n); // 0 = unlabelled
  const stack = new Int32Array(n);
  let best = 0;
  let bestSize = 0;
  let next = 0;
  for (let start = 0; start < n; start++) {
    if (!mask[start] || label[start]) continue;
    next++;
    let size = 0;
    let top = 0;
    stack[top++] = start;
    label[start] = next;
    while (top > 0) {
      const p = stack[--top]!;
      size++;
      const x = p % width;
      const y = (p - x) / width;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if ((dx === 0 && dy === 0) || xx < 0 || xx >= width) continue;
          const q = yy * width + xx;
          if (mask[q] && !label[q]) {
            label[q] = next;
            stack[top++] = q;
          }
        }
      }
    }
    // Components are numbered in raster order of their first pixel: strictly larger wins.
    if (size > bestSize) {
      best = next;
      bestSize = size;
    }
  }
  const out = new Uint8Array(n);
  if (best) for (let i = 0; i < n; i++) out[i] = label[i] === best ? 1 : 0;
  return out;
}

/** Fill holes: background not 4-connected to the border becomes foreground. Returns a new mask. */
export function fillHoles(mask: Uint8Array, width: number, height: number): Uint8Array {
  const n = width * height;
  const outside = new Uint8Array(n);
  const stack = new Int32Array(n);
  let top = 0;
  const seed = (p: number): void => {
    if (!mask[p] && !outside[p]) {
      outside[p] = 1;
      stack[top++] = p;
    }
  };
  for (let x = 0; x < width; x++) {
    seed(x);
    seed((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    seed(y * width);
    seed(y * width + width - 1);
  }
  while (top > 0) {
    const p = stack[--top]!;
    const x = p % width;
    if (x > 0) seed(p - 1);
    if (x < width - 1) seed(p + 1);
    if (p >= width) seed(p - width);
    if (p < n - width) seed(p + width);
  }
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = outside[i] ? 0 : 1;
  return out;
}
