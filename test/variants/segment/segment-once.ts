/**
 * Run by isnet-processes.test.ts in a process of its own: segment one image with a fresh isnet
 * segmenter and print the mask's sha256 and foreground pixel count as JSON on stdout.
 *
 *   node --import tsx test/variants/segment/segment-once.ts <image> <threads>
 */
import { createHash } from 'node:crypto';
import { createSegmenter } from '../../../src/variants/segment/index.js';
import { decodeA0 } from './fixtures.js';

const [image, threads] = process.argv.slice(2);
const { rgb, width, height } = await decodeA0(image!);
const seg = await createSegmenter('isnet', { threads: Number(threads) });
try {
  const mask = await seg.segment(rgb, width, height);
  const sha256 = createHash('sha256').update(mask).digest('hex');
  process.stdout.write(`${JSON.stringify({ sha256, foreground: mask.filter((v) => v).length })}\n`);
} finally {
  await seg.dispose();
}
