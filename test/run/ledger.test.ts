// The ledger's guarantees: (a) a rerun continues and never re-sends a trial with a final result;
// (c) a second writer is refused while the first is alive, and a dead writer's lock is taken over
// with its in-flight attempts marked interrupted, while a lock whose owner cannot be checked (an
// older stimkit's, without PID namespace and start time) is refused, naming how to clear it; (d) another bundle, or changed requests, are
// refused naming what changed, unless --new-run starts a new run.
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfIdentity } from '../../src/ledger/owner.js';
import { openLedger } from '../../src/ledger/read.js';
import { runStudy, type RunResult } from '../../src/run/run.js';
import { tempDir } from '../helpers/tmp.js';
import { writeRunBag } from './fixture.js';
import { FAST, query, writeModels } from './helpers.js';
import { startServer, type TestServer } from './server.js';

let dir: string;
let bag: string;
let server: TestServer;
beforeAll(async () => {
  dir = await tempDir('stimkit-run-ledger-');
  bag = path.join(dir, 'bag');
  await writeRunBag(bag, 10);
  server = await startServer();
});
afterAll(() => server.close());

const run = async (
  ledger: string,
  extra: Record<string, unknown> = {},
  model: Record<string, unknown> = {},
) => {
  const models = await writeModels(
    dir,
    [{ name: 'm', endpoint: server.url, ...model }],
    `models-${Math.random()}.yaml`,
  );
  return (await runStudy({
    bundle: bag,
    modelsFile: models,
    ledger,
    backoff: FAST,
    ...extra,
  })) as RunResult;
};
const rejection = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    return err as Error & { code: string };
  }
  throw new Error('expected a rejection');
};

describe('(a) resume', () => {
  it('continues where --limit stopped and never re-sends a recorded trial', async () => {
    const ledger = path.join(dir, 'a.sqlite');
    const first = await run(ledger, { limit: 4 });
    expect(first.models[0]!.done).toBe(4);
    const sentFirst = server.requests.length;
    const second = await run(ledger);
    expect(second.models[0]!).toMatchObject({ selected: 12, skipped: 4, done: 8 });
    expect(server.requests.length - sentFirst).toBe(8);
    const third = await run(ledger);
    expect(third.models[0]!.done).toBe(0);
    expect(server.requests.length - sentFirst).toBe(8);
    const perTrial = query(ledger, 'SELECT trial_id, COUNT(*) AS n FROM results GROUP BY trial_id');
    expect(perTrial).toHaveLength(12);
    expect(perTrial.every((r) => r.n === 1)).toBe(true);
    // The reader API gives the same results, with design fields.
    const reader = openLedger(ledger);
    const rows = [...reader.results()];
    reader.close();
    expect(rows).toHaveLength(12);
    expect(rows[0]).toMatchObject({
      run: 'main',
      model: 'm',
      outcome: 'answer',
      simulated: false,
      truth: null,
    });
    expect(rows.some((r) => r.trial.paradigm === 'describe' && r.trial.variant === 'A0')).toBe(
      true,
    );
  });
});

describe('(c) one writer at a time', () => {
  it('refuses a second run while the lock holder is alive', async () => {
    const ledger = path.join(dir, 'c.sqlite');
    await run(ledger, { limit: 1 });
    const db = new Database(ledger);
    const now = new Date().toISOString();
    // The parent of this test process is alive on this host: a live writer.
    db.prepare(
      'INSERT OR REPLACE INTO lock (id, pid, host, command, started_at, heartbeat_at) VALUES (1, ?, ?, ?, ?, ?)',
    ).run(process.ppid, os.hostname(), 'stimkit run other', now, now);
    db.close();
    const err = await rejection(run(ledger));
    expect(err.code).toBe('E_RUN_LEDGER_BUSY');
    expect(err.message).toContain(`pid ${process.ppid}`);
  });

  it('takes over the lock of a dead writer and marks its in-flight attempts interrupted', async () => {
    const ledger = path.join(dir, 'c2.sqlite');
    await run(ledger, { limit: 1 });
    const db = new Database(ledger);
    const now = new Date().toISOString();
    const dead = 2 ** 22 + 12345; // above the default pid_max of 4194304: never a live process
    // A writer on this host, boot and PID namespace whose pid no longer exists: proven gone.
    const me = selfIdentity();
    db.prepare(
      'INSERT OR REPLACE INTO lock (id, pid, host, command, started_at, heartbeat_at, writer_id, pid_ns, start_time, boot_id) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(dead, me.host, 'stimkit run crashed', now, now, 'w-dead', me.pid_ns, '1', me.boot_id);
    db.prepare(
      'INSERT INTO writers (writer_id, pid, host, boot_id, pid_ns, start_time, command, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ).run('w-dead', dead, me.host, me.boot_id, me.pid_ns, '1', 'stimkit run crashed', now);
    const t = db.prepare("SELECT trial_id FROM trials WHERE entry = 'e5'").get() as {
      trial_id: string;
    };
    db.prepare(
      "INSERT INTO attempts (run_id, model, trial_id, attempt, source, request_sha256, state, started_at, pid, writer_id) VALUES (1, 'm', ?, 1, 'run', 'x', 'in_flight', ?, ?, 'w-dead')",
    ).run(t.trial_id, now, dead);
    db.close();
    const r = await run(ledger);
    expect(r.recovered).toBe(1);
    const attempts = query(
      ledger,
      'SELECT attempt, state, outcome FROM attempts WHERE trial_id = ? ORDER BY attempt',
      t.trial_id,
    );
    expect(attempts).toEqual([
      { attempt: 1, state: 'interrupted', outcome: null },
      { attempt: 2, state: 'done', outcome: 'answer' },
    ]);
    expect(query(ledger, 'SELECT COUNT(*) AS n FROM lock')[0].n).toBe(0);
  });

  it('refuses, naming how to check and clear it, a lock whose owner cannot be checked from here', async () => {
    const ledger = path.join(dir, 'c3.sqlite');
    await run(ledger, { limit: 1 });
    const db = new Database(ledger);
    const now = new Date().toISOString();
    // A lock written before version 3 (no PID namespace, no start time) by a pid that is gone
    // here: it may run in another PID namespace, so it is not taken over.
    db.prepare(
      'INSERT OR REPLACE INTO lock (id, pid, host, command, started_at, heartbeat_at) VALUES (1, ?, ?, ?, ?, ?)',
    ).run(2 ** 22 + 12345, os.hostname(), 'stimkit run old', now, '2000-01-01T00:00:00.000Z');
    db.close();
    const err = await rejection(run(ledger));
    expect(err.code).toBe('E_RUN_LEDGER_BUSY');
    expect(err.message).toContain('last heartbeat 2000-01-01T00:00:00.000Z');
    expect(err.message).toContain(`ps -o pid,lstart,args -p ${2 ** 22 + 12345}`);
    expect(err.message).toContain(
      `sqlite3 "${ledger}" "DELETE FROM lock WHERE pid = ${2 ** 22 + 12345}"`,
    );
    const clear = new Database(ledger);
    clear.prepare('DELETE FROM lock').run();
    clear.close();
    expect((await run(ledger)).models[0]!.done).toBe(11);
  });
});

describe('(d) same bundle, same requests', () => {
  it('refuses a ledger of another bundle digest unless --new-run', async () => {
    const ledger = path.join(dir, 'd.sqlite');
    await run(ledger, { limit: 2 });
    const other = path.join(dir, 'other-bag');
    await writeRunBag(other, 3);
    const models = await writeModels(dir, [{ name: 'm', endpoint: server.url }], 'd.yaml');
    const err = await rejection(runStudy({ bundle: other, modelsFile: models, ledger }));
    expect(err.code).toBe('E_RUN_LEDGER_DIGEST');
    const ok = (await runStudy({
      bundle: other,
      modelsFile: models,
      ledger,
      newRun: 'small',
    })) as RunResult;
    expect(ok.run).toBe('small');
    expect(ok.models[0]!.done).toBe(5);
    expect(query(ledger, 'SELECT label FROM runs ORDER BY run_id').map((r) => r.label)).toEqual([
      'main',
      'small',
    ]);
  });

  it('refuses a rerun whose requests would differ, naming what changed', async () => {
    const ledger = path.join(dir, 'd2.sqlite');
    await run(ledger, { limit: 2 });
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ api_model: 'other-id' }, /api_model: "m" → "other-id"/],
      [{ sampling: { top_k: 'drop' } }, /sampling\.top_k: "send" → "drop"/],
      [
        { extra_body: { repetition_penalty: 1.1 } },
        /extra_body\.repetition_penalty: \(unset\) → 1\.1/,
      ],
    ];
    for (const [change, message] of cases) {
      const err = await rejection(run(ledger, {}, change));
      expect(err.code).toBe('E_RUN_REQUEST_CHANGED');
      expect(err.message).toMatch(message);
    }
    // Endpoint, concurrency and timeout do not change a request.
    const same = await run(
      ledger,
      { concurrency: 1 },
      { timeout_s: 30, endpoint: [server.url, server.url] },
    );
    expect(same.models[0]!.done).toBe(10);
    const fresh = await run(ledger, { newRun: 'no-top-k' }, { sampling: { top_k: 'drop' } });
    expect(fresh.models[0]!.done).toBe(12);
    const dropped = query(ledger, 'SELECT DISTINCT dropped FROM results WHERE run_id = 2');
    expect(dropped).toEqual([{ dropped: '["top_k"]' }]);
  });
});
