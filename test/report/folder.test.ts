/**
 * A failed `stimkit report` never destroys an earlier report: the folder is built aside and
 * swapped in whole. Here the second report fails part-way (a table of the scores folder changed
 * after scoring, found when a section reads it); the earlier report stays byte for byte. A
 * folder report did not write is refused, untouched.
 */
import { appendFile, cp, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { writeReport } from '../../src/report/folder.js';
import { netSwingSection } from '../../src/report/sections/net-swing.js';
import { overviewSection } from '../../src/report/sections/overview.js';
import { runCli } from '../helpers/cli.js';
import { folderBytes, siblings } from '../helpers/snapshot.js';
import { tempDir } from '../helpers/tmp.js';
import { bundleTrials, instrumentBundle } from '../score/fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(7) });

/**
 * The report of the first test: two sections, built in-process as `stimkit report` builds its
 * folder (writeReport). The overview writes its tables from scores.jsonl before the net-swing
 * section reads instrument.csv and draws a chart, so a changed instrument.csv still fails the
 * report part-way, with files already written; what is tested is the folder's swap, which does
 * not depend on how many sections there are (a full report costs several times the CPU).
 */
const SECTIONS = [overviewSection, netSwingSection];

let dir: string;
let scores: string;

beforeAll(async () => {
  dir = await tempDir('stimkit-report-folder-');
  const fx = await instrumentBundle(dir, { iterations: 1, ptIterations: 0 });
  const trials = await bundleTrials(fx.bundle);
  const answers = ['Strongly agree', 'Agree', 'Disagree', 'Strongly disagree'];
  const lines = ['a', 'b'].flatMap((model, m) =>
    trials.map((t, i) =>
      JSON.stringify({ trial_id: t.id, model, response: answers[(i + m) % 4], simulated: true }),
    ),
  );
  await writeFile(path.join(dir, 'responses.jsonl'), `${lines.join('\n')}\n`);
  scores = path.join(dir, 'scores');
  const r = await runCli([
    'score',
    '--bundle',
    fx.bundle,
    '--responses',
    path.join(dir, 'responses.jsonl'),
    '--out',
    scores,
  ]);
  expect(r.code, r.stderr).toBe(0);
});

describe('report writes its folder whole', () => {
  it('a report failing part-way leaves the earlier report byte for byte', async () => {
    const out = path.join(dir, 'report');
    await writeReport(scores, out, SECTIONS);
    const before = await folderBytes(out);
    expect(Object.keys(before)).toContain('report.json');
    expect(Object.keys(before).some((f) => f.startsWith('charts/'))).toBe(true);
    const changed = path.join(dir, 'scores-changed');
    await cp(scores, changed, { recursive: true });
    await appendFile(path.join(changed, 'instrument.csv'), '\n');
    await expect(writeReport(changed, out, SECTIONS)).rejects.toMatchObject({
      code: 'E_REPORT_SCORES',
    });
    expect(await folderBytes(out)).toEqual(before);
    expect((await siblings(out)).filter((n) => n.includes('.tmp-'))).toEqual([]);
    // and a report that succeeds replaces it whole
    await writeReport(scores, out, SECTIONS);
    expect(await folderBytes(out)).toEqual(before);
  });

  it('refuses a folder it did not write, and leaves it as it was', async () => {
    const out = path.join(dir, 'mine');
    await mkdir(path.join(out, 'charts'), { recursive: true });
    await writeFile(path.join(out, 'charts', 'my-chart.svg'), '<svg/>');
    const r = await runCli(['report', scores, '--out', out, '--json']);
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('E_OUT_NOT_OURS');
    expect(Object.keys(await folderBytes(out))).toEqual(['charts/my-chart.svg']);
  });

  it('refuses a lone index.html without report.json, and leaves it as it was', async () => {
    const out = path.join(dir, 'site');
    await mkdir(out);
    await writeFile(path.join(out, 'index.html'), '<h1>My lab</h1>');
    const r = await runCli(['report', scores, '--out', out, '--json']);
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('E_OUT_NOT_OURS');
    expect(r.json().error.message).toContain('report.json: missing');
    expect(await folderBytes(out)).toEqual({
      'index.html': Buffer.from('<h1>My lab</h1>').toString('base64'),
    });
  });
});
