/**
 * `stimkit analyze power` end to end on a small bundle: the table has one row per model × size,
 * the closed-form truth beside the estimates, the convinced respondent is detected more often than
 * the neutral one, and reruns are identical (replication r uses seed + r).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { SIM_PRESETS } from '../../src/sim/index.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { instrumentBundle, type InstrumentFixture } from '../score/fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 126 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(7), hookTimeout: heavyLimit(7) });

let dir: string;
let fx: InstrumentFixture;
let models: string;

beforeAll(async () => {
  dir = await tempDir('stimkit-power-');
  fx = await instrumentBundle(dir, { iterations: 8, ptIterations: 0 });
  models = path.join(dir, 'sim.yaml');
  const pick = SIM_PRESETS.filter((p) => p.name === 'sim-acquiescer' || p.name === 'sim-convinced');
  await writeFile(
    models,
    stringify({
      format: 'stimkit.models',
      version: 1,
      models: pick.map((p) => ({ name: p.name, provider: 'sim', sim: p.sim })),
    }),
  );
});

describe('stimkit analyze power', () => {
  it('reports detection probability per model and size, and writes the CSV', async () => {
    const args = [
      'analyze',
      'power',
      '--models',
      models,
      '--bundle',
      fx.bundle,
      '--iterations',
      '4,8',
      '--replications',
      '4',
      '--json',
    ];
    const r = await runCli([...args, '--out', path.join(dir, 'power.csv')]);
    expect(r.code, r.stderr).toBe(0);
    const s = r.json();
    expect(s.simulated).toBe(true);
    expect(
      s.rows.map((x: { model: string; iterations: number }) => `${x.model}@${x.iterations}`),
    ).toEqual(['sim-acquiescer@4', 'sim-convinced@4', 'sim-acquiescer@8', 'sim-convinced@8']);
    const at8 = (name: string) =>
      s.rows.find(
        (x: { model: string; iterations: number }) => x.model === name && x.iterations === 8,
      );
    expect(at8('sim-convinced').power_t).toBeGreaterThan(at8('sim-acquiescer').power_t);
    expect(at8('sim-convinced').expected_net).toBeLessThan(-0.5);
    expect(Math.abs(at8('sim-acquiescer').expected_net)).toBeLessThan(1e-9);
    expect(r.stderr).toMatch(/SIMULATED/);
    const csv = await readFile(path.join(dir, 'power.csv'), 'utf8');
    expect(csv.split('\n')[0]).toBe(
      'model,iterations,replications,expected_net,expected_swing,mean_net,sd_net,mean_swing,mean_zero_share,power_t,power_holm,power_wilcoxon,simulated',
    );
    // every row comes from simulated studies, and says so
    const rows = csv.trim().split('\n').slice(1);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.endsWith(',1')).toBe(true);
    const again = await runCli(args);
    expect(again.json().rows).toEqual(s.rows);
  });

  it('refuses more iterations than the bundle holds, and a models file without sim respondents', async () => {
    const r = await runCli([
      'analyze',
      'power',
      '--models',
      models,
      '--bundle',
      fx.bundle,
      '--iterations',
      '16',
      '--replications',
      '1',
      '--json',
    ]);
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('E_POWER_BUNDLE');
    const real = path.join(dir, 'real.yaml');
    await writeFile(
      real,
      'format: stimkit.models\nversion: 1\nmodels:\n  - {name: m, endpoint: "http://127.0.0.1:9/v1"}\n',
    );
    const r2 = await runCli([
      'analyze',
      'power',
      '--models',
      real,
      '--bundle',
      fx.bundle,
      '--iterations',
      '4',
      '--json',
    ]);
    expect(r2.code).toBe(1);
    expect(r2.json().error.code).toBe('E_POWER_NO_SIM');
  });

  it('keeps the other analyze kinds working and needing their table', async () => {
    const r = await runCli(['analyze', 'rates']);
    expect(r.code).toBe(2);
  });
  it('explains the gap between true and mean net, and lets a sim judge label free text', async () => {
    // the demo's free-text respondent (manifests/demo.models.yaml): 30 % of its answers name no option
    const free = {
      seed: 5,
      instrument: {
        conviction: 0.4,
        acquiescence: 0.4,
        noise: 0.6,
        neutral_rate: 0.02,
        free_text_rate: 0.3,
        style: { bare: 1, sentence: 1 },
      },
    };
    const run = async (withJudge: boolean) => {
      const file = path.join(dir, `free-${withJudge}.yaml`);
      const list: Record<string, unknown>[] = [
        { name: 'sim-freetext', provider: 'sim', sim: free },
      ];
      if (withJudge)
        list.push({ name: 'sim-judge', provider: 'sim', role: 'judge', sim: { seed: 5 } });
      await writeFile(file, stringify({ format: 'stimkit.models', version: 1, models: list }));
      const args = ['analyze', 'power', '--models', file, '--bundle', fx.bundle];
      return runCli([...args, '--iterations', '8', '--replications', '6', '--json']);
    };
    const without = await run(false);
    expect(without.code, without.stderr).toBe(0);
    const w = without.json();
    expect(w.judge).toBeNull();
    expect(without.stderr).toContain('scored 0');
    expect(without.stderr).toContain(
      'no judge labelled free-text answers (the models file has no provider: sim judge), so each one scores 0',
    );
    const judged = await run(true);
    const j = judged.json();
    expect(j.judge).toEqual({ name: 'sim-judge', accuracy: 0.95 });
    expect(judged.stderr).toContain(
      "free-text answers were labelled by the models file's simulated judge sim-judge",
    );
    // the judge reads the free text: fewer zeros, and mean net moves toward the true net
    expect(j.rows[0].mean_zero_share).toBeLessThan(w.rows[0].mean_zero_share);
    expect(Math.abs(j.rows[0].mean_net - j.rows[0].expected_net)).toBeLessThan(
      Math.abs(w.rows[0].mean_net - w.rows[0].expected_net),
    );
  });
});
