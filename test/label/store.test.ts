/**
 * The rater file (SQLite, WAL journal): every open that only reads it (the server's peek at the
 * saved token and settings, `label export`) leaves no `-wal` or `-shm` file behind and does not
 * change the file's bytes.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { exportLabels } from '../../src/label/export.js';
import { readLabelSample } from '../../src/label/load-sample.js';
import { raterFile } from '../../src/label/serve.js';
import { LabelStore } from '../../src/label/store.js';
import { tempDir } from '../helpers/tmp.js';
import { writeLabelSample } from './fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(7) });

let sampleFile: string;
let store: string;

/** SQLite's side files anywhere under `dir`. */
const sideFiles = async (dir: string) =>
  (await readdir(dir, { recursive: true })).filter((f) => /-(wal|shm|journal)$/.test(f));

beforeAll(async () => {
  const dir = await tempDir('stimkit-label-store-');
  ({ sampleFile } = await writeLabelSample(dir, 6, 3));
  const { sample, sha256 } = await readLabelSample(sampleFile);
  store = raterFile(sampleFile, 'alice', 'label');
  const s = LabelStore.open(store, {
    sample_sha256: sha256,
    bundle_digest: sample.bundle.digest,
    rater: 'alice',
    mode: 'label',
  });
  s.save(sample.items[0]!.id, { field: 'd1', value: 'true' });
  s.setMeta('token', 'b'.repeat(48));
  s.close();
});

describe('rater file readers', () => {
  it('a closed store leaves no side files', async () => {
    expect(await sideFiles(path.dirname(store))).toEqual([]);
  });

  it('peekMeta reads the metadata and leaves no side files or changed bytes', async () => {
    const before = await readFile(store);
    expect(LabelStore.peekMeta(store)).toMatchObject({ rater: 'alice', token: 'b'.repeat(48) });
    expect(await sideFiles(path.dirname(store))).toEqual([]);
    expect((await readFile(store)).equals(before)).toBe(true);
  });

  it('label export reads every rater file and leaves no side files or changed bytes', async () => {
    const before = await readFile(store);
    const out = path.join(path.dirname(sampleFile), 'labels.csv');
    const result = await exportLabels({ sample: sampleFile, out });
    expect(result.raters.map((r) => [r.rater, r.answered])).toEqual([['alice', 1]]);
    expect(await sideFiles(path.dirname(store))).toEqual([]);
    expect((await readFile(store)).equals(before)).toBe(true);
  });
});
