/**
 * `stimkit score --ledger` on a real run of simulated respondents (`stimkit run` with provider
 * sim): the scorer recovers exactly the label the simulator chose (its recorded truth) on every
 * answered trial, scores every abstention 0, keys stance as the truth does, and takes origin,
 * vendor and the simulated flag from the ledger.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { SIM_PRESETS } from '../../src/sim/index.js';
import { openLedger } from '../../src/ledger/index.js';
import { parseCsv } from '../../src/core/csv.js';
import { ScoreLine, ScoresHeader } from '../../src/score/format.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { instrumentBundle, type InstrumentFixture } from './fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 180 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(10) });

let dir: string;
let fx: InstrumentFixture;
let ledger: string;

beforeAll(async () => {
  dir = await tempDir('stimkit-score-ledger-');
  fx = await instrumentBundle(dir, { iterations: 4, ptIterations: 2 });
  const presets = SIM_PRESETS.filter(
    (p) => p.name === 'sim-acquiescer' || p.name === 'sim-convinced',
  );
  const models = {
    format: 'stimkit.models',
    version: 1,
    models: presets.map((p, i) => ({
      name: p.name,
      provider: 'sim',
      origin: i === 0 ? 'FR' : 'CN',
      vendor: 'simulated',
      sim: {
        ...p.sim,
        instrument: {
          ...(p.sim.instrument as object),
          refusal_rate: 0.05,
          neutral_rate: 0.05,
          style: { bare: 1, sentence: 1, markdown: 1 },
        },
      },
    })),
  };
  await writeFile(path.join(dir, 'models.yaml'), stringify(models));
  ledger = path.join(dir, 'run.ledger.sqlite');
  const r = await runCli([
    'run',
    fx.bundle,
    '--models',
    path.join(dir, 'models.yaml'),
    '--ledger',
    ledger,
    '--json',
  ]);
  expect(r.code, r.stderr).toBe(0);
});

describe('stimkit score --ledger', () => {
  it("recovers the simulator's labels and keyed stance exactly, with origin from the ledger", async () => {
    const out = path.join(dir, 'scores');
    const r = await runCli([
      'score',
      '--bundle',
      fx.bundle,
      '--ledger',
      ledger,
      '--out',
      out,
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const header = ScoresHeader.parse(
      JSON.parse(await readFile(path.join(out, 'score.json'), 'utf8')),
    );
    expect(header.params.source).toBe('ledger');
    expect(header.params.run).not.toBeNull();
    expect(header.counts.models.map((m) => [m.name, m.origin, m.simulated])).toEqual([
      ['sim-acquiescer', 'FR', true],
      ['sim-convinced', 'CN', true],
    ]);

    const truth = new Map<string, Record<string, unknown>>();
    const reader = openLedger(ledger);
    for (const res of reader.results()) truth.set(`${res.model}|${res.trial_id}`, res.truth!);
    reader.close();

    const lines = (await readFile(path.join(out, 'scores.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => ScoreLine.parse(JSON.parse(l)));
    expect(lines.length).toBe(truth.size);
    let answered = 0;
    let abstained = 0;
    for (const l of lines) {
      const t = truth.get(`${l.model}|${l.trial}`)!;
      expect(l.simulated).toBe(true);
      if (t.label === null) {
        abstained++;
        expect([l.score, l.stance]).toEqual([0, 0]);
        expect(['neutral', 'refusal', 'unparseable']).toContain(l.reason);
      } else {
        answered++;
        expect(l.parse.label).toBe(t.label);
        expect(l.score).toBe(t.score);
        expect(l.stance).toBe(t.stance);
        expect(l.reason).toBeNull();
      }
    }
    expect(answered).toBeGreaterThan(100);
    expect(abstained).toBeGreaterThan(0);

    const csv = parseCsv(await readFile(path.join(out, 'instrument.csv'), 'utf8'));
    expect(csv.rows.length).toBe(lines.length);
    expect(new Set(csv.rows.map((row) => row[csv.header.indexOf('lang')]))).toEqual(
      new Set(['en', 'zh', 'pt']),
    );
  });

  it('run export JSONL fed to score --responses gives the same instrument.csv as score --ledger', async () => {
    const models = path.join(dir, 'models.yaml');
    const viaLedger = path.join(dir, 'scores-ledger');
    const a = await runCli([
      'score',
      '--bundle',
      fx.bundle,
      '--ledger',
      ledger,
      '--models',
      models,
      '--out',
      viaLedger,
      '--json',
    ]);
    expect(a.code, a.stderr).toBe(0);
    const exported = path.join(dir, 'export.jsonl');
    const e = await runCli(['run', 'export', '--ledger', ledger, '--out', exported, '--json']);
    expect(e.code, e.stderr).toBe(0);
    const first = JSON.parse((await readFile(exported, 'utf8')).split('\n')[0]!) as Record<
      string,
      unknown
    >;
    expect(first).toHaveProperty('response_text');
    expect(first).toHaveProperty('latency_ms');
    expect(first).not.toHaveProperty('response');
    const viaExport = path.join(dir, 'scores-export');
    const b = await runCli([
      'score',
      '--bundle',
      fx.bundle,
      '--responses',
      exported,
      '--models',
      models,
      '--out',
      viaExport,
      '--json',
    ]);
    expect(b.code, b.stderr).toBe(0);
    const csvA = await readFile(path.join(viaLedger, 'instrument.csv'), 'utf8');
    expect(csvA.split('\n').length).toBeGreaterThan(100);
    expect(await readFile(path.join(viaExport, 'instrument.csv'), 'utf8')).toBe(csvA);
    expect(await readFile(path.join(viaExport, 'scores.jsonl'), 'utf8')).toBe(
      await readFile(path.join(viaLedger, 'scores.jsonl'), 'utf8'),
    );
  });

  it('refuses a ledger whose run answered another bundle', async () => {
    const other = await tempDir('stimkit-score-ledger-other-');
    const fx2 = await instrumentBundle(other, { iterations: 1, ptIterations: 0, seed: 7 });
    const r = await runCli([
      'score',
      '--bundle',
      fx2.bundle,
      '--ledger',
      ledger,
      '--out',
      path.join(other, 'o'),
      '--json',
    ]);
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('E_SCORE_LEDGER_BUNDLE');
  });
});
