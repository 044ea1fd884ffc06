// The run command line: it verifies the bundle first, --dry-run sends nothing, the one-model
// shorthand, --where and --limit, run export, and Ctrl-C (exit 130, ledger consistent, resumable).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { copyBag } from '../verify/fixture.js';
import { writeRunBag } from './fixture.js';
import { query, writeModels } from './helpers.js';
import { startServer, type TestServer } from './server.js';

let dir: string;
let bag: string;
let server: TestServer;
beforeAll(async () => {
  dir = await tempDir('stimkit-run-cli-');
  bag = path.join(dir, 'bag');
  await writeRunBag(bag, 10);
  server = await startServer();
});
afterAll(() => server.close());

describe('stimkit run', () => {
  it('refuses a bundle that does not verify, naming the file', async () => {
    const bad = await copyBag(bag, dir, 'tampered');
    await appendFile(path.join(bad, 'data', 'trials.jsonl'), '\n');
    const models = await writeModels(dir, [{ name: 'm', endpoint: server.url }]);
    const r = await runCli(['run', bad, '--models', models, '--json']);
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('E_RUN_BUNDLE_INVALID');
    expect(r.stderr).toContain('data/trials.jsonl');
    expect(server.requests).toHaveLength(0);
  });

  it('warns of a model no trial is for (dry run and run), beside one that runs', async () => {
    const own = await startServer();
    const models = await writeModels(
      dir,
      [
        { name: 'm', endpoint: own.url },
        { name: 'none', endpoint: own.url, paradigms: ['instrument'] },
      ],
      'none.models.yaml',
    );
    const warn = 'warning: no trial of this bundle is for none';
    const dry = await runCli(['run', bag, '--models', models, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout + dry.stderr).toContain(warn);
    expect(dry.stdout + dry.stderr).not.toContain('is for m:');
    const ledger = path.join(dir, 'none.sqlite');
    const r = await runCli(['run', bag, '--models', models, '--ledger', ledger]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toContain(warn);
    await own.close();
  });

  it('--dry-run sends and writes nothing, and shows counts and one request with the image elided', async () => {
    const models = await writeModels(dir, [
      { name: 'm', endpoint: server.url, sampling: { top_k: 'drop' } },
      { name: 'text-only', endpoint: server.url, modalities: ['text'] },
    ]);
    const ledger = path.join(dir, 'dry.sqlite');
    const r = await runCli([
      'run',
      bag,
      '--models',
      models,
      '--ledger',
      ledger,
      '--dry-run',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const j = r.json();
    expect(j.models.map(({ estimate: _, ...m }: Record<string, unknown>) => m)).toEqual([
      {
        model: 'm',
        provider: 'openai',
        trials: 12,
        blocks: { 'comment-text': 10, describe: 2 },
        dropped: ['top_k'],
      },
      {
        model: 'text-only',
        provider: 'openai',
        trials: 10,
        blocks: { 'comment-text': 10 },
        dropped: [],
      },
    ]);
    // The images each model will be sent (the bundle bytes without an image block); no price, no cost.
    expect(j.models[0].estimate.images).toMatchObject({ sent: 2, distinct: 2 });
    expect(j.models[0].estimate.cost_usd).toBeNull();
    expect(j.models[1].estimate.images).toBeNull();
    const url = j.example.body.messages[0].content[0].image_url.url as string;
    expect(url).toMatch(/^data:image\/png;base64,…\(image [0-9a-f]{12}…, elided\)$/);
    expect(r.stderr).toContain('example request');
    expect(server.requests).toHaveLength(0);
    expect(existsSync(ledger)).toBe(false);
  });

  it('runs one model without a models file, narrowed by --where and --limit, and exports it', async () => {
    const ledger = path.join(dir, 'short.sqlite');
    const r = await runCli([
      'run',
      bag,
      '--model',
      'quick',
      '--endpoint',
      server.url,
      '--api-model',
      'served/quick',
      '--where',
      'paradigm=comment-text,lang=zh',
      '--limit',
      '3',
      '--ledger',
      ledger,
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().models[0]).toMatchObject({
      model: 'quick',
      selected: 3,
      done: 3,
      outcomes: { answer: 3 },
    });
    expect(
      server.requests.slice(-3).every((q) => q.body.model === 'served/quick' && q.k % 2 === 1),
    ).toBe(true);
    const csv = path.join(dir, 'short.csv');
    const ex = await runCli([
      'run',
      'export',
      '--ledger',
      ledger,
      '--format',
      'csv',
      '--out',
      csv,
      '--json',
    ]);
    expect(ex.json()).toMatchObject({ rows: 3, format: 'csv' });
    const lines = (await readFile(csv, 'utf8')).trim().split('\r\n');
    expect(lines[0]).toMatch(/^bundle_digest,run,model,trial_id,block,paradigm,/);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(',quick,');
    expect(lines[1]).toContain(',zh,');
    // an unknown --model is a usage error listing the run's models, as run does
    const none = await runCli([
      'run',
      'export',
      '--ledger',
      ledger,
      '--model',
      'nosuch',
      '--out',
      path.join(dir, 'none.csv'),
      '--json',
    ]);
    expect(none.code).toBe(2);
    expect(none.json().error.code).toBe('E_RUN_UNKNOWN_MODEL');
    expect(none.json().error.message).toContain('(it has: quick)');
    expect(existsSync(path.join(dir, 'none.csv'))).toBe(false);
    // one-model mode: the fixes name the flags, not a models file
    const changed = await runCli([
      'run',
      bag,
      '--model',
      'quick',
      '--endpoint',
      server.url,
      '--api-model',
      'served/other',
      '--ledger',
      ledger,
      '--json',
    ]);
    expect(changed.code).toBe(1);
    expect(changed.json().error.code).toBe('E_RUN_REQUEST_CHANGED');
    expect(changed.json().error.message).toContain(
      'Fix: give the recorded --endpoint, --api-model and --api-key-env again to resume',
    );
    expect(changed.json().error.message).not.toContain('models file');
    const nokey = await runCli([
      'run',
      bag,
      '--model',
      'quick',
      '--endpoint',
      server.url,
      '--api-key-env',
      'STIMKIT_TEST_UNSET_KEY',
      '--ledger',
      path.join(dir, 'nokey.sqlite'),
      '--json',
    ]);
    expect(nokey.json().error).toMatchObject({
      code: 'E_RUN_NO_KEY',
      problems: [expect.objectContaining({ field: '--api-key-env' })],
    });
    expect(nokey.json().error.message).toContain('the variable --api-key-env names');
  });

  it('usage errors exit 2', async () => {
    expect((await runCli(['run', bag, '--json'])).code).toBe(2);
    expect((await runCli(['run', bag, '--endpoint', server.url, '--json'])).code).toBe(2);
    expect(
      (await runCli(['run', bag, '--models', 'x.yaml', '--where', 'nope=1', '--json'])).code,
    ).not.toBe(0);
  });
});

describe('a second run on the same ledger', () => {
  it('is refused while the first is running, naming it', async () => {
    const slow = await startServer(() => ({ kind: 'ok' }), 150);
    try {
      const models = await writeModels(
        dir,
        [{ name: 'm', endpoint: slow.url, concurrency: 1 }],
        'busy.yaml',
      );
      const ledger = path.join(dir, 'busy.sqlite');
      const child = spawn(
        process.execPath,
        [`${ROOT}bin/stimkit.js`, 'run', bag, '--models', models, '--ledger', ledger],
        { stdio: 'ignore' },
      );
      const exited = new Promise<number | null>((resolve) =>
        child.on('exit', (code) => resolve(code)),
      );
      while (slow.requests.length < 1) await new Promise((r) => setTimeout(r, 20));
      const second = await runCli(['run', bag, '--models', models, '--ledger', ledger, '--json']);
      expect(second.code).toBe(1);
      expect(second.json().error.code).toBe('E_RUN_LEDGER_BUSY');
      expect(second.stderr).toContain(`pid ${child.pid}`);
      expect(await exited).toBe(0);
      const perTrial = query(ledger, 'SELECT COUNT(*) AS n FROM results GROUP BY trial_id');
      expect(perTrial).toHaveLength(12);
      expect(perTrial.every((r) => r.n === 1)).toBe(true);
    } finally {
      await slow.close();
    }
  });
});

describe('Ctrl-C', () => {
  it('stops sending, waits for requests in flight, leaves the ledger consistent and exits 130', async () => {
    const slow = await startServer(() => ({ kind: 'ok' }), 200);
    try {
      const models = await writeModels(
        dir,
        [{ name: 'm', endpoint: slow.url, concurrency: 2 }],
        'slow.yaml',
      );
      const ledger = path.join(dir, 'sigint.sqlite');
      const child = spawn(
        process.execPath,
        [`${ROOT}bin/stimkit.js`, 'run', bag, '--models', models, '--ledger', ledger, '--json'],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      child.stdout.on('data', (c) => (stdout += c));
      const exited = new Promise<number | null>((resolve) =>
        child.on('exit', (code) => resolve(code)),
      );
      while (slow.requests.length < 3) await new Promise((r) => setTimeout(r, 20));
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      expect(JSON.parse(stdout)).toMatchObject({ interrupted: true });
      expect(
        query(ledger, "SELECT COUNT(*) AS n FROM attempts WHERE state = 'in_flight'")[0].n,
      ).toBe(0);
      const done = query(ledger, 'SELECT COUNT(*) AS n FROM results')[0].n;
      expect(done).toBeGreaterThan(0);
      expect(done).toBeLessThan(12);
      expect(slow.requests.length).toBe(done); // no request left unanswered
      const again = await runCli(['run', bag, '--models', models, '--ledger', ledger, '--json']);
      expect(again.json().models[0]).toMatchObject({ already_recorded: done, done: 12 - done });
    } finally {
      await slow.close();
    }
  });
});
