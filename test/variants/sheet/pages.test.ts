/**
 * The contact sheet's pages in a folder that already holds a sheet: a shorter sheet removes the
 * earlier sheet's extra pages (no old page beside the new ones), and a write that fails half-way
 * (the second page cannot be written) leaves no live lock vouching for the page already rewritten:
 * the run's lock guard moved it aside first, so the folder is never a mix that a lock vouches for.
 */
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../../helpers/limits.js';
import {
  LOCK_NAME,
  readPriorLocks,
  STALE_SUFFIX,
  type EntryRecord,
} from '../../../src/variants/lock.js';
import { LockGuard } from '../../../src/variants/reuse/stale.js';
import { runVariants } from '../../../src/variants/run.js';
import { writeContactSheet } from '../../../src/variants/sheet/contact-sheet.js';
import { tempDir } from '../../helpers/tmp.js';
import { tinyCorpus } from '../helpers.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(7) });

let out: string;
let manifest: string;
let records: EntryRecord[];
const opts = { cell: 48, title: 'test', compression: 6 };
const sheets = async () => (await readdir(out)).filter((f) => f.startsWith('contact-sheet')).sort();

beforeAll(async () => {
  const corpus = await tinyCorpus(
    [
      ['one', 'horse.png'],
      ['two', 'astronaut.png'],
    ],
    48,
  );
  manifest = corpus.manifest;
  out = await tempDir('stimkit-sheet-pages-');
  const r = await runVariants(corpus.manifest, { out, only: ['A2'], jobs: 1 });
  records = r.lock.entries;
});

describe('contact sheet pages', () => {
  it('a shorter sheet removes the pages of a longer earlier one', async () => {
    await writeContactSheet(records, ['A0', 'A2'], out, { ...opts, perPage: 1 });
    expect(await sheets()).toEqual(['contact-sheet-2.png', 'contact-sheet.png']);
    const pages = await writeContactSheet(records, ['A0', 'A2'], out, { ...opts, perPage: 2 });
    expect(pages.map((p) => p.file)).toEqual(['contact-sheet.png']);
    expect(await sheets()).toEqual(['contact-sheet.png']);
  });

  it('a write failing on page 2 leaves no live lock vouching for the rewritten page 1', async () => {
    // a run's lock vouches for its one-page sheet
    const dir = await tempDir('stimkit-sheet-midway-');
    const r = await runVariants(manifest, { out: dir, only: ['A2'], jobs: 1 });
    expect(r.lock.contact_sheets.map((c) => c.file)).toEqual(['contact-sheet.png']);
    // page 2 cannot be written: a folder holds its name
    await mkdir(path.join(dir, 'contact-sheet-2.png'));
    const found = await readPriorLocks(dir);
    const guard = new LockGuard(dir, found.locks);
    await expect(
      writeContactSheet(r.lock.entries, ['A0', 'A2'], dir, {
        ...opts,
        perPage: 1,
        beforeWrite: (file, digest) => guard.beforeWrite(new Map([[file, digest]])),
      }),
    ).rejects.toThrow();
    const names = await readdir(dir);
    expect(names).not.toContain(LOCK_NAME);
    expect(names).toContain(LOCK_NAME + STALE_SUFFIX);
  });
});
