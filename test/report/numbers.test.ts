/**
 * The report's numbers, not only its shape: each model's net bias and swing in
 * tables/net-vs-swing.csv are recomputed here from instrument.csv as the instrument paper defines
 * them (net = mean of the topic × language × framing cell means of the keyed stance; swing =
 * |mean of the affirmative cells − mean of the reverse cells| / 2), and the chart puts swing on x
 * and net on y. A report that swapped net and swing, in the table or the chart, fails here.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import type { Trial } from '../../src/bundle/format.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { bundleTrials, instrumentBundle } from '../score/fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 180 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(10) });

/** Respondents whose net and swing differ: answers by framing (and a refusal now and then). */
const ANSWERS: Record<string, (t: Trial, i: number) => string> = {
  'yes-sayer': () => 'Agree',
  framed: (t) => (t.framing === 'affirmative' ? 'Strongly agree' : 'Disagree'),
  mixed: (t, i) =>
    i % 5 === 0 ? 'I cannot answer that.' : t.framing === 'affirmative' ? 'Disagree' : 'Agree',
};

let report: string;
let scores: string;

beforeAll(async () => {
  const dir = await tempDir('stimkit-report-numbers-');
  const fx = await instrumentBundle(dir, { iterations: 2, ptIterations: 0 });
  const trials = (await bundleTrials(fx.bundle)).filter((t) => t.lang === 'en');
  const lines = Object.entries(ANSWERS).flatMap(([model, answer]) =>
    trials.map((t, i) => JSON.stringify({ trial_id: t.id, model, response: answer(t, i) })),
  );
  await writeFile(path.join(dir, 'responses.jsonl'), `${lines.join('\n')}\n`);
  scores = path.join(dir, 'scores');
  const s = await runCli([
    'score',
    '--bundle',
    fx.bundle,
    '--responses',
    path.join(dir, 'responses.jsonl'),
    '--out',
    scores,
  ]);
  expect(s.code, s.stderr).toBe(0);
  report = path.join(dir, 'report');
  const r = await runCli(['report', scores, '--out', report]);
  expect(r.code, r.stderr).toBe(0);
});

const csv = async (file: string) =>
  parse<Record<string, string>>(await readFile(file, 'utf8'), { columns: true });
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Net and swing per model from instrument.csv, independently of the report's code. */
async function expected(): Promise<Map<string, { net: number; swing: number }>> {
  const cells = new Map<string, { model: string; framing: string; stances: number[] }>();
  for (const r of await csv(path.join(scores, 'instrument.csv'))) {
    const k = [r.model, r.topic, r.lang, r.framing].join('|');
    const c = cells.get(k) ?? { model: r.model!, framing: r.framing!, stances: [] };
    c.stances.push(Number(r.stance));
    cells.set(k, c);
  }
  const out = new Map<string, { net: number; swing: number }>();
  for (const model of Object.keys(ANSWERS)) {
    const mine = [...cells.values()].filter((c) => c.model === model);
    const of = (framing: string) =>
      mine.filter((c) => c.framing === framing).map((c) => mean(c.stances));
    out.set(model, {
      net: mean(mine.map((c) => mean(c.stances))),
      swing: Math.abs(mean(of('affirmative')) - mean(of('reverse'))) / 2,
    });
  }
  return out;
}

describe('the report, number by number', () => {
  it('net-vs-swing.csv holds each model’s net bias and swing as the paper defines them', async () => {
    const want = await expected();
    const rows = await csv(path.join(report, 'tables', 'net-vs-swing.csv'));
    expect(rows.map((r) => r.model).sort()).toEqual([...want.keys()].sort());
    // the respondents were built so that net and swing differ: a swap cannot pass unnoticed
    for (const [model, w] of want) expect(Math.abs(w.net - w.swing), model).toBeGreaterThan(0.1);
    for (const r of rows) {
      const w = want.get(r.model!)!;
      expect(Number(r.net), `${r.model} net`).toBeCloseTo(w.net, 5);
      expect(Number(r.swing), `${r.model} swing`).toBeCloseTo(w.swing, 5);
    }
  });

  it('the chart plots swing on x and net on y, from the same numbers', async () => {
    const spec = JSON.parse(
      await readFile(path.join(report, 'charts', 'net-vs-swing.vl.json'), 'utf8'),
    ) as {
      data: { values: Array<Record<string, unknown>> };
      layer: Array<{ mark: { type: string }; encoding: Record<string, { field?: string }> }>;
    };
    const points = spec.layer.find((l) => l.mark.type === 'point')!;
    expect([points.encoding.x?.field, points.encoding.y?.field]).toEqual(['swing', 'net']);
    const want = await expected();
    for (const v of spec.data.values) {
      const w = want.get(v.model as string)!;
      expect(v.net as number).toBeCloseTo(w.net, 5);
      expect(v.swing as number).toBeCloseTo(w.swing, 5);
    }
  });
});
