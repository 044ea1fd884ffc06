/**
 * `stimkit export inspect --scores`: an instrument study run by a simulated respondent and scored.
 * Each instrument sample carries the scorer's label, score and keyed stance (as scores.jsonl has
 * them); a trial without a response carries none (never a 0); iterations are epochs; wrappers and
 * polarity are in the metadata. Bad inputs are refused with a code and a fix, writing nothing.
 */
import { cp, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { stringify } from 'yaml';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { SIM_PRESETS } from '../../src/sim/index.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { bundleTrials, instrumentBundle, type InstrumentFixture } from '../score/fixture.js';
import { inspectValidator, unzipJson } from './schema.js';

// Limits that grow with the load (test/helpers/limits.ts): 126 s a test, 306 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(7), hookTimeout: heavyLimit(17) });

let dir: string;
let fx: InstrumentFixture;
let ledger: string;
let scores: string;
let failedTrial: string;

const exportArgs = (o: { bundle?: string; ledger?: string; scores?: string; out: string }) => [
  'export',
  'inspect',
  '--bundle',
  o.bundle ?? fx.bundle,
  '--ledger',
  o.ledger ?? ledger,
  ...(o.scores ? ['--scores', o.scores] : []),
  '--out',
  o.out,
  '--json',
];

beforeAll(async () => {
  dir = await tempDir('stimkit-export-scores-');
  fx = await instrumentBundle(dir, { iterations: 2, ptIterations: 0 });
  const preset = SIM_PRESETS.find((p) => p.name === 'sim-convinced')!;
  const models = path.join(dir, 'models.yaml');
  await writeFile(
    models,
    stringify({
      format: 'stimkit.models',
      version: 1,
      models: [{ name: preset.name, provider: 'sim', origin: 'CN', sim: preset.sim }],
    }),
  );
  ledger = path.join(dir, 'run.ledger.sqlite');
  const run = await runCli(['run', fx.bundle, '--models', models, '--ledger', ledger, '--json']);
  expect(run.code, run.stderr).toBe(0);
  // one trial without a reply, as a failed request leaves it
  failedTrial = (await bundleTrials(fx.bundle))[0]!.id;
  const db = new Database(ledger);
  db.prepare(
    "UPDATE results SET outcome = 'failed', response_text = NULL, error_class = 'http_400', http_status = 400 WHERE trial_id = ?",
  ).run(failedTrial);
  db.close();
  scores = path.join(dir, 'scores');
  const s = await runCli([
    'score',
    '--bundle',
    fx.bundle,
    '--ledger',
    ledger,
    '--out',
    scores,
    '--json',
  ]);
  expect(s.code, s.stderr).toBe(0);
});

describe('stimkit export inspect --scores', () => {
  it('carries the instrument scores of scores.jsonl, none for a trial without a response', async () => {
    const out = path.join(dir, 'inspect');
    const r = await runCli(exportArgs({ scores, out }));
    expect(r.code, r.stderr).toBe(0);
    const [name] = (await readdir(out)).filter((n) => n.endsWith('.eval'));
    expect(name).toBe('instrument-fixture_instrument_sim-convinced.eval');
    const files = unzipJson(await readFile(path.join(out, name!)));
    const samples = [...files].filter(([n]) => n.startsWith('samples/')).map(([, v]) => v);
    const lines = (await readFile(path.join(scores, 'scores.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const trials = new Map((await bundleTrials(fx.bundle)).map((t) => [t.id, t]));
    const items = JSON.parse(await readFile(path.join(fx.bundle, 'data', 'items.json'), 'utf8'));
    const key = new Map(items.items.map((i: any) => [i.id, i.polarity_key]));
    expect(samples.length).toBe(lines.length);
    const validate = inspectValidator('EvalSample');
    for (const s of samples) {
      expect(validate(s) ? [] : validate.errors).toEqual([]);
      const line = lines.find((l) => l.trial === s.metadata.trial_id);
      const t = trials.get(s.metadata.trial_id)!;
      expect(s.epoch).toBe(t.iteration! + 1);
      expect(s.id).toBe(`${t.arm}.${t.topic}.${t.lang}.${t.framing}`);
      expect(s.metadata.wrapper_prefix).toBe(t.wrappers!.prefix.id);
      expect(s.metadata.polarity).toBe(key.get(t.item));
      expect([1, -1]).toContain(s.metadata.polarity);
      if (s.metadata.trial_id === failedTrial) {
        expect(line.reason).toBe('failed');
        expect(line.score).toBeNull();
        expect(Object.keys(s.scores)).toEqual(['outcome']);
        expect(s.scores.outcome.value).toBe('failed');
        continue;
      }
      expect(s.scores.instrument_score.value).toBe(line.score);
      expect(s.scores.instrument_stance.value).toBe(line.stance);
      if (line.parse.label !== null) expect(s.scores.instrument_label.value).toBe(line.parse.label);
      else expect(s.scores.instrument_label).toBeUndefined();
    }
    expect(new Set(samples.map((s) => s.epoch))).toEqual(new Set([1, 2]));
    const header = files.get('header.json');
    const score = header.results.scores.find((x: any) => x.name === 'instrument_score');
    expect(score.unscored_samples).toBe(1);
    expect(score.scored_samples).toBe(samples.length - 1);
  });

  it('refuses a missing ledger (E_LEDGER_NOT_FOUND), writing nothing', async () => {
    const out = path.join(dir, 'none-1');
    const r = await runCli(exportArgs({ ledger: path.join(dir, 'nope.sqlite'), out }));
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('E_LEDGER_NOT_FOUND');
    expect(r.json().error.problems[0].fix).toBeTruthy();
    expect(existsSync(out)).toBe(false);
  });

  it('refuses a ledger of another bundle, naming both digests (E_EXPORT_LEDGER_BUNDLE)', async () => {
    const other = path.join(dir, 'other');
    await mkdir(other);
    const fx2 = await instrumentBundle(other, { iterations: 2, ptIterations: 0, seed: 7 });
    expect(fx2.digest).not.toBe(fx.digest);
    const out = path.join(dir, 'none-2');
    const r = await runCli(exportArgs({ bundle: fx2.bundle, out }));
    expect(r.code).toBe(1);
    const e = r.json().error;
    expect(e.code).toBe('E_EXPORT_LEDGER_BUNDLE');
    expect(e.message).toContain(fx.digest);
    expect(e.message).toContain(fx2.digest);
    expect(e.problems[0].fix).toBeTruthy();
    expect(existsSync(out)).toBe(false);
  });

  it('refuses scores of another bundle (E_EXPORT_SCORES_BUNDLE)', async () => {
    const copy = path.join(dir, 'scores-copy');
    await cp(scores, copy, { recursive: true });
    const file = path.join(copy, 'score.json');
    const header = JSON.parse(await readFile(file, 'utf8'));
    header.bundle.digest = 'f'.repeat(64);
    await writeFile(file, JSON.stringify(header));
    const out = path.join(dir, 'none-3');
    const r = await runCli(exportArgs({ scores: copy, out }));
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('E_EXPORT_SCORES_BUNDLE');
    expect(existsSync(out)).toBe(false);
  });

  it('refuses scores made from other responses than the ledger run holds (E_EXPORT_SCORES_LEDGER)', async () => {
    // The same run label, other replies: the ledger run again after scoring, or another ledger.
    const other = path.join(dir, 'rerun.ledger.sqlite');
    await cp(ledger, other);
    const trial = (await bundleTrials(fx.bundle))[3]!.id;
    const db = new Database(other);
    db.prepare("UPDATE results SET response_text = 'Strongly disagree.' WHERE trial_id = ?").run(
      trial,
    );
    db.close();
    const out = path.join(dir, 'none-5');
    const r = await runCli(exportArgs({ ledger: other, scores, out }));
    expect(r.code).toBe(1);
    const e = r.json().error;
    expect(e.code).toBe('E_EXPORT_SCORES_LEDGER');
    expect(e.problems[0].got).toContain(`trial ${trial}: the ledger holds another text`);
    expect(e.problems[0].fix).toContain('score this run again');
    expect(existsSync(out)).toBe(false);
    // the ledger the scores were made from exports with them
    const ok = await runCli(exportArgs({ scores, out: path.join(dir, 'ok-5') }));
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('refuses to replace a folder it did not write (E_OUT_NOT_OURS), leaving it untouched', async () => {
    const out = path.join(dir, 'theirs');
    await mkdir(out);
    await writeFile(path.join(out, 'notes.txt'), 'mine');
    const r = await runCli(exportArgs({ out }));
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('E_OUT_NOT_OURS');
    expect(await readdir(out)).toEqual(['notes.txt']);
  });
});
