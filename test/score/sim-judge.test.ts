/**
 * The simulated path of the free-text judge, end to end (`stimkit run` with a sim respondent that
 * answers 40 % of its answers in prose, then `stimkit score --judge` with sim judges): every free
 * text goes to the judge; a perfect sim judge gives back exactly the simulator's truth, so the net
 * bias equals the truth's and the closed form's within sampling error; a 95 % judge agrees with
 * the truth at its accuracy and moves net bias little; without a judge free text scores 0 and net
 * bias shrinks toward 0 by the free-text share.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { parseCsv } from '../../src/core/csv.js';
import {
  expectedInstrumentModel,
  instrumentCells,
  loadSimBundle,
  simParamsSchema,
} from '../../src/sim/index.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { query } from '../run/helpers.js';
import { instrumentBundle, type InstrumentFixture } from './fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 180 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(10) });

const ITERATIONS = 128;
const FREE = 0.4;
const RESPONDENT = {
  conviction: { default: -0.8, by_lang: { zh: -0.4 } },
  acquiescence: 0.5,
  noise: 0.5,
  neutral_rate: 0.05,
  free_text_rate: FREE,
  style: { bare: 1, sentence: 1 },
};

let dir: string;
let fx: InstrumentFixture;
let ledger: string;
const truth = new Map<string, { score: number; stance: number; style: string }>();

beforeAll(async () => {
  dir = await tempDir('stimkit-simjudge-');
  fx = await instrumentBundle(dir, { iterations: ITERATIONS, ptIterations: 0 });
  await writeFile(
    path.join(dir, 'models.yaml'),
    JSON.stringify({
      format: 'stimkit.models',
      version: 1,
      models: [
        {
          name: 'sim-free',
          provider: 'sim',
          modalities: ['text'],
          paradigms: ['instrument'],
          sim: { seed: 5, instrument: RESPONDENT },
        },
        {
          name: 'judge-95',
          provider: 'sim',
          role: 'judge',
          sim: { seed: 11, judge: { instrument_accuracy: 0.95 } },
        },
        {
          name: 'judge-perfect',
          provider: 'sim',
          role: 'judge',
          sim: { seed: 12, judge: { instrument_accuracy: 1 } },
        },
      ],
    }),
  );
  ledger = path.join(dir, 'run.sqlite');
  const run = await runCli([
    'run',
    fx.bundle,
    '--models',
    path.join(dir, 'models.yaml'),
    '--ledger',
    ledger,
    '--json',
  ]);
  expect(run.code, run.stderr).toBe(0);
  for (const r of query(ledger, 'SELECT trial_id, truth FROM results'))
    truth.set(r.trial_id, JSON.parse(r.truth));
});

/** The folder the scores with `judges` are written to. */
const outOf = (judges: string[]): string => path.join(dir, judges.join('+') || 'plain');

async function scoreWith(judges: string[]): Promise<Record<string, string>[]> {
  const r = await runCli([
    'score',
    '--bundle',
    fx.bundle,
    '--ledger',
    ledger,
    '--models',
    path.join(dir, 'models.yaml'),
    '--out',
    outOf(judges),
    '--json',
    ...judges.flatMap((j) => ['--judge', j]),
  ]);
  expect(r.code, r.stderr).toBe(0);
  const csv = parseCsv(await readFile(path.join(outOf(judges), 'instrument.csv'), 'utf8'));
  return csv.rows.map((row) => Object.fromEntries(csv.header.map((h, i) => [h, row[i]!])));
}

/**
 * The scored rows with `judges`, scored once for the file: the tests only read them (the judge
 * ledger beside the run's keeps every label, so scoring again with the same judges gives the same
 * rows).
 */
const scored = new Map<string, Promise<Record<string, string>[]>>();
function score(judges: string[]): Promise<Record<string, string>[]> {
  const key = judges.join('+');
  if (!scored.has(key)) scored.set(key, scoreWith(judges));
  return scored.get(key)!;
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
/** Net bias of a balanced design: the mean keyed stance over every trial. */
const net = (rows: Record<string, string>[]) => mean(rows.map((r) => Number(r.stance)));

describe('sim respondents in free text, judged by sim judges', () => {
  it('answers in prose at the set rate, in the trial language, and the parser reads none of it', async () => {
    const rows = await score([]);
    const free = rows.filter((r) => truth.get(r.trial!)!.style === 'free_text');
    const answered = rows.filter((r) => truth.get(r.trial!)!.score !== 0);
    const se = Math.sqrt((FREE * (1 - FREE)) / answered.length);
    expect(Math.abs(free.length / answered.length - FREE)).toBeLessThan(4 * se);
    for (const r of free)
      expect(r).toMatchObject({ score: '0', reason: 'unparseable', label_source: 'none' });
    expect(new Set(free.map((r) => r.lang))).toEqual(new Set(['en', 'zh']));
  });

  it('a perfect judge recovers the truth exactly, and net bias within 0.05 of the closed form', async () => {
    const rows = await score(['judge-perfect']);
    for (const r of rows) {
      const t = truth.get(r.trial!)!;
      if (t.style === 'free_text') expect(r.label_source).toBe('judge');
      expect(Number(r.stance)).toBe(t.stance);
    }
    const bundle = await loadSimBundle(fx.bundle);
    const expected = expectedInstrumentModel(
      simParamsSchema.parse({ instrument: RESPONDENT }),
      instrumentCells(bundle, ['en', 'zh']),
    ).net;
    expect(Math.abs(net(rows) - expected)).toBeLessThan(0.05);

    const plain = await score([]);
    // Without a judge, net bias shrinks by about the free-text share.
    expect(Math.abs(net(plain) - (1 - FREE) * expected)).toBeLessThan(0.05);
    expect(Math.abs(net(plain) - expected)).toBeGreaterThan(0.15);
  });

  it('a 95 % judge agrees with the truth at its accuracy; agreement with a second judge is reported', async () => {
    const rows = await score(['judge-95', 'judge-perfect']);
    const free = rows.filter((r) => r.label_source === 'judge' && r.parse_reason === 'unparseable');
    const right = free.filter((r) => Number(r.score) === truth.get(r.trial!)!.score).length;
    const se = Math.sqrt((0.95 * 0.05) / free.length);
    expect(Math.abs(right / free.length - 0.95)).toBeLessThan(4 * se);
    const header = JSON.parse(
      await readFile(path.join(outOf(['judge-95', 'judge-perfect']), 'score.json'), 'utf8'),
    );
    const ag = header.params.scorers.instrument.judge.agreement[0];
    expect(ag).toMatchObject({ a: 'judge-95', b: 'judge-perfect' });
    expect(Math.abs(ag.exact - 0.95)).toBeLessThan(4 * Math.sqrt((0.95 * 0.05) / ag.n));
    expect(Math.abs(ag.drift_stance)).toBeLessThan(0.05);
    const perfect = await score(['judge-perfect']);
    expect(Math.abs(net(rows) - net(perfect))).toBeLessThan(0.03);
  });
});
