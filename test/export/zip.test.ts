/**
 * The ZIP writer of the Inspect logs: a long string that recurs across entries (an image's data
 * URL) is deflated once and its piece spliced into each entry's DEFLATE stream. The archive must
 * still read back exactly through zlib (the inflater Inspect's Python reader uses), whatever bit
 * a piece ends on, and be the same bytes on every run.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openZip, PieceCache, type Recurring } from '../../src/export/zip.js';
import { unzipEntries } from './schema.js';
import { tempDir } from '../helpers/tmp.js';

/** Base64-like text from a fixed generator (incompressible runs, as in an image's data URL). */
function pseudoBase64(n: number, seed: number): string {
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let x = seed;
  let s = 'data:image/png;base64,';
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    s += abc[x >>> 26];
  }
  return s;
}

/** Write `entries` (name → content) sharing `shared`, into a new archive; its bytes. */
async function write(
  dir: string,
  file: string,
  entries: Array<[string, string]>,
  shared: string[],
  cache = new PieceCache(),
) {
  const zip = await openZip(path.join(dir, file), cache);
  for (const [name, content] of entries) await zip.add(name, content, shared);
  await zip.close();
  return readFile(path.join(dir, file));
}

describe('openZip with shared strings', () => {
  it('reads back through zlib, CRC-32 and size checked, whatever bit each piece ends on', async () => {
    const dir = await tempDir('stimkit-zip-');
    const images = [pseudoBase64(40_000, 1), pseudoBase64(3_001, 2)];
    // prefixes of 0..23 characters of varied text put the pieces' ends on every bit position
    const entries: Array<[string, string]> = [];
    for (let k = 0; k < 24; k++) {
      const text = `{"id":"s${k}","t":"${'ab€ '.repeat(k)}",`;
      const both = `"attachments":{"a":"${images[0]}","b":"${images[1]}"}}`;
      entries.push([`samples/${k}.json`, k % 3 === 0 ? `${images[1]}${text}${both}` : text + both]);
    }
    entries.push(['plain.json', '{"no":"shared string"}']);
    const bytes = await write(dir, 'a.zip', entries, images);
    const back = unzipEntries(bytes);
    expect([...back.keys()]).toEqual(entries.map(([n]) => n));
    for (const [name, content] of entries)
      expect(back.get(name)!.toString('utf8'), name).toBe(content);
    // the same entries again: the same bytes
    expect((await write(dir, 'b.zip', entries, images)).equals(bytes)).toBe(true);
    // and with a cache too small to keep a piece (each one made again, as in a study with more
    // images than the cache holds): still the same bytes
    const tiny = new PieceCache(1000);
    expect((await write(dir, 'c.zip', entries, images, tiny)).equals(bytes)).toBe(true);
  });

  it('writes an entry given in parts, a recurring string apart, as the same bytes as the whole text', async () => {
    const dir = await tempDir('stimkit-zip-');
    const image = pseudoBase64(5_000, 3);
    const other = pseudoBase64(700, 4);
    // the image at the start, in the middle and at the end of an entry (whose CRC-32 was once
    // written as 0); the other image found in the text around it
    const partsOf: Array<Array<string | Recurring>> = [
      [{ recurring: image }, '","t":"x"}'],
      ['{"a":"', { recurring: image }, `","b":"${other}","€":1}`],
      [`{"b":"${other}","a":"`, { recurring: image }],
      // two in a row: an empty run between them
      ['{"a":"', { recurring: image }, { recurring: image }, '"}'],
    ];
    const text = (parts: Array<string | Recurring>) =>
      parts.map((p) => (typeof p === 'string' ? p : p.recurring)).join('');
    const entries = partsOf.map((parts, k): [string, string] => [`s${k}.json`, text(parts)]);
    const whole = await write(dir, 'whole.zip', entries, [image, other]);
    const zip = await openZip(path.join(dir, 'parts.zip'));
    for (const [k, parts] of partsOf.entries()) await zip.add(`s${k}.json`, parts, [other]);
    await zip.close();
    const bytes = await readFile(path.join(dir, 'parts.zip'));
    expect(bytes.equals(whole)).toBe(true);
    const back = unzipEntries(bytes);
    for (const [name, content] of entries) expect(back.get(name)!.toString('utf8')).toBe(content);
  });

  it('deflates a shared string once: its piece is the same bytes in every entry holding it', async () => {
    const dir = await tempDir('stimkit-zip-');
    const image = pseudoBase64(20_000, 7);
    const entries: Array<[string, string]> = [
      ['one.json', `{"x":1,"a":"${image}"}`],
      ['two.json', `{"a longer, other prefix":[1,2,3],"a":"${image}","tail":true}`],
    ];
    const bytes = await write(dir, 'c.zip', entries, [image]);
    // the piece of the image in the first entry's data (past its short prefix) recurs in the second
    const probe = bytes.subarray(200, 1200);
    const first = bytes.indexOf(probe);
    expect(first).toBeGreaterThan(0);
    expect(bytes.indexOf(probe, first + 1)).toBeGreaterThan(first);
  });
});

describe('openZip limits', () => {
  it('refuses an entry past what a ZIP without ZIP64 records holds (E_EXPORT_ZIP_LIMIT)', async () => {
    const dir = await tempDir('stimkit-zip-');
    const zip = await openZip(path.join(dir, 'count.zip'), undefined, { entries: 2, bytes: 1e9 });
    await zip.add('a.json', '{}');
    await zip.add('b.json', '{}');
    await expect(zip.add('c.json', '{}')).rejects.toMatchObject({
      code: 'E_EXPORT_ZIP_LIMIT',
      problems: [expect.objectContaining({ expected: 'at most 2 entries' })],
    });
    await zip.abort();
    const big = await openZip(path.join(dir, 'bytes.zip'), undefined, { entries: 9, bytes: 100 });
    await expect(big.add('a.txt', pseudoBase64(1000, 3))).rejects.toMatchObject({
      code: 'E_EXPORT_ZIP_LIMIT',
    });
    await big.abort();
  });
});
