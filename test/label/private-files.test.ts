/**
 * The rater file keeps the session token: it, its SQLite side files (`-wal`, `-shm`) and its lock
 * are owner-only (0600) and the folder stimkit makes for them is 0700, whatever the umask; a
 * file or folder left readable by an older version is tightened when it is opened again.
 */
import Database from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { readLabelSample } from '../../src/label/load-sample.js';
import { labelsFolder, raterFile, serveLabels } from '../../src/label/serve.js';
import { LabelStore, type StoreIdentity } from '../../src/label/store.js';
import { tempDir } from '../helpers/tmp.js';
import { writeLabelSample } from './fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(7) });

const mode = (file: string) => statSync(file).mode & 0o777;
const SIDE = ['', '-wal', '-shm', '.lock'];

let dir: string;
let sampleFile: string;
let identity: StoreIdentity;
let itemId: string;
let umask: number;

beforeAll(async () => {
  // The usual umask: what it lets through (0644 files, 0755 folders) is what must not happen.
  umask = process.umask(0o022);
  dir = await tempDir('stimkit-label-private-');
  ({ sampleFile } = await writeLabelSample(dir, 6, 3));
  const { sample, sha256 } = await readLabelSample(sampleFile);
  identity = {
    sample_sha256: sha256,
    bundle_digest: sample.bundle.digest,
    rater: 'r',
    mode: 'label',
  };
  itemId = sample.items[0]!.id;
});
afterAll(() => process.umask(umask));

describe('rater files are private', () => {
  it('a new store, its side files and its lock are 0600, in a new folder of 0700', () => {
    const file = path.join(dir, 'new', 'deeper', 'r.sqlite');
    const store = LabelStore.open(file, identity, { exclusive: true });
    try {
      store.setMeta('token', 'c'.repeat(48));
      store.save(itemId, { field: 'd1', value: 'true' });
      for (const s of SIDE) {
        expect(existsSync(file + s), `${s || 'the file'} exists`).toBe(true);
        expect(mode(file + s), `mode of ${path.basename(file + s)}`).toBe(0o600);
      }
      expect(mode(path.dirname(file))).toBe(0o700);
      expect(mode(path.join(dir, 'new'))).toBe(0o700);
    } finally {
      store.close();
    }
  });

  it('a readable store left by an older version is tightened when opened', () => {
    const file = path.join(dir, 'old', 'r.sqlite');
    mkdirSync(path.dirname(file), { recursive: true });
    LabelStore.open(file, identity).close();
    // An older version's files: 0644, with side files a killed server left behind.
    const held = new Database(file);
    held.pragma('journal_mode = WAL');
    held
      .prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('token', ?)")
      .run('d'.repeat(48));
    for (const s of ['', '-wal', '-shm']) chmodSync(file + s, 0o644);
    const store = LabelStore.open(file, identity);
    try {
      for (const s of ['', '-wal', '-shm'])
        expect(mode(file + s), `mode of ${s || 'file'}`).toBe(0o600);
    } finally {
      store.close();
      held.close();
    }
  });

  it('label serve makes the default folder 0700, and tightens one an older version made', async () => {
    mkdirSync(labelsFolder(sampleFile), { recursive: true });
    chmodSync(labelsFolder(sampleFile), 0o755);
    const server = await serveLabels({ sample: sampleFile, rater: 'r', lang: 'en', port: 0 });
    try {
      const file = raterFile(sampleFile, 'r', 'label');
      expect(mode(labelsFolder(sampleFile))).toBe(0o700);
      expect(mode(file)).toBe(0o600);
      expect(LabelStore.peekMeta(file).token).toMatch(/^[0-9a-f]{48}$/);
    } finally {
      await server.close();
    }
  });
});
