// The one reader of scores folders (src/score/read.ts): every problem carries the caller's code and
// names the file (and line); a file is read only when it matches the sha256 score.json records.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StimkitError } from '../../src/core/errors.js';
import { sha256 } from '../../src/core/fsio.js';
import { openScores } from '../../src/score/read.js';
import { tempDir } from '../helpers/tmp.js';

/** A scores folder whose score.json lists `files` (with their sha256) and holds `header` changes. */
async function folder(
  files: Record<string, string>,
  header: Record<string, unknown> = {},
): Promise<string> {
  const dir = await tempDir('stimkit-score-read-');
  for (const [f, text] of Object.entries(files)) await writeFile(path.join(dir, f), text);
  const json = {
    format: 'stimkit.scores',
    version: 1,
    tool: { name: 'stimkit', version: '0.1.0' },
    bundle: { digest: 'a'.repeat(64), study: null },
    inputs: [],
    params: { source: 'responses', run: null, csv: 'safe', scorers: {} },
    counts: { records: 0, simulated: 0, models: [], by_paradigm: {}, by_reason: {}, unscored: {} },
    files: Object.entries(files).map(([file, text]) => ({ file, rows: 0, sha256: sha256(text) })),
    ...header,
  };
  await writeFile(path.join(dir, 'score.json'), JSON.stringify(json));
  return dir;
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a StimkitError');
    },
    (e: unknown) => {
      expect(e).toBeInstanceOf(StimkitError);
      return e as StimkitError;
    },
  );

describe('openScores', () => {
  it('gives the header, its sha256 and the listed files checked against theirs', async () => {
    const dir = await folder({ 'scores.jsonl': '', 'trials.csv': 'trial,model\n' });
    const s = await openScores(dir, 'E_TEST');
    expect(s.header.bundle.digest).toBe('a'.repeat(64));
    expect(await s.required('trials.csv')).toBe('trial,model\n');
    expect(await s.listed('audit.csv')).toBeNull();
    expect(await s.lines()).toEqual([]);
    await writeFile(path.join(dir, 'trials.csv'), 'trial,model\nt,m\n');
    const changed = await failure(s.required('trials.csv'));
    expect(changed.code).toBe('E_TEST');
    expect(changed.message).toMatch(/trials\.csv.*does not match the sha256 score\.json records/);
    const unlisted = await failure(s.required('audit.csv'));
    expect(unlisted.message).toMatch(/audit\.csv.*score\.json lists no audit\.csv/);
  });

  it("carries the caller's code for a header that is not one, naming the field", async () => {
    const dir = await folder({}, { version: 2 });
    const e = await failure(openScores(dir, 'E_RELEASE_SCORES'));
    expect(e.code).toBe('E_RELEASE_SCORES');
    expect(e.problems[0]).toMatchObject({ field: 'version' });
    const none = await failure(openScores(path.join(dir, 'nowhere'), 'E_COMPARE_SCORES'));
    expect(none.code).toBe('E_COMPARE_SCORES');
    expect(none.message).toContain('not a scores folder');
  });

  it('checks every line of scores.jsonl, naming the line', async () => {
    const dir = await folder({ 'scores.jsonl': '\n{"trial": "t"}\n' });
    const e = await failure((await openScores(dir, 'E_TEST')).lines());
    expect(e.problems[0]).toMatchObject({ line: 2 });
    expect(e.message).toContain('not a scores line');
    const notJson = await folder({ 'scores.jsonl': 'nope\n' });
    const j = await failure((await openScores(notJson, 'E_TEST')).lines());
    expect(j.problems[0]).toMatchObject({ line: 1, message: 'not JSON' });
  });
});
