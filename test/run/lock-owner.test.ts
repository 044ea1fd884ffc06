// A live writer keeps its ledger. (a) A `run` paused with SIGSTOP (Ctrl-Z) for longer than any
// heartbeat (its heartbeat is set an hour back while it is stopped: the age of a heartbeat no
// longer matters at all) keeps its lock: a second `run` is refused with E_RUN_LEDGER_BUSY naming
// it, and after SIGCONT the first finishes with every trial sent exactly once (counted at the
// server). (b) A second `run` in another PID namespace (`unshare --pid --fork --mount-proc`, as a
// container on the same host) cannot see the first's pid and is refused too (while the same
// first writer is paused).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { writeRunBag } from './fixture.js';
import { query, writeModels } from './helpers.js';
import { startServer, type TestServer } from './server.js';

const N = 30;
let dir: string;
let bag: string;
let server: TestServer;
beforeAll(async () => {
  dir = await tempDir('stimkit-run-lock-');
  bag = path.join(dir, 'bag');
  await writeRunBag(bag, N);
  server = await startServer(() => ({ kind: 'ok' }), 120);
});
afterAll(() => server.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Start `stimkit run` on `ledger` as a child process, optionally under a wrapper command. */
function start(ledger: string, models: string, wrapper: string[] = []) {
  const args = [`${ROOT}bin/stimkit.js`, 'run', bag, '--models', models, '--ledger', ledger];
  const [cmd, ...rest] = [...wrapper, process.execPath, ...args, '--json'];
  const child = spawn(cmd, rest, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, out: () => ({ stdout, stderr }) };
}

/**
 * Stop `child` (SIGSTOP) outside a write transaction: a process stopped in the middle of one would
 * hold the ledger's write lock, and everything here would wait on it instead of on the lock row.
 */
async function stopOutsideTransaction(child: ChildProcess, ledger: string): Promise<void> {
  for (let i = 0; ; i++) {
    child.kill('SIGSTOP');
    await sleep(200);
    const db = new Database(ledger, { timeout: 500 });
    try {
      db.exec('BEGIN IMMEDIATE; ROLLBACK');
      return;
    } catch (err) {
      if (i >= 10) throw err;
      child.kill('SIGCONT');
      await sleep(30);
    } finally {
      db.close();
    }
  }
}

/** Requests the server has seen for the trials of this test's models (by model name). */
const sentFor = (model: string) => server.requests.filter((r) => r.body.model === model);

/** Every trial sent exactly once for `model`, and recorded once in `ledger`. */
function expectExactlyOnce(model: string, ledger: string): void {
  const sent = sentFor(model);
  const perK = new Map<number, number>();
  for (const r of sent) perK.set(r.k, (perK.get(r.k) ?? 0) + 1);
  expect([...perK.values()].filter((n) => n > 1)).toEqual([]);
  expect(sent).toHaveLength(N + 2);
  expect(query(ledger, 'SELECT COUNT(*) AS n FROM results')[0].n).toBe(N + 2);
}

/** Whether this machine lets us make a PID namespace (root, or unprivileged user namespaces). */
const unshare = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true'], {
  encoding: 'utf8',
});
const noUnshare =
  unshare.error || unshare.status !== 0
    ? `unshare --pid --fork --mount-proc is not available here (${unshare.error?.message ?? unshare.stderr.trim()})`
    : null;
if (noUnshare)
  console.warn(`test/run/lock-owner.test.ts: SKIPPING the PID namespace writer: ${noUnshare}`);

/** (b) A second run in another PID namespace, while `first` holds the lock: refused. */
async function refusedFromAnotherNamespace(ledger: string, models: string): Promise<void> {
  const second = start(ledger, models, ['unshare', '--pid', '--fork', '--mount-proc']);
  expect(await second.exited, second.out().stderr).toBe(1);
  const { stdout, stderr } = second.out();
  expect(JSON.parse(stdout).error.code).toBe('E_RUN_LEDGER_BUSY');
  expect(stderr).toMatch(/another PID namespace/);
}

describe('a paused writer', () => {
  // One writer, paused, serves both second writers: the one in another PID namespace (a process
  // of its own, since the namespace is the point), then, after its heartbeat is set an hour back,
  // one in the same namespace (run in this process: its subject is the refusal, exit code and
  // message, which take the same code path here as in the binary).
  it('keeps its ledger: a second run is refused, and every trial is sent once', async () => {
    const models = await writeModels(
      dir,
      [{ name: 'paused', endpoint: server.url, concurrency: 2, timeout_s: 60 }],
      'paused.yaml',
    );
    const ledger = path.join(dir, 'paused.sqlite');
    const first = start(ledger, models);
    while (sentFor('paused').length < 4) await sleep(10);
    await stopOutsideTransaction(first.child, ledger);
    try {
      const sentBefore = sentFor('paused').length;
      if (!noUnshare) await refusedFromAnotherNamespace(ledger, models);
      // Stopped for "an hour": its heartbeat is older than any timeout could be.
      const db = new Database(ledger, { timeout: 5000 });
      db.prepare('UPDATE lock SET heartbeat_at = ?').run('2000-01-01T00:00:00.000Z');
      db.close();
      const second = await runCli(['run', bag, '--models', models, '--ledger', ledger, '--json']);
      expect(second.code, second.stderr).toBe(1);
      expect(second.json().error.code).toBe('E_RUN_LEDGER_BUSY');
      expect(second.stderr).toContain(`pid ${first.child.pid}`);
      expect(second.stderr).toContain('last heartbeat 2000-01-01T00:00:00.000Z');
      expect(sentFor('paused').length).toBe(sentBefore);
    } finally {
      first.child.kill('SIGCONT');
    }
    expect(await first.exited, first.out().stderr).toBe(0);
    expectExactlyOnce('paused', ledger);
  });
});
