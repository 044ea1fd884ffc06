/**
 * The report writer writes its files one after another in the order they are given, while the
 * report goes on: a chart's PNG may still be drawing when the next chart's files are given, yet
 * `files` (report.json's list) keeps the order given, and a failure reaches the page's write.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReportWriter } from '../../src/report/writer.js';
import { tempDir } from '../helpers/tmp.js';

const writer = async () => {
  const dir = await tempDir('stimkit-report-writer-');
  return { dir, out: new ReportWriter(dir, () => false, false) };
};

describe('ReportWriter', () => {
  it('writes in the order given, though an earlier file is still being made', async () => {
    const { dir, out } = await writer();
    let finish!: (b: Buffer) => void;
    const png = new Promise<Buffer>((resolve) => (finish = resolve));
    void out.write('charts/a.png', png);
    const csv = out.write('tables/a.csv', 'x\n');
    await new Promise((resolve) => setTimeout(resolve, 20));
    // the table waits for the PNG before it
    expect(out.files).toEqual([]);
    expect(existsSync(path.join(dir, 'tables', 'a.csv'))).toBe(false);
    finish(Buffer.from('png bytes'));
    await csv;
    expect(out.files.map((f) => f.file)).toEqual(['charts/a.png', 'tables/a.csv']);
    expect(await readFile(path.join(dir, 'charts', 'a.png'), 'utf8')).toBe('png bytes');
  });

  it('fails the writes after a failed one (the page), and waits for them before passing a failure on', async () => {
    const { out } = await writer();
    void out.write('charts/b.png', Promise.reject(new Error('drawing failed')));
    await expect(out.write('index.html', '<p>')).rejects.toThrow('drawing failed');
    expect(out.files).toEqual([]);
    let written = false;
    void out.write('tables/late.csv', 'y\n');
    const made = out.whileWriting(() => {
      void out.write('tables/c.csv', 'z\n').catch(() => (written = true));
      return Promise.reject(new Error('section failed'));
    });
    await expect(made).rejects.toThrow('section failed');
    // the queued write has settled (here: failed after the first failure) before the rejection
    expect(written).toBe(true);
  });
});
