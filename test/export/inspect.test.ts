/**
 * `stimkit export inspect`: a small run (test/export/fixture.ts) written as Inspect logs. Every
 * JSON file of every `.eval` validates against Inspect's own schema (vendored, closed objects);
 * every result of the ledger is exactly one sample; each outcome has its stop reason; the bytes
 * are the same on a second export; one sample equals its golden file.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { sha256 } from '../../src/core/fsio.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { exportFixture, MODEL, OUTCOME_OF_K } from './fixture.js';
import { inspectValidator, unzipJson } from './schema.js';
import type { Trial } from '../../src/bundle/format.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 180 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(10) });

let dir: string;
let fx: Awaited<ReturnType<typeof exportFixture>>;
let out: string;
let logs: Map<string, Map<string, any>>;

const valid = (name: string, value: unknown, what: string, list = false) => {
  const v = inspectValidator(name, list);
  expect(v(value) ? [] : v.errors, what).toEqual([]);
};

async function exportTo(target: string, extra: string[] = []) {
  const r = await runCli([
    'export',
    'inspect',
    '--bundle',
    fx.bag,
    '--ledger',
    fx.ledger,
    '--out',
    target,
    ...extra,
    '--json',
  ]);
  expect(r.code, r.stderr).toBe(0);
  return r.json();
}

beforeAll(async () => {
  dir = await tempDir('stimkit-export-inspect-');
  fx = await exportFixture(dir);
  out = path.join(dir, 'inspect');
  await exportTo(out);
  logs = new Map();
  for (const f of (await readdir(out)).filter((n) => n.endsWith('.eval')))
    logs.set(f, unzipJson(await readFile(path.join(out, f))));
});

describe('stimkit export inspect', () => {
  it('writes one log per paradigm × model, named safely, with the files Inspect reads', async () => {
    const hash = sha256(MODEL).slice(0, 8);
    expect([...logs.keys()].sort()).toEqual([
      `fixture_comment-text_acme-vl-1-${hash}.eval`,
      `fixture_describe_acme-vl-1-${hash}.eval`,
    ]);
    for (const [name, files] of logs) {
      const names = [...files.keys()];
      expect(names[0], name).toBe('_journal/start.json');
      expect(names.slice(-2), name).toEqual(['summaries.json', 'header.json']);
      expect(names.slice(1, -2).every((n) => /^samples\/[^/]+_epoch_\d+\.json$/.test(n))).toBe(
        true,
      );
    }
    const header = JSON.parse(await readFile(path.join(out, 'export.json'), 'utf8'));
    expect(header.format).toBe('stimkit.export-inspect');
    expect(header.inspect.commit).toBe('499e6152e7b8fc8cbd8ac5283536572aa6e4ab17');
    const version = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')).version;
    expect(header.tool).toEqual({ name: 'stimkit', version });
    for (const files of logs.values()) {
      expect(files.get('header.json').eval.packages).toEqual({ stimkit: version });
      expect(files.get('header.json').eval.metadata.stimkit.tool.version).toBe(version);
    }
    for (const f of header.files)
      expect(sha256(await readFile(path.join(out, f.file))), f.file).toBe(f.sha256);
  });

  it("validates every file against Inspect's schema", () => {
    for (const [name, files] of logs) {
      const start = files.get('_journal/start.json');
      expect(Object.keys(start).sort(), name).toEqual(['eval', 'plan', 'version']);
      expect(start.version).toBe(2);
      valid('EvalSpec', start.eval, `${name} start.eval`);
      valid('EvalPlan', start.plan, `${name} start.plan`);
      const header = files.get('header.json');
      expect(header.samples).toBeUndefined();
      expect(header.eval.metadata.stimkit.inspect.log_format_version).toBe(2);
      valid('EvalLog', header, `${name} header.json`);
      valid('EvalSampleSummary', files.get('summaries.json'), `${name} summaries.json`, true);
      for (const [entry, value] of files)
        if (entry.startsWith('samples/')) valid('EvalSample', value, `${name} ${entry}`);
    }
  });

  it('the closed schema rejects a field Inspect does not define, and a stop reason it does not know', () => {
    const sample = [...[...logs.values()][0]!].find(([n]) => n.startsWith('samples/'))![1];
    const v = inspectValidator('EvalSample');
    expect(v(sample)).toBe(true);
    expect(v({ ...sample, trial: 'x' })).toBe(false);
    const choice = { ...sample.output.choices[0], stop_reason: 'provider_block' };
    expect(v({ ...sample, output: { ...sample.output, choices: [choice] } })).toBe(false);
  });

  it('holds every result of the ledger exactly once, with its stop reason and outcome score', () => {
    const samples = [...logs.values()].flatMap((files) =>
      [...files].filter(([n]) => n.startsWith('samples/')).map(([, v]) => v),
    );
    const ids = samples.map((s) => s.metadata.trial_id).sort();
    expect(ids).toEqual(fx.trials.map((t: Trial) => t.id).sort());
    const stop = {
      answer: 'stop',
      length: 'max_tokens',
      provider_block: 'content_filter',
      suppressed: 'stop',
      failed: 'unknown',
    } as Record<string, string>;
    fx.trials.forEach((t: Trial, k: number) => {
      const s = samples.find((x) => x.metadata.trial_id === t.id);
      expect(s.scores.outcome.value, `trial ${k}`).toBe(OUTCOME_OF_K[k]);
      expect(s.output.choices[0].stop_reason, `trial ${k}`).toBe(stop[OUTCOME_OF_K[k]!]);
      expect(s.error !== undefined, `trial ${k} error`).toBe(OUTCOME_OF_K[k] === 'failed');
    });
    const first = samples.find((x) => x.metadata.trial_id === fx.trials[0]!.id);
    expect(first.output.choices[0].message.content[0]).toEqual({
      type: 'reasoning',
      reasoning: 'Thinking first.',
      redacted: false,
    });
    const usage = first.model_usage[`openai/${MODEL}`];
    expect(usage).toEqual({
      input_tokens: 10,
      output_tokens: 5,
      total_tokens: 15,
      total_cost: 0.00002,
    });
  });

  it('carries the images as attachments, referenced from the input', () => {
    const files = [...logs].find(([n]) => n.includes('_describe_'))![1];
    const answered = [...files].find(([n, v]) => n.startsWith('samples/') && !v.error)![1];
    const ref = answered.input[0].content[0].image as string;
    expect(ref).toMatch(/^attachment:\/\/[0-9a-f]{64}$/);
    const digest = ref.slice('attachment://'.length);
    expect(answered.attachments[digest]).toMatch(/^data:image\/png;base64,/);
    const bytes = Buffer.from(answered.attachments[digest].split(',')[1], 'base64');
    expect(sha256(bytes)).toBe(digest);
  });

  it('writes the same bytes again', async () => {
    const again = path.join(dir, 'again');
    await exportTo(again);
    for (const name of [...logs.keys(), 'export.json']) {
      const a = await readFile(path.join(out, name));
      const b = await readFile(path.join(again, name));
      if (name === 'export.json')
        expect(b.toString().replaceAll('again', 'inspect')).toBe(a.toString());
      else expect(sha256(b), name).toBe(sha256(a));
    }
  });
});
