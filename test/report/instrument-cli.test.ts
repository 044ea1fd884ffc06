/**
 * One number everywhere: every number the report prints for the instrument (its tables and the
 * data behind its charts, each arm included) is recomputed through `stimkit analyze instrument`
 * (default arm, and `--arm ID` for each arm) on the same instrument.csv, and compared.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { loadScoreBundle } from '../../src/score/bundle.js';
import { scoreToFolder } from '../../src/score/score.js';
import { loadSimBundle, simParamsSchema, simulate } from '../../src/sim/index.js';
import { oneSampleT } from '../../src/stats/index.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { instrumentBundle } from '../score/fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 252 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(14) });

const RESPONDENTS = [
  {
    name: 'sim-cn',
    origin: 'CN',
    sim: { seed: 1, instrument: { conviction: -1, acquiescence: 0.3, refusal_rate: 0.05 } },
  },
  {
    name: 'sim-cn-2',
    origin: 'CN',
    sim: { seed: 2, instrument: { conviction: -0.5, acquiescence: 1, neutral_rate: 0.1 } },
  },
  {
    name: 'sim-us',
    origin: 'US',
    sim: { seed: 3, instrument: { conviction: 0.5, acquiescence: 0 } },
  },
  {
    name: 'sim-us-2',
    origin: 'US',
    sim: { seed: 4, instrument: { conviction: 0.2, acquiescence: 0.6 } },
  },
  // The vendor refuses every item (outcome model_refusal): no estimate, named with why in the
  // report and by the CLI (`absent`).
  { name: 'sim-refused', origin: 'US', sim: { seed: 5 }, refused: true },
];

let dir: string;
let scores: string;
let report: string;
const cli: Record<string, any> = {};

/** The report's CSV cell of a number: the value in full (null for none or not finite). */
const r6 = (x: number | null | undefined) =>
  x === null || x === undefined || !Number.isFinite(x) ? null : x;

async function table(id: string): Promise<Record<string, string>[]> {
  return parse(await readFile(path.join(report, 'tables', `${id}.csv`), 'utf8'), { columns: true });
}

/** Each column of each row equals the CLI's value, in full. */
function same(rows: Record<string, string>[], expected: Record<string, unknown>[], what: string) {
  expect(rows.length, what).toBe(expected.length);
  rows.forEach((row, i) => {
    for (const [col, want] of Object.entries(expected[i]!)) {
      const got = row[col];
      const w = typeof want === 'number' ? r6(want) : want;
      if (w === null || w === undefined) expect(got, `${what} row ${i} ${col}`).toBe('');
      else if (typeof w === 'number') expect(Number(got), `${what} row ${i} ${col}`).toBe(w);
      else
        expect(got, `${what} row ${i} ${col}`).toBe(typeof w === 'string' ? w : JSON.stringify(w));
    }
  });
}

/** The per-model columns the report's tables share, from the CLI's `models[]`. */
const perModel = (x: any) => ({
  model: x.model,
  origin: x.origin,
  net: x.net,
  ci_lower: x.cellTest?.ci[0],
  ci_upper: x.cellTest?.ci[1],
  swing: x.swing,
  raw: x.raw,
  n_cells: x.cellTest?.n,
  p_t: x.cellTest?.pT,
  p_wilcoxon: x.cellTest?.pWilcoxon,
  p_holm: x.cellTest?.pTHolm,
  net_answered: x.answeredOnly.net,
  abstained_share: x.answeredOnly.excludedShare,
});

beforeAll(async () => {
  dir = await tempDir('stimkit-one-number-');
  const fx = await instrumentBundle(dir, { iterations: 4, ptIterations: 2 });
  const bundle = await loadScoreBundle(fx.bundle);
  const sim = await loadSimBundle(fx.bundle);
  const lines: string[] = [];
  for (const m of RESPONDENTS) {
    const params = simParamsSchema.parse(m.sim);
    for (const t of bundle.trials)
      lines.push(
        JSON.stringify({
          trial_id: t.id,
          model: m.name,
          ...('refused' in m
            ? { response: '', outcome: 'model_refusal' }
            : { response: simulate(params, m.name, t, sim).text }),
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
  report = path.join(dir, 'report');
  const r = await runCli(['report', scores, '--out', report, '--json']);
  expect(r.code, r.stderr).toBe(0);
  const csv = path.join(scores, 'instrument.csv');
  for (const arm of [null, 'main', 'pt-control']) {
    const run = await runCli([
      'analyze',
      'instrument',
      csv,
      ...(arm ? ['--arm', arm] : []),
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    cli[arm ?? 'default'] = run.json();
  }
});

describe('the report and analyze instrument print the same numbers', () => {
  it('analyses by default the arm the report shows, and says so', async () => {
    expect(cli.default.params).toMatchObject({
      arm: 'main',
      arm_chosen: 'default',
      shift: 'en:zh',
    });
    expect(cli.default.arms).toEqual([
      { arm: 'main', responses: 4 * 7 * 2 * 2 * 4 },
      { arm: 'pt-control', responses: 4 * 7 * 2 * 2 },
    ]);
    const { stderr } = await runCli(['analyze', 'instrument', path.join(scores, 'instrument.csv')]);
    const [simulated, outcomes, absent, arm] = stderr.split('\n');
    expect(simulated).toMatch(/^SIMULATED: 560 of 560 rows are simulated/);
    expect(outcomes).toBe(
      'outcomes: answer, unrecorded (default; --outcomes to choose); 560 rows used, left out 140: model_refusal 140',
    );
    expect(absent).toBe('no estimate for sim-refused: no scored answer (model_refusal 112)');
    expect(arm).toBe(
      'arm main (the arm with the most responses, as the report; --arm ID for another, --arm all to pool); arms in the table: main 448, pt-control 112',
    );
  });
  it('names the model with no estimate, with why, where the CLI does', async () => {
    expect(cli.default.absent).toEqual([
      { model: 'sim-refused', reason: 'no scored answer (model_refusal 112)' },
    ]);
    expect(cli.default.models.map((m: any) => m.model)).not.toContain('sim-refused');
    const page = await readFile(path.join(report, 'index.html'), 'utf8');
    const sentence = 'No estimate for sim-refused: no scored answer (model_refusal 112).';
    // In the per-model tests and the net-vs-swing sections.
    expect(page.split(sentence).length - 1).toBe(2);
    expect(page).toContain('no estimate for sim-refused (no scored answer (model_refusal 112))');
  });
  it('per-model tests, net vs swing and the origin comparisons', async () => {
    const m = cli.default.models;
    same(
      await table('model-tests'),
      m.map((x: any) => ({
        ...perModel(x),
        t: x.cellTest?.t,
        n_collapsed: x.collapsedTest?.n,
        p_t_collapsed: x.collapsedTest?.pT,
        flip_rate: x.flip.responseRate,
        cell_flip_rate: x.flip.cellRate,
      })),
      'model-tests',
    );
    same(
      await table('net-vs-swing'),
      m.map((x: any) => ({
        model: x.model,
        net: x.net,
        swing: x.swing,
        raw: x.raw,
        net_lower: x.cellTest?.ci[0],
        net_upper: x.cellTest?.ci[1],
        n_cells: x.cellTest?.n,
        p_t: x.cellTest?.pT,
        p_holm: x.cellTest?.pTHolm,
      })),
      'net-vs-swing',
    );
    same(
      await table('origin-comparisons'),
      cli.default.originComparisons.map((o: any) => ({
        a: o.a,
        b: o.b,
        n_a: o.nA,
        n_b: o.nB,
        mean_a: o.meanA,
        mean_b: o.meanB,
        diff_ci_lower: o.welch.ci[0],
        diff_ci_upper: o.welch.ci[1],
        welch_t: o.welch.t,
        welch_p: o.welch.p,
        mann_whitney_p: o.mannWhitney.p,
      })),
      'origin-comparisons',
    );
  });
  it('the language shift, abstention, variance partition and topic × origin means', async () => {
    const s = cli.default.languageShift;
    same(
      await table('language-slopegraph'),
      s.perModel.flatMap((x: any) => [
        {
          model: x.model,
          lang: s.from,
          net: x.netFrom,
          shift: x.shift,
          cells: x.cells,
          p_cells: x.pCells,
        },
        {
          model: x.model,
          lang: s.to,
          net: x.netTo,
          shift: x.shift,
          cells: x.cells,
          p_cells: x.pCells,
        },
      ]),
      'language-slopegraph',
    );
    same(
      await table('abstention-topic'),
      cli.default.abstention.map((x: any) => ({
        model: x.model,
        topic: x.topic,
        n: x.n,
        abstained: x.abstained,
        rate: x.rate,
        lower: x.lower,
        upper: x.upper,
      })),
      'abstention-topic',
    );
    const v = cli.default.variance.responseLevel;
    same(
      await table('variance-partition'),
      [
        ...v.terms.map((t: any) => ({ term: t.term, percent: t.percent })),
        { term: 'residual', percent: v.residualPercent },
      ],
      'variance-partition',
    );
    // topic × origin: the mean over an origin's models of each model's mean cell mean for the topic
    const rows = await table('stance-topic-origin');
    for (const row of rows) {
      const perModel = new Map<string, number[]>();
      for (const c of cli.default.cells)
        if (c.topic === row.topic && c.origin === row.origin)
          perModel.set(c.model, [...(perModel.get(c.model) ?? []), c.mean]);
      const values = [...perModel.values()].map((x) => x.reduce((a, b) => a + b, 0) / x.length);
      const t = values.length >= 2 ? oneSampleT(values) : null;
      same(
        [row],
        [
          {
            models: values.length,
            mean: values.reduce((a, b) => a + b, 0) / values.length,
            lower: t?.ci[0],
            upper: t?.ci[1],
          },
        ],
        `topic ${row.topic} ${row.origin}`,
      );
    }
  });
  it('each arm, the Portuguese control included, equals analyze instrument --arm', async () => {
    for (const arm of ['main', 'pt-control']) {
      const a = cli[arm];
      same(await table(`arm-${arm}-models`), a.models.map(perModel), `arm ${arm}`);
      const v = a.variance.responseLevel;
      same(
        await table(`arm-${arm}-variance-partition`),
        [
          ...v.terms.map((t: any) => ({ term: t.term, percent: t.percent })),
          { term: 'residual', percent: v.residualPercent },
        ],
        `arm ${arm} variance`,
      );
    }
    // the default arm's numbers are the main arm's, not a pooled mix with the control
    expect(cli.default.models).toEqual(cli.main.models);
    const html = await readFile(path.join(report, 'index.html'), 'utf8');
    expect(html).toContain('Each instrument arm on its own');
    expect(html).toContain('pt-control');
  });
});
