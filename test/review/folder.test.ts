/**
 * `stimkit review --out`: the page and the CSV are swapped in together; a folder review did not
 * write is refused untouched; a failed review leaves the earlier one byte for byte; manifest text
 * a spreadsheet would run as a formula is neutralised in entries.csv (raw with --csv-raw) and
 * shown as text on the page.
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { HOSTILE } from '../helpers/hostile.js';
import { folderBytes } from '../helpers/snapshot.js';
import { tempDir } from '../helpers/tmp.js';

let dir: string;
let manifest: string;

beforeAll(async () => {
  dir = await tempDir('stimkit-review-folder-');
  await copyFile(path.join(ROOT, 'corpora', 'demo', 'rocket.jpg'), path.join(dir, 'rocket.jpg'));
  manifest = path.join(dir, 'x.entries.yaml');
  const credit = JSON.stringify(HOSTILE[0]);
  await writeFile(
    manifest,
    [
      'format: stimkit.entries',
      'version: 1',
      'corpus: trial',
      'languages: [en, zh]',
      'entries:',
      `  - {id: rocket, title: {en: A rocket, zh: 火箭}, topic: space, sensitivity: high, roles: [core], image: {file: rocket.jpg}, provenance: {archive: x, credit: ${credit}, license: CC0-1.0}, expected_facts: [{id: f1, en: It is a rocket., zh: 这是火箭。}]}`,
    ].join('\n'),
  );
});

const credits = async (out: string) =>
  parse<Record<string, string>>(await readFile(path.join(out, 'entries.csv'), 'utf8'), {
    columns: true,
  }).map((r) => r.credit);

describe('stimkit review --out', () => {
  it('neutralises formulas in entries.csv, keeps them raw with --csv-raw', async () => {
    const out = path.join(dir, 'review');
    expect((await runCli(['review', manifest, '--out', out])).code).toBe(0);
    expect(await credits(out)).toEqual([`'${HOSTILE[0]}`]);
    const raw = path.join(dir, 'review-raw');
    expect((await runCli(['review', manifest, '--out', raw, '--csv-raw'])).code).toBe(0);
    expect(await credits(raw)).toEqual([HOSTILE[0]]);
  });

  it('a failed review leaves the earlier one byte for byte', async () => {
    const out = path.join(dir, 'review-b');
    expect((await runCli(['review', manifest, '--out', out])).code).toBe(0);
    const before = await folderBytes(out);
    const bad = path.join(dir, 'bad.entries.yaml');
    await writeFile(bad, 'format: stimkit.entries\nversion: 1\nentries: [{id: 1}]\n');
    expect((await runCli(['review', bad, '--out', out])).code).toBe(1);
    expect(await folderBytes(out)).toEqual(before);
  });

  it('refuses a folder holding other files, and leaves it as it was', async () => {
    const out = path.join(dir, 'mine');
    await mkdir(out);
    await writeFile(path.join(out, 'index.html'), 'my page');
    await writeFile(path.join(out, 'photo.jpg'), 'x');
    const r = await runCli(['review', manifest, '--out', out, '--json']);
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('E_OUT_NOT_OURS');
    expect(await folderBytes(out)).toEqual({
      'index.html': Buffer.from('my page').toString('base64'),
      'photo.jpg': Buffer.from('x').toString('base64'),
    });
  });

  it('refuses a folder holding only a page and a CSV of the same names but no review.json', async () => {
    const out = path.join(dir, 'site');
    await mkdir(out);
    await writeFile(path.join(out, 'index.html'), '<h1>My lab</h1>');
    await writeFile(path.join(out, 'entries.csv'), 'id\nmine\n');
    const before = await folderBytes(out);
    const r = await runCli(['review', manifest, '--out', out, '--json']);
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('E_OUT_NOT_OURS');
    expect(r.json().error.message).toContain('review.json: missing');
    expect(await folderBytes(out)).toEqual(before);
  });

  it('writes review.json listing the page and the CSV, and replaces its own folder', async () => {
    const out = path.join(dir, 'review-own');
    expect((await runCli(['review', manifest, '--out', out])).code).toBe(0);
    const before = await folderBytes(out);
    const header = JSON.parse(await readFile(path.join(out, 'review.json'), 'utf8'));
    expect(header).toMatchObject({ format: 'stimkit.review', version: 1, kind: 'entries' });
    expect(header.inputs[0].file).toBe('../x.entries.yaml');
    expect(header.files.map((f: { file: string }) => f.file)).toEqual([
      'index.html',
      'entries.csv',
    ]);
    expect((await runCli(['review', manifest, '--out', out])).code).toBe(0);
    expect(await folderBytes(out)).toEqual(before);
  });
});
