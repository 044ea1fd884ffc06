/**
 * `stimkit report` on the scores of simulated respondents: one self-contained page (no scripts,
 * nothing fetched), every chart as SVG + PNG + spec + CSV, every chart and table stating n and its
 * interval method, the bundle digest, source and tool version named, simulated data marked, and
 * the same bytes on a rebuild.
 */
import { appendFile, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build.js';
import { loadScoreBundle } from '../../src/score/bundle.js';
import { scoreToFolder } from '../../src/score/score.js';
import { loadSimBundle, simParamsSchema, simulate } from '../../src/sim/index.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { instrumentBundle } from '../score/fixture.js';

const RESPONDENTS = [
  {
    name: 'sim-cn-a',
    origin: 'CN',
    sim: {
      seed: 1,
      instrument: {
        conviction: { default: -1, by_lang: { zh: -0.4 } },
        acquiescence: 0.3,
        refusal_rate: 0.05,
      },
    },
  },
  {
    name: 'sim-cn-b',
    origin: 'CN',
    sim: { seed: 2, instrument: { conviction: -0.6, acquiescence: 1, neutral_rate: 0.1 } },
  },
  {
    name: 'sim-us-a',
    origin: 'US',
    sim: { seed: 3, instrument: { conviction: 0.5, acquiescence: 0 } },
  },
  {
    name: 'sim-us-b',
    origin: 'US',
    sim: {
      seed: 4,
      instrument: { conviction: { default: 0.1, by_topic: { taiwan: -0.5 } }, acquiescence: -0.5 },
    },
  },
  {
    name: 'sim-eu',
    origin: 'FR',
    sim: { seed: 5, instrument: { conviction: 0, acquiescence: 1.2 } },
  },
];

let dir: string;
let scores: string;
let digest: string;

beforeAll(async () => {
  dir = await tempDir('stimkit-report-');
  const fx = await instrumentBundle(dir, { iterations: 4, ptIterations: 1 });
  digest = fx.digest;
  const bundle = await loadScoreBundle(fx.bundle);
  const sim = await loadSimBundle(fx.bundle, fx.digest);
  const lines: string[] = [];
  for (const m of RESPONDENTS) {
    const params = simParamsSchema.parse(m.sim);
    for (const t of bundle.trials)
      lines.push(
        JSON.stringify({
          trial_id: t.id,
          model: m.name,
          response: simulate(params, m.name, t, sim).text,
          simulated: true,
        }),
      );
  }
  await writeFile(path.join(dir, 'responses.jsonl'), `${lines.join('\n')}\n`);
  await writeFile(
    path.join(dir, 'models.yaml'),
    `format: stimkit.models\nversion: 1\nmodels:\n${RESPONDENTS.map((m) => `  - {name: ${m.name}, provider: sim, origin: ${m.origin}, sim: {}}`).join('\n')}\n`,
  );
  scores = path.join(dir, 'scores');
  await scoreToFolder({
    bundle: fx.bundle,
    source: { kind: 'responses', file: path.join(dir, 'responses.jsonl') },
    models: path.join(dir, 'models.yaml'),
    out: scores,
  });
}, 180_000);

describe('stimkit report', () => {
  let out: string;
  let html: string;
  beforeAll(async () => {
    out = path.join(dir, 'report');
    const r = await runCli(['report', scores, '--out', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().sections).toEqual([
      'overview',
      'instrument-net-swing',
      'instrument-language',
      'instrument-topics',
      'instrument-abstention',
      'instrument-tests',
      'instrument-arms',
    ]);
    html = await readFile(path.join(out, 'index.html'), 'utf8');
  }, 120_000);

  it('is one self-contained page: inline SVG, no scripts, nothing fetched', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/(src|href)="https?:/i);
    expect(html).not.toMatch(/@import|url\(http/i);
    expect((html.match(/<svg/g) ?? []).length).toBe(4);
  });

  it('names the bundle digest, the responses file, the tool version and marks simulated data', () => {
    expect(html).toContain(digest);
    expect(html).toContain('responses.jsonl');
    expect(html).toMatch(/stimkit \d+\.\d+\.\d+/);
    expect(html).toContain('SIMULATED DATA');
    expect((html.match(/<b>Simulated data\.<\/b>/g) ?? []).length).toBe(4 + 4 + 4); // + the two arms' two tables
  });

  it('states n and the interval method under every chart and table', () => {
    const captions = [
      ...html.matchAll(
        /<figcaption>([\s\S]*?)<\/figcaption>|<div class="caption">([\s\S]*?)<\/div>/g,
      ),
    ].map((m) => m[1] ?? m[2]!);
    expect(captions.length).toBe(8 + 4); // + the per-arm section: two tables for each of two arms
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
      'model,origin,net,swing,raw,net_lower,net_upper,n_cells,p_t,p_holm,holm_significant',
    );
    expect(netSwing).toHaveLength(1 + RESPONDENTS.length);
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
  }, 120_000);

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
    // (the scored bundle given with --bundle is accepted: test/audit/audit-outputs.test.ts; the scores here were altered above)
  }, 120_000);
});
