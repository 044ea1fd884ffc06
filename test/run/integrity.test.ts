// Integrity of a run's inputs and outputs: a key pasted as api_key_env is never printed; an
// endpoint carrying credentials is refused; a --where that selects nothing writes no ledger and
// names what exists; an oversized reply fails its attempt as response_too_large (not retried);
// readers of a ledger leave no -wal/-shm files behind.
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/read.js';
import { runStudy, type RunResult } from '../../src/run/run.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { writeRunBag } from './fixture.js';
import { FAST, query, writeModels } from './helpers.js';
import { startServer, type TestServer } from './server.js';

let dir: string;
let bag: string;
let server: TestServer;

beforeAll(async () => {
  dir = await tempDir('stimkit-run-integrity-');
  bag = path.join(dir, 'bag');
  await writeRunBag(bag, 6);
  server = await startServer((r) =>
    r.k === 4 ? { kind: 'ok', text: 'y'.repeat(3 * 1024 * 1024) } : { kind: 'ok' },
  );
});
afterAll(() => server.close());

describe('secrets in the models file', () => {
  it('never prints a key pasted as api_key_env, naming the field and why', async () => {
    const key = 'sk-proj-AbC123dEf456GhI789jKl012';
    const underscored = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';
    const models = await writeModels(
      dir,
      [
        { name: 'a', endpoint: server.url, api_key_env: key },
        { name: 'b', endpoint: server.url, api_key_env: underscored },
      ],
      'pasted.yaml',
    );
    const r = await runCli(['run', bag, '--models', models, '--dry-run', '--json']);
    expect(r.code).toBe(1);
    const problems = r.json().error.problems as Array<{ field: string; message: string }>;
    expect(problems.map((p) => p.field)).toEqual(
      expect.arrayContaining(['models[0].api_key_env', 'models[1].api_key_env']),
    );
    expect(problems.some((p) => /looks like an API key/.test(p.message))).toBe(true);
    for (const text of [r.stdout, r.stderr]) {
      expect(text).not.toContain(key.slice(0, 12));
      expect(text).not.toContain(underscored.slice(0, 12));
    }
    const human = await runCli(['run', bag, '--models', models, '--dry-run']);
    expect(human.stderr).toContain('api_key_env');
    expect(human.stderr).not.toContain(key.slice(0, 12));
    // The one-model shorthand too.
    const flag = await runCli([
      'run',
      bag,
      '--model',
      'a',
      '--endpoint',
      server.url,
      '--api-key-env',
      underscored,
    ]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('api_key_env');
    expect(flag.stderr).not.toContain(underscored.slice(0, 12));
  });

  it('refuses an endpoint with credentials, naming the field and never the URL', async () => {
    const base = server.url.replace('http://', '');
    for (const endpoint of [
      `http://alice:hunter2pass@${base}`,
      `${server.url}?key=AIzaSyD-secret-value`,
      [server.url, `${server.url}?api_key=tok-secret-value`],
    ]) {
      const models = await writeModels(dir, [{ name: 'm', endpoint }], 'creds.yaml');
      const r = await runCli(['run', bag, '--models', models, '--dry-run', '--json']);
      expect(r.code).toBe(1);
      const p = r.json().error.problems[0];
      expect(p.field).toMatch(/^models\[0\]\.endpoint/);
      for (const secret of ['hunter2pass', 'secret-value']) {
        expect(r.stdout).not.toContain(secret);
        expect(r.stderr).not.toContain(secret);
      }
    }
    expect(server.requests).toHaveLength(0);
    const flag = await runCli([
      'run',
      bag,
      '--model',
      'm',
      '--endpoint',
      `http://u:hunter2pass@${base}`,
    ]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('credentials');
    expect(flag.stderr).not.toContain('hunter2pass');
  });
});

describe('run --where that selects nothing', () => {
  it('exits 1 naming the values that exist, and writes no ledger', async () => {
    const models = await writeModels(dir, [{ name: 'm', endpoint: server.url }], 'where.yaml');
    const ledger = path.join(dir, 'where', 'ledger.sqlite');
    const r = await runCli([
      'run',
      bag,
      '--models',
      models,
      '--where',
      'lang=fr,paradigm=describe',
      '--ledger',
      ledger,
      '--json',
    ]);
    expect(r.code).toBe(1);
    const e = r.json().error;
    expect(e.code).toBe('E_RUN_WHERE_EMPTY');
    expect(e.problems[0].expected).toContain('lang: en | zh');
    expect(e.problems[0].expected).toContain('paradigm: comment-text | describe');
    expect(existsSync(ledger)).toBe(false);
    expect(existsSync(path.dirname(ledger))).toBe(false);
    expect(server.requests).toHaveLength(0);
  });
});

describe('reply size cap', () => {
  it('fails an oversized reply as response_too_large, recorded once and not retried', async () => {
    const models = await writeModels(
      dir,
      [{ name: 'capped', endpoint: server.url, max_response_mib: 1 }],
      'cap.yaml',
    );
    const ledger = path.join(dir, 'cap.sqlite');
    const before = server.requests.length;
    const r = (await runStudy({
      bundle: bag,
      modelsFile: models,
      ledger,
      backoff: FAST,
    })) as RunResult;
    expect(r.models[0]!.failed).toEqual({ response_too_large: 1 });
    expect(r.models[0]!.done).toBe(7);
    expect(server.requests.slice(before).filter((q) => q.k === 4)).toHaveLength(1);
    const rows = query(ledger, "SELECT * FROM results WHERE outcome = 'failed'");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ error_class: 'response_too_large', attempts: 1 });
    expect(rows[0].error_body).toMatch(/larger than 1048576 bytes/);
  });
});

describe('clean exits', () => {
  it('leaves no -wal or -shm beside a ledger after a run, a failed run and a read', async () => {
    const sub = path.join(dir, 'clean');
    const models = await writeModels(dir, [{ name: 'm', endpoint: server.url }], 'clean.yaml');
    const ledger = path.join(sub, 'ledger.sqlite');
    const ok = await runCli(['run', bag, '--models', models, '--ledger', ledger, '--limit', '2']);
    expect(ok.code, ok.stderr).toBe(0);
    // an error path: a run of another bundle into the same ledger run is refused after opening it
    const other = path.join(dir, 'bag2');
    await writeRunBag(other, 3);
    const refused = await runCli(['run', other, '--models', models, '--ledger', ledger]);
    expect(refused.code).not.toBe(0);
    // readers last: SQLite leaves a read-only connection's side files behind
    const reader = openLedger(ledger);
    expect([...reader.results()]).toHaveLength(2);
    reader.close();
    const exported = await runCli(['run', 'export', '--ledger', ledger]);
    expect(exported.code).toBe(0);
    expect((await readdir(sub)).sort()).toEqual(['ledger.sqlite']);
  });
});
