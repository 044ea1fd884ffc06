// Two writers forced past the lock never send the same trial twice: a trial is claimed in the
// ledger (one transaction, with the writer's id) before its request leaves, and a writer sends
// only what it claimed. Here a run's lock row is deleted while it runs (as someone clearing it by
// hand would) and a second run starts on the same ledger in the same process: the first stops
// claiming (it lost its lock), the second leaves the first's claims alone, and the server sees
// every trial at most once; a third run then finishes the rest, each trial still sent once.
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStudy, type RunResult } from '../../src/run/run.js';
import { tempDir } from '../helpers/tmp.js';
import { writeRunBag } from './fixture.js';
import { FAST, query, writeModels } from './helpers.js';
import { startServer, type TestServer } from './server.js';

const N = 24;
let dir: string;
let bag: string;
let server: TestServer;
beforeAll(async () => {
  dir = await tempDir('stimkit-run-claims-');
  bag = path.join(dir, 'bag');
  await writeRunBag(bag, N);
  server = await startServer(() => ({ kind: 'ok' }), 80);
});
afterAll(() => server.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const sentPerTrial = () => {
  const perK = new Map<number, number>();
  for (const r of server.requests) perK.set(r.k, (perK.get(r.k) ?? 0) + 1);
  return perK;
};

describe('two writers forced past the lock', () => {
  it('never send the same trial twice', async () => {
    const models = await writeModels(dir, [{ name: 'm', endpoint: server.url, concurrency: 3 }]);
    const ledger = path.join(dir, 'claims.sqlite');
    const run = () =>
      runStudy({ bundle: bag, modelsFile: models, ledger, backoff: FAST }) as Promise<RunResult>;
    const first = run().then(
      (r) => ({ ok: true as const, r }),
      (err: unknown) => ({ ok: false as const, err: err as Error & { code?: string } }),
    );
    while (server.requests.length < 4) await sleep(5);
    const db = new Database(ledger, { timeout: 5000 });
    db.prepare('DELETE FROM lock').run();
    db.close();
    const second = await run();
    const a = await first;
    if (!a.ok) expect(a.err.code, a.err.message).toBe('E_RUN_LEDGER_BUSY');
    expect([...sentPerTrial().values()].filter((n) => n > 1)).toEqual([]);
    expect(second.models[0]!.done).toBeGreaterThan(0);

    await run();
    const perK = sentPerTrial();
    expect([...perK.values()].filter((n) => n > 1)).toEqual([]);
    expect(perK.size).toBe(N + 2);
    expect(query(ledger, 'SELECT COUNT(*) AS n FROM results')[0].n).toBe(N + 2);
    expect(query(ledger, "SELECT COUNT(*) AS n FROM attempts WHERE state = 'in_flight'")[0].n).toBe(
      0,
    );
  });
});
