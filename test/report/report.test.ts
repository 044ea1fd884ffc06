/**
 * `stimkit report` on the scores of simulated respondents: one self-contained page (no scripts,
 * nothing fetched), every chart as SVG + PNG + spec + CSV, every chart and table stating n and its
 * interval method, the bundle digest, source and tool version named, simulated data marked, and
 * the same bytes on a rebuild.
 */
import { appendFile, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import sharp from 'sharp';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { buildReport } from '../../src/report/build.js';
import { shiftSentence } from '../../src/report/sections/language-shift.js';
import { oneSampleT } from '../../src/stats/index.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import {
  expectChartDetails,
  expectDescribedTables,
  expectReadableCharts,
  expectSimulatedCharts,
  expectSimulatedColumn,
} from './checks.js';
import { RESPONDENTS, respondentScores } from './fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 126 s a test, 180 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(7), hookTimeout: heavyLimit(10) });

/** A CSV's rows as objects. */
const rowsOf = (text: string) => parse<Record<string, string>>(text, { columns: true });

let dir: string;
let scores: string;
let digest: string;

beforeAll(async () => {
  dir = await tempDir('stimkit-report-');
  ({ scores, digest } = await respondentScores(dir, RESPONDENTS, {
    iterations: 4,
    ptIterations: 1,
  }));
});

describe('stimkit report', () => {
  let out: string;
  let html: string;
  beforeAll(async () => {
    out = path.join(dir, 'report');
    const r = await runCli(['report', scores, '--out', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().sections).toEqual([
      'key-results',
      'overview',
      'instrument-net-swing',
      'instrument-language',
      'instrument-topics',
      'instrument-abstention',
      'instrument-tests',
      'instrument-arms',
    ]);
    html = await readFile(path.join(out, 'index.html'), 'utf8');
  });

  it('is one self-contained page: inline SVG, no scripts, nothing fetched', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/(src|href)="https?:/i);
    expect(html).not.toMatch(/@import|url\(http/i);
    // 4 charts, each also in its phone layout (shown instead on a narrow window)
    expect((html.match(/<svg/g) ?? []).length).toBe(8);
    expect(
      (html.match(/<div class="phone"><div class="wide" id="chart-[a-z-]+-phone"/g) ?? []).length,
    ).toBe(4);
  });

  it('names the bundle digest, the responses file, the tool version and marks simulated data', () => {
    expect(html).toContain(digest);
    expect(html).toContain('responses.jsonl');
    expect(html).toMatch(/stimkit \d+\.\d+\.\d+/);
    expect(html).toContain('SIMULATED DATA');
    // 4 charts; tables: the key results' net bias, overview, per-model tests, origin comparisons,
    // variance partition and summary; net bias and stance per language of each of two arms; the
    // per-arm section: three tables for each of two arms
    expect((html.match(/<b>Simulated data\.<\/b>/g) ?? []).length).toBe(4 + 1 + 5 + 4 + 6);
  });

  it('states n and the interval method under every chart and table', () => {
    const captions = [
      ...html.matchAll(
        /<figcaption>([\s\S]*?)<\/figcaption>|<div class="caption">([\s\S]*?)<\/div>/g,
      ),
    ].map((m) => m[1] ?? m[2]!);
    expect(captions.length).toBe(9 + 1 + 4 + 6); // + key results, per-language and per-arm tables
    for (const c of captions) {
      expect(c).toMatch(/n = /);
      expect(c).toMatch(/CI|interval|Wilson|Holm|no intervals|Counts|descriptive/i);
    }
  });

  it('writes SVG, PNG, spec and CSV for every chart, with a CJK font family', async () => {
    const charts = (await readdir(path.join(out, 'charts'))).sort();
    expect(charts.filter((f) => f.endsWith('.svg'))).toEqual([
      'abstention-topic.svg',
      'language-slopegraph.svg',
      'net-vs-swing.svg',
      'stance-topic-origin.svg',
    ]);
    for (const f of charts.filter((x) => x.endsWith('.png'))) {
      const meta = await sharp(path.join(out, 'charts', f)).metadata();
      expect(meta.format).toBe('png');
      expect(meta.width).toBeGreaterThan(300);
    }
    expect(await readFile(path.join(out, 'charts', 'net-vs-swing.svg'), 'utf8')).toContain(
      'Noto Sans CJK SC',
    );
    const tables = await readdir(path.join(out, 'tables'));
    for (const t of [
      'net-vs-swing.csv',
      'language-slopegraph.csv',
      'stance-topic-origin.csv',
      'abstention-topic.csv',
      'model-tests.csv',
      'overview-models.csv',
    ])
      expect(tables).toContain(t);
    const netSwing = (await readFile(path.join(out, 'tables', 'net-vs-swing.csv'), 'utf8'))
      .trim()
      .split('\n');
    expect(netSwing[0]).toBe(
      'model,origin,net,swing,raw,net_lower,net_upper,n_cells,p_t,p_holm,holm_significant,simulated',
    );
    expect(netSwing).toHaveLength(1 + RESPONDENTS.length);
  });

  it('marks every chart file SIMULATED, gives every CSV a simulated column, and keeps chart text readable', async () => {
    await expectSimulatedCharts(out);
    expect(await expectReadableCharts(out)).toBe(4);
    await expectChartDetails(out, [
      'net-vs-swing',
      'language-slopegraph',
      'stance-topic-origin',
      'abstention-topic',
    ]);
    const files = await expectSimulatedColumn(out, () => '1');
    expect(files).toEqual(expect.arrayContaining(['README.csv', 'model-tests.csv']));
    expect(files).toHaveLength(9 + 1 + 4 + 6 + 1); // + key results, languages, arms, README.csv
  });

  it('writes headers in words, a data dictionary on the page and in tables/README.csv, and explains empty cells', async () => {
    await expectDescribedTables(out);
    expect(html).toContain('<th>p (t, framing-collapsed)</th>');
    expect(html).toContain('What the columns of model-tests.csv mean');
    const readme = await readFile(path.join(out, 'tables', 'README.csv'), 'utf8');
    expect(readme.split('\n')[0]).toBe('table,column,header,meaning,unit,empty_means,simulated');
    expect(readme).toContain(
      'model-tests.csv,p_t_collapsed,"p (t, framing-collapsed)",One-sample t test on the framing-collapsed values,p value',
    );
  });

  it('writes each number in one format, and the variance caption from its own table', () => {
    // p values: 2 significant digits, < 0.001 below; proportions as percentages; stances to 3 decimals
    const cells = [...html.matchAll(/<td>([^<]*)<\/td>/g)].map((m) => m[1]!);
    for (const c of cells)
      expect(c).toMatch(/^(yes|no|−?\d+|−?\d+\.\d{3}|\d\.\d+|&lt; 0\.001|−?\d+\.\d\u00a0%)$/);
    const summary = /Systematic share[^]*?<\/tbody>/.exec(
      html.slice(html.indexOf('id="tbl-variance-summary"')),
    )![0];
    const share = /(\d+\.\d)\u00a0%<\/td><\/tr>/.exec(summary)![1];
    expect(html).toContain(`total variance = ${share}\u00a0%`);
  });

  it('draws each model’s net bias per language with its own interval (t on its cell means there)', async () => {
    const rows = rowsOf(
      await readFile(path.join(out, 'tables', 'language-slopegraph.csv'), 'utf8'),
    );
    const inst = rowsOf(await readFile(path.join(scores, 'instrument.csv'), 'utf8')).filter(
      (r) => r.arm === 'main',
    );
    expect(rows).toHaveLength(RESPONDENTS.length * 2);
    for (const r of rows) {
      // cell means of this model and language, from the scored rows (keyed: minus pole and reverse framing flip the sign)
      const cells = new Map<string, number[]>();
      for (const x of inst.filter(
        (i) => i.model === r.model && i.lang === r.lang && i.score !== '',
      )) {
        const sign = (x.key === 'minus' ? -1 : 1) * (x.framing === 'reverse' ? -1 : 1);
        const k = `${x.topic} ${x.framing}`;
        cells.set(k, [...(cells.get(k) ?? []), sign * Number(x.score)]);
      }
      const means = [...cells.values()].map((v) => v.reduce((a, b) => a + b, 0) / v.length);
      const t = oneSampleT(means);
      expect(Number(r.cells)).toBe(means.length);
      expect(Number(r.net)).toBeCloseTo(t.mean, 5);
      expect(Number(r.lower)).toBeCloseTo(t.ci[0], 5);
      expect(Number(r.upper)).toBeCloseTo(t.ci[1], 5);
    }
    const svg = await readFile(path.join(out, 'charts', 'language-slopegraph.svg'), 'utf8');
    expect(svg).toContain('bars: 95 % CI per model and language');
  });

  it('gives the same bytes when built again', async () => {
    const again = path.join(dir, 'report2');
    const r = await buildReport(scores, again);
    for (const f of r.files)
      expect(await readFile(path.join(again, f.file))).toEqual(
        await readFile(path.join(out, f.file)),
      );
    expect(await readFile(path.join(again, 'report.json'), 'utf8')).toBe(
      await readFile(path.join(out, 'report.json'), 'utf8'),
    );
  });

  it('refuses scores changed after scoring, and a folder that is not a scores folder', async () => {
    await appendFile(path.join(scores, 'instrument.csv'), 'x\n');
    const r = await runCli(['report', scores, '--out', path.join(dir, 'r3'), '--json']);
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('E_REPORT_SCORES');
    const r2 = await runCli(['report', dir, '--out', path.join(dir, 'r4'), '--json']);
    expect(r2.code).toBe(1);
    expect(r2.json().error.code).toBe('E_REPORT_SCORES');
  });
});

describe('the language-shift sentence', () => {
  it('agrees in number', () => {
    const s = (negative: number, positive: number, n: number) =>
      shiftSentence({ from: 'en', to: 'zh', negative, positive, perModel: Array(n) });
    expect(s(2, 1, 3)).toBe(
      '2 of 3 models are more toward the minus pole in zh than in en; 1 moves the other way.',
    );
    expect(s(1, 2, 4)).toBe(
      '1 of 4 models is more toward the minus pole in zh than in en; 2 move the other way and 1 does not move.',
    );
  });
});

describe('stimkit report --shift', () => {
  it('refuses a value that is not FROM:TO (usage, exit 2), before reading anything', async () => {
    const r = await runCli([
      'report',
      scores,
      '--out',
      path.join(dir, 'r-shift'),
      '--shift',
      'en',
      '--json',
    ]);
    expect(r.code).toBe(2);
    expect(r.json().error.code).toBe('E_REPORT_USAGE');
  });
});

describe('stimkit report --bundle', () => {
  it('refuses a --bundle that is not a bundle (exit 1), though no section of these scores shows its images', async () => {
    const nope = path.join(dir, 'no-such-bundle');
    const r = await runCli([
      'report',
      scores,
      '--out',
      path.join(dir, 'report-nope'),
      '--bundle',
      nope,
      '--json',
    ]);
    expect(r.code).toBe(1);
    expect(r.json().error.problems[0]).toMatchObject({
      code: 'E_REPORT_BUNDLE',
      file: nope,
      got: 'nothing there',
    });
    const notBag = path.join(dir, 'scores');
    const r2 = await runCli([
      'report',
      scores,
      '--out',
      path.join(dir, 'report-nope'),
      '--bundle',
      notBag,
      '--json',
    ]);
    expect(r2.code).toBe(1);
    expect(r2.json().error.problems[0].got).toBe(
      'a folder without manifest-sha256.txt (not a bundle)',
    );
    // (the scored bundle given with --bundle is accepted: the last report of test/audit/audit-outputs.test.ts; the scores here were altered above)
  });
});
