/**
 * A contact sheet or review sheet that fails while drawing (here: a variant image of the second
 * page is damaged) leaves the earlier pages as they were: every page is drawn before the first
 * is written, and earlier review pages are removed only once the new ones are drawn.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../../helpers/limits.js';
import type { EntryRecord } from '../../../src/variants/lock.js';
import { runVariants } from '../../../src/variants/run.js';
import { writeContactSheet } from '../../../src/variants/sheet/contact-sheet.js';
import { writeReview } from '../../../src/variants/sheet/review.js';
import { tempDir } from '../../helpers/tmp.js';
import { tinyCorpus } from '../helpers.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(7) });

let out: string;
let records: EntryRecord[];
const opts = { cell: 48, title: 'test', compression: 6 };

beforeAll(async () => {
  const corpus = await tinyCorpus(
    [
      ['one', 'horse.png'],
      ['two', 'astronaut.png'],
    ],
    48,
  );
  out = await tempDir('stimkit-sheet-fail-');
  const r = await runVariants(corpus.manifest, { out, only: ['A2'], jobs: 1 });
  records = r.lock.entries;
  // the second entry's A2 image is damaged after the run: drawing its page fails
  const two = records.find((e) => e.id === 'two')!;
  const file = two.variants.find((v) => v.code === 'A2')!.file!;
  await writeFile(path.join(out, file), 'not a png');
});

describe('sheets drawn in full before they are written', () => {
  it('a contact sheet failing on page 2 leaves page 1 as it was', async () => {
    await writeFile(path.join(out, 'contact-sheet.png'), 'earlier page 1');
    await writeFile(path.join(out, 'contact-sheet-2.png'), 'earlier page 2');
    await expect(
      writeContactSheet(records, ['A0', 'A2'], out, { ...opts, perPage: 1 }),
    ).rejects.toThrow();
    expect(await readFile(path.join(out, 'contact-sheet.png'), 'utf8')).toBe('earlier page 1');
    expect(await readFile(path.join(out, 'contact-sheet-2.png'), 'utf8')).toBe('earlier page 2');
  });

  it('a review sheet that fails leaves the earlier review pages in place', async () => {
    const warning = { code: 'W', message: 'm', value: 0, threshold: 1, fix: 'f' };
    const warned = records.map((e) => ({
      ...e,
      variants: e.variants.map((v) => (v.code === 'A2' ? { ...v, warnings: [warning] } : v)),
    }));
    await writeFile(path.join(out, 'review.png'), 'earlier review');
    await expect(writeReview(warned, out, opts)).rejects.toThrow();
    expect(await readFile(path.join(out, 'review.png'), 'utf8')).toBe('earlier review');
  });
});
