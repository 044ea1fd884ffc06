/**
 * A failed `stimkit score` never destroys earlier results: the folder is built aside and swapped
 * in whole, so a score that fails (a bundle changed after sealing, refused when it is opened; a bad
 * line at the end of the responses, found part-way) leaves the previous folder byte for byte. A folder score did not write is refused, untouched. Text cells a spreadsheet would
 * run as formulas are neutralised in the CSV tables, kept raw in scores.jsonl, and `--csv-raw`
 * writes them as they are.
 */
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { runCli } from '../helpers/cli.js';
import { HOSTILE } from '../helpers/hostile.js';
import { folderBytes, siblings } from '../helpers/snapshot.js';
import { tempDir } from '../helpers/tmp.js';
import { bundleTrials, instrumentBundle, type InstrumentFixture } from './fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(7) });

let fx: InstrumentFixture;
let dir: string;
let responses: string;

beforeAll(async () => {
  dir = await tempDir('stimkit-score-folder-');
  fx = await instrumentBundle(dir, { iterations: 1, ptIterations: 0 });
  const trials = await bundleTrials(fx.bundle);
  const lines = trials.flatMap((t, i) => [
    JSON.stringify({ trial_id: t.id, model: 'plain', response: 'Agree' }),
    JSON.stringify({ trial_id: t.id, model: HOSTILE[i % HOSTILE.length], response: 'Disagree' }),
  ]);
  responses = path.join(dir, 'responses.jsonl');
  await writeFile(responses, `${lines.join('\n')}\n`);
});

const score = (out: string, ...extra: string[]) =>
  runCli(['score', '--bundle', fx.bundle, '--responses', responses, '--out', out, ...extra]);

describe('score writes its folder whole', () => {
  it('a score failing on a bundle changed after sealing (bundle.json) leaves the earlier folder byte for byte', async () => {
    const out = path.join(dir, 'scores-a');
    expect((await score(out)).code).toBe(0);
    const before = await folderBytes(out);
    expect(Object.keys(before)).toEqual([
      'instrument.csv',
      'reasoning.csv',
      'score.json',
      'scores.jsonl',
      'trials.csv',
    ]);
    // a copy of the bundle whose bundle.json no longer matches its manifest
    const bad = path.join(dir, 'bundle-bad');
    await cp(fx.bundle, bad, { recursive: true });
    const header = path.join(bad, 'data', 'bundle.json');
    await writeFile(header, (await readFile(header, 'utf8')).replace('instrument', 'instrumenT'));
    // other answers, so that tables written before the failure would differ from the earlier ones
    const other = path.join(dir, 'other.jsonl');
    await writeFile(other, (await readFile(responses, 'utf8')).replaceAll('"Agree"', '"Disagree"'));
    const r = await runCli([
      'score',
      '--bundle',
      bad,
      '--responses',
      other,
      '--out',
      out,
      '--json',
    ]);
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('E_SCORE_BUNDLE');
    expect(await folderBytes(out)).toEqual(before);
    expect((await siblings(out)).filter((n) => n.includes('.tmp-'))).toEqual([]);
  });

  it('a bad line at the end of the responses leaves the earlier folder byte for byte', async () => {
    const out = path.join(dir, 'scores-b');
    expect((await score(out)).code).toBe(0);
    const before = await folderBytes(out);
    const bad = path.join(dir, 'bad.jsonl');
    await writeFile(bad, `${await readFile(responses, 'utf8')}{"trial_id": "t_x"}\n`);
    const r = await runCli(['score', '--bundle', fx.bundle, '--responses', bad, '--out', out]);
    expect(r.code).toBe(1);
    expect(await folderBytes(out)).toEqual(before);
  });

  it('refuses a folder it did not write, naming the file, and leaves it as it was', async () => {
    const out = path.join(dir, 'notes');
    await mkdir(out);
    await writeFile(path.join(out, 'notes.txt'), 'keep me');
    await writeFile(path.join(out, 'trials.csv'), 'mine');
    const r = await runCli([
      'score',
      '--bundle',
      fx.bundle,
      '--responses',
      responses,
      '--out',
      out,
      '--json',
    ]);
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('E_OUT_NOT_OURS');
    expect(r.stderr).toContain('notes.txt');
    expect(await folderBytes(out)).toEqual({
      'notes.txt': Buffer.from('keep me').toString('base64'),
      'trials.csv': Buffer.from('mine').toString('base64'),
    });
  });

  it('replaces its own folder, dropping a table the new scores no longer have', async () => {
    const out = path.join(dir, 'scores-c');
    expect((await score(out)).code).toBe(0);
    await writeFile(path.join(out, 'audit.csv'), 'from an earlier audit');
    expect((await score(out)).code).toBe(0);
    expect(Object.keys(await folderBytes(out))).not.toContain('audit.csv');
  });
});

describe('formulas in the CSV tables', () => {
  it('are neutralised in trials.csv and instrument.csv, raw in scores.jsonl; --csv-raw keeps them', async () => {
    const out = path.join(dir, 'scores-hostile');
    expect((await score(out)).code).toBe(0);
    const models = (file: string, raw = false) => {
      const rows = parse<Record<string, string>>(file, { columns: true });
      return new Set(rows.map((r) => r.model).filter((m) => raw || m !== 'plain'));
    };
    for (const table of ['trials.csv', 'instrument.csv']) {
      const got = models(await readFile(path.join(out, table), 'utf8'));
      expect(got, table).toEqual(new Set(HOSTILE.map((h) => `'${h}`)));
    }
    const jsonl = (await readFile(path.join(out, 'scores.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { model: string }).model);
    expect(new Set(jsonl)).toEqual(new Set(['plain', ...HOSTILE]));
    expect(JSON.parse(await readFile(path.join(out, 'score.json'), 'utf8')).params.csv).toBe(
      'safe',
    );

    const raw = path.join(dir, 'scores-raw');
    expect((await score(raw, '--csv-raw')).code).toBe(0);
    const got = models(await readFile(path.join(raw, 'trials.csv'), 'utf8'));
    expect(got).toEqual(new Set(HOSTILE));
    expect(JSON.parse(await readFile(path.join(raw, 'score.json'), 'utf8')).params.csv).toBe('raw');
  });

  it('every table carries a simulated column', async () => {
    const out = path.join(dir, 'scores-a');
    for (const table of ['trials.csv', 'instrument.csv']) {
      const [header] = parse(await readFile(path.join(out, table), 'utf8'), {
        to: 1,
      });
      expect(header, table).toContain('simulated');
    }
  });
});
