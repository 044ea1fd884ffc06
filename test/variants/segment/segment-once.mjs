/**
 * Run by isnet-processes.test.ts in a process of its own: segment one decoded A0 (raw 8-bit RGB,
 * as the test decoded it) with a fresh isnet segmenter and print the mask's sha256 and foreground
 * pixel count as JSON on stdout. Plain JavaScript on the built stimkit (dist/, which the test
 * setup builds from src/), so that the child pays for no TypeScript loader (about 1 CPU-s).
 *
 *   node test/variants/segment/segment-once.mjs <rgb file> <width> <height> <threads>
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createSegmenter } from '../../../dist/variants/segment/index.js';

const [file, width, height, threads] = process.argv.slice(2);
const rgb = new Uint8Array(await readFile(file));
const seg = await createSegmenter('isnet', { threads: Number(threads) });
try {
  const mask = await seg.segment(rgb, Number(width), Number(height));
  const sha256 = createHash('sha256').update(mask).digest('hex');
  process.stdout.write(`${JSON.stringify({ sha256, foreground: mask.filter((v) => v).length })}\n`);
} finally {
  await seg.dispose();
}
