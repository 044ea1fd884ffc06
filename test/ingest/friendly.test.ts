// Friendlier ingest errors where a guess is cheap: the closest known field for a misspelt one, the
// closest file for a missing image, and a missing images folder said once at the `images` field.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { corpusWith, entry, writeManifest } from './fixtures.js';
import { closest, editDistance } from '../../src/core/suggest.js';

describe('suggestions', () => {
  it('finds likely typos and nothing for unrelated names', () => {
    expect(editDistance('licence', 'license')).toBe(1);
    expect(closest('licence', ['archive', 'license', 'credit'])).toBe('license');
    expect(closest('expected_fact', ['expected_facts', 'anchor'])).toBe('expected_facts');
    expect(closest('zzzzzz', ['license', 'credit'])).toBeUndefined();
  });
});

describe('ingest problems that suggest the fix', () => {
  it('an unknown field names the closest known one (licence → license)', async () => {
    const dir = await corpusWith('coffee.png');
    const manifest = await writeManifest(dir, [
      entry('a', 'coffee.png', { provenance: { archive: 'x', credit: 'y', licence: 'CC0-1.0' } }),
    ]);
    const run = await runCli(['ingest', manifest, '--json']);
    expect(run.code).toBe(1);
    const p = run.json().error.problems[0];
    expect(p).toMatchObject({
      code: 'E_INGEST_SCHEMA',
      field: 'entries[0].provenance',
      line: expect.any(Number),
    });
    expect(p.fix).toContain('rename "licence" to "license"');
  });

  it('a missing image names the closest file in its folder', async () => {
    const dir = await corpusWith('rocket.jpg', 'coffee.png');
    const manifest = await writeManifest(dir, [entry('a', 'rocket.jpeg'), entry('b', 'cofee.png')]);
    const run = await runCli(['ingest', manifest, '--json']);
    expect(run.code).toBe(1);
    const fix = (id: string) =>
      run.json().problems.find((p: { entry: string }) => p.entry === id).fix;
    expect(fix('a')).toContain('did you mean "rocket.jpg"?');
    expect(fix('b')).toContain('did you mean "coffee.png"?');
  });

  it('a missing images folder is one problem at the images field, not one per entry', async () => {
    const dir = await tempDir();
    const manifest = await writeManifest(
      dir,
      [entry('a', 'a.png'), entry('b', 'b.png'), entry('c', 'c.png')],
      { images: 'no-such-folder' },
    );
    const run = await runCli(['ingest', manifest, '--json']);
    expect(run.code).toBe(1);
    const problems = run.json().problems;
    expect(problems.map((p: { code: string }) => p.code)).toEqual(['E_INGEST_IMAGES_ROOT']);
    expect(problems[0]).toMatchObject({
      file: manifest,
      field: 'images',
      line: expect.any(Number),
    });
    expect(problems[0].message).toContain(path.join(dir, 'no-such-folder').split(path.sep).pop());
  });
});
