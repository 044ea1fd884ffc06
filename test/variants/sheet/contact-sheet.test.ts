/** The contact sheet: grid geometry, labels from the built-in font, failed cells marked, same bytes on a rerun. */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { FONT, textPath, textWidth } from '../../../src/variants/sheet/font.js';
import { runVariants } from '../../../src/variants/run.js';
import { tempDir } from '../../helpers/tmp.js';
import { sha, tinyCorpus } from '../helpers.js';

describe('font', () => {
  it('draws lit runs as rectangles, unknown characters as ?', () => {
    expect(textPath('-', 10, 20, 2)).toBe('M12 28h6v2h-6z');
    expect(textPath('\u00e9', 0, 0, 1)).toBe(textPath('?', 0, 0, 1));
    expect(textWidth('A0 original', 2)).toBe(11 * FONT.advance * 2);
  });
});

describe('contact sheet', () => {
  it('is a labelled grid with failed cells marked in red, identical on a rerun', async () => {
    const corpus = await tinyCorpus([
      ['one', 'astronaut.png'],
      ['two', 'horse.png'],
    ]);
    const out = await tempDir();
    const unavailable = {
      available: () => Promise.resolve({ ok: false, reason: 'not installed' }),
      create: () => Promise.reject(new Error('unused')),
    };
    const r = await runVariants(corpus.manifest, {
      out,
      only: ['A0', 'A3', 'A6'],
      segmenterFactory: unavailable,
      jobs: 1,
    });
    const page = r.lock.contact_sheets[0]!;
    // 3 columns of 192 px with 8 px gaps; title, header, gap, then two rows of label + cell + gap
    expect([page.width, page.height]).toEqual([8 + 3 * 200, 56 + 2 * (24 + 192 + 8) + 8]);
    const { data, info } = await sharp(path.join(out, page.file))
      .raw()
      .toBuffer({ resolveWithObject: true });
    const px = (x: number, y: number) => [
      ...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3),
    ];
    let red = 0;
    let dark = 0;
    for (let i = 0; i < data.length; i += 3) {
      if (data[i] === 0xb0 && data[i + 1] === 0x00 && data[i + 2] === 0x20) red++;
      if (data[i] === 0x11 && data[i + 1] === 0x11 && data[i + 2] === 0x11) dark++;
    }
    expect(red).toBeGreaterThan(50); // "failed" in both A6 cells
    expect(dark).toBeGreaterThan(500); // title, headers, entry ids
    expect(px(8 + 2 * 200 + 2, 56 + 24 + 2)).toEqual([0xd4, 0xd4, 0xd4]); // A6 cell background
    const first = sha(await readFile(path.join(out, page.file)));
    await runVariants(corpus.manifest, {
      out,
      only: ['A0', 'A3', 'A6'],
      segmenterFactory: unavailable,
      jobs: 1,
    });
    expect(sha(await readFile(path.join(out, page.file)))).toBe(first);
  });

  it('is drawn again only when something it shows changed, or its file no longer matches the lock', async () => {
    const corpus = await tinyCorpus([['one', 'horse.png']], 48);
    const out = await tempDir();
    const r = await runVariants(corpus.manifest, { out, only: ['A2'], jobs: 1 });
    const file = path.join(out, 'contact-sheet.png');
    const good = await readFile(file);
    const lockText = await readFile(r.lockFile, 'utf8');
    // a damaged sheet is redrawn; the lock stays as it was
    await writeFile(file, 'damaged');
    const again = await runVariants(corpus.manifest, { out, only: ['A2'], jobs: 1 });
    expect((await readFile(file)).equals(good)).toBe(true);
    expect([again.lockWritten, again.retiredLocks]).toEqual([false, []]);
    // a sheet the lock vouches for, in a lock that would not change, is not drawn again
    const other = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    await writeFile(file, other);
    await writeFile(r.lockFile, lockText.replace(sha(good), sha(other)));
    await runVariants(corpus.manifest, { out, only: ['A2'], jobs: 1 });
    expect((await readFile(file)).equals(other)).toBe(true);
    // another selection changes what it shows: drawn again, and the old lock moved aside first
    const more = await runVariants(corpus.manifest, { out, only: ['A2', 'A4'], jobs: 1 });
    expect(sha(await readFile(file))).toBe(more.lock.contact_sheets[0]!.sha256);
    expect(more.retiredLocks).toEqual(['variants.lock.json']);
  });
});
