/**
 * Parameter recovery (issue item 7): simulated respondents with known parameters, run through the
 * real bundle, scorer and analysis at the paper's 64 iterations, give back their closed-form net
 * bias and swing within ±0.05; and a neutral heavy acquiescer and a convinced respondent with the
 * same swing come out as the instrument paper's Mistral-versus-Qwen contrast: the convinced one's
 * net bias is significant (Holm across the models), the acquiescer's is not.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import type { InstrumentAnalysis } from '../../src/analyze/instrument/index.js';
import {
  expectedFor,
  instrumentTrials,
  simulateStudy,
  type SimModel,
} from '../../src/power/study.js';
import { loadScoreBundle } from '../../src/score/bundle.js';
import { loadSimBundle, SIM_PRESETS, simParamsSchema } from '../../src/sim/index.js';
import { tempDir } from '../helpers/tmp.js';
import { instrumentBundle } from '../score/fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 180 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(10) });

const preset = (name: string) => SIM_PRESETS.find((p) => p.name === name)!;
const models: SimModel[] = [
  {
    name: 'sim-acquiescer',
    origin: 'FR',
    params: simParamsSchema.parse(preset('sim-acquiescer').sim),
  },
  {
    name: 'sim-convinced',
    origin: 'CN',
    params: simParamsSchema.parse(preset('sim-convinced').sim),
  },
];

let analysis: InstrumentAnalysis;
let expected: Map<string, { net: number; swing: number }>;

beforeAll(async () => {
  const dir = await tempDir('stimkit-recovery-');
  const fx = await instrumentBundle(dir, { iterations: 64, ptIterations: 0 });
  const bundle = await loadScoreBundle(fx.bundle);
  const sim = await loadSimBundle(fx.bundle);
  const trials = instrumentTrials(bundle, 'main', 64);
  expect(trials.length).toBe(7 * 2 * 2 * 64);
  analysis = simulateStudy(bundle, sim, trials, models);
  expected = new Map(models.map((m) => [m.name, expectedFor(bundle, trials, m.params)]));
});

describe('parameter recovery at 64 iterations', () => {
  it('the two respondents are built to share their swing and differ in net bias', () => {
    const [a, c] = [expected.get('sim-acquiescer')!, expected.get('sim-convinced')!];
    expect(Math.abs(a.swing - c.swing)).toBeLessThan(0.01);
    expect(a.swing).toBeGreaterThan(0.1);
    expect(Math.abs(a.net)).toBeLessThan(1e-9);
    expect(c.net).toBeLessThan(-0.5);
  });

  it.each(models.map((m) => m.name))('%s: net bias and swing within ±0.05 of the truth', (name) => {
    const got = analysis.models.find((m) => m.model === name)!;
    const want = expected.get(name)!;
    expect(Math.abs(got.net - want.net)).toBeLessThanOrEqual(0.05);
    expect(Math.abs(got.swing - want.swing)).toBeLessThanOrEqual(0.05);
    expect(got.cellTest!.n).toBe(28);
  });

  it('the convinced respondent is significant after Holm, the neutral acquiescer is not (Mistral vs Qwen)', () => {
    const acq = analysis.models.find((m) => m.model === 'sim-acquiescer')!;
    const conv = analysis.models.find((m) => m.model === 'sim-convinced')!;
    expect(conv.cellTest!.pTHolm!).toBeLessThan(0.05);
    expect(conv.cellTest!.pWilcoxon).toBeLessThan(0.05);
    expect(acq.cellTest!.pTHolm!).toBeGreaterThan(0.05);
    expect(acq.cellTest!.pT).toBeGreaterThan(0.05);
    // Raw agreement alone would call the acquiescer the most "biased" (yea-saying), as Mistral.
    expect(acq.raw).toBeGreaterThan(0.8);
  });
});
