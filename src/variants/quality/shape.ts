/**
 * Shape measures of a silhouette against the edge map, for the blob check (W_VARIANTS_A6_BLOB): a
 * segmenter that fails on a photo full of edges (GrabCut's typical failure) returns one convex
 * blob whose outline follows none of the photo's edges. Measured on the output PNGs after the
 * run, for computed and reused outputs alike, and recorded as A6 metrics; no image changes.
 *
 * - `solidity`: foreground pixels / area of the convex hull of the foreground pixel squares
 *   (Andrew's monotone chain on the corners of each row's extreme pixels), 1 for a convex blob;
 * - `outline_edge_overlap`: share of the outline pixels (foreground pixels with a background
 *   4-neighbour or on the border) within `OUTLINE_RADIUS` pixels (Chebyshev) of an A3 edge pixel.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { decodePng } from '../ops/png.js';
import type { Image8 } from '../types.js';

/** How far (px) an outline pixel may lie from an A3 edge and still follow it. */
const OUTLINE_RADIUS = 2;

type Point = [number, number];

const cross = (o: Point, a: Point, b: Point) =>
  (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);

/** Convex hull (counter-clockwise) of points, by Andrew's monotone chain. */
function hull(points: Point[]): Point[] {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const half = (list: Point[]): Point[] => {
    const out: Point[] = [];
    for (const q of list) {
      while (out.length >= 2 && cross(out[out.length - 2]!, out[out.length - 1]!, q) <= 0)
        out.pop();
      out.push(q);
    }
    out.pop();
    return out;
  };
  return [...half(p), ...half([...p].reverse())];
}

/** Foreground (0) pixels / convex hull area; null for an empty silhouette. */
export function solidity(a6: Image8): number | null {
  const { width, height, data } = a6;
  const corners: Point[] = [];
  let count = 0;
  for (let y = 0; y < height; y++) {
    let lo = -1;
    let hi = -1;
    for (let x = 0; x < width; x++) {
      if (data[y * width + x] !== 0) continue;
      count++;
      if (lo < 0) lo = x;
      hi = x;
    }
    if (lo >= 0) corners.push([lo, y], [lo, y + 1], [hi + 1, y], [hi + 1, y + 1]);
  }
  if (count === 0) return null;
  const h = hull(corners);
  let twice = 0;
  for (let i = 0; i < h.length; i++) {
    const [x1, y1] = h[i]!;
    const [x2, y2] = h[(i + 1) % h.length]!;
    twice += x1 * y2 - x2 * y1;
  }
  return count / (Math.abs(twice) / 2);
}

/** Chebyshev dilation of the 0 pixels of `img` by `r`: 1 where an edge lies within r. */
function nearEdges(img: Image8, r: number): Uint8Array {
  const { width, height, data } = img;
  const rows = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let hit = 0;
      for (let d = Math.max(0, x - r); d <= Math.min(width - 1, x + r) && !hit; d++)
        if (data[y * width + d] === 0) hit = 1;
      rows[y * width + x] = hit;
    }
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let hit = 0;
      for (let d = Math.max(0, y - r); d <= Math.min(height - 1, y + r) && !hit; d++)
        if (rows[d * width + x]) hit = 1;
      out[y * width + x] = hit;
    }
  return out;
}

/** Share of the silhouette's outline within OUTLINE_RADIUS of an A3 edge; null when not comparable. */
export function outlineEdgeOverlap(a6: Image8, a3: Image8): number | null {
  const { width, height, data } = a6;
  if (a3.width !== width || a3.height !== height) return null;
  const near = nearEdges(a3, OUTLINE_RADIUS);
  const fg = (x: number, y: number) =>
    x >= 0 && y >= 0 && x < width && y < height && data[y * width + x] === 0;
  let outline = 0;
  let onEdge = 0;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      if (!fg(x, y)) continue;
      if (fg(x - 1, y) && fg(x + 1, y) && fg(x, y - 1) && fg(x, y + 1)) continue;
      outline++;
      if (near[y * width + x]) onEdge++;
    }
  return outline === 0 ? null : onEdge / outline;
}

/** What the measuring reads and writes of one variant record. */
interface ShapeRecord {
  code: string;
  status: string;
  file?: string | null;
  metrics: Record<string, unknown>;
}

/**
 * Record `solidity` and `outline_edge_overlap` on every entry's A6 whose A6 and A3 outputs exist,
 * reading the PNGs in `outDir` (computed and reused outputs alike). Images are only read.
 */
export async function addShapeMetrics(
  records: ReadonlyArray<{ status: string; variants: ShapeRecord[] }>,
  outDir: string,
): Promise<void> {
  for (const e of records) {
    const a6 = e.variants.find((v) => v.code === 'A6' && v.status === 'ok' && v.file);
    const a3 = e.variants.find((v) => v.code === 'A3' && v.status === 'ok' && v.file);
    if (!a6 || !a3) continue;
    const [i6, i3] = await Promise.all(
      [a6, a3].map(async (v) => decodePng(await readFile(path.join(outDir, v.file!)))),
    );
    a6.metrics.solidity = solidity(i6!);
    a6.metrics.outline_edge_overlap = outlineEdgeOverlap(i6!, i3!);
  }
}
