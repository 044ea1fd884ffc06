// (b) kill -9 at random moments, for each HTTP provider (OpenAI-compatible, and the strict
// Anthropic and Gemini stand-ins): a child `stimkit run` of three models, one per provider, each at
// its own server, is SIGKILLed several times while the requests of all three are in flight; after
// each resume every trial of every model has at most one result, and in the end exactly one; the
// ledger shows the interrupted attempts that were re-sent, and no request ever left without an
// attempt row committed before it. One process sends to the three providers at once (run sends
// every model's trials at the same time, each under its own concurrency), so that each kill
// interrupts all three and the test starts five processes rather than five per provider. The kill
// points are drawn from a seed, printed with every run (STIMKIT_CRASH_SEED=<seed> repeats them)
// and named in every failure.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { stream } from '../../src/sim/rng.js';
import { ROOT } from '../helpers/cli.js';
import { heavyLimit } from '../helpers/limits.js';
import { tempDir } from '../helpers/tmp.js';
import { writeRunBag } from './fixture.js';
import { query, writeModels } from './helpers.js';
import { startServer } from './server.js';
import { startVendorServer } from './vendor/server.js';

// Five `stimkit run` processes through 3 × 122 trials at 25 ms, six at a time per model: about
// 10 s on a quiet machine, and a limit scaled from that (not vitest's fixed 60 s).
vi.setConfig({ testTimeout: heavyLimit(10) });

const N = 120;
const SEED = Number(process.env.STIMKIT_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const draws = stream(SEED, 'crash-test', 'kill-points');
console.log(
  `test/run/crash.test.ts: kill points from seed ${SEED} (STIMKIT_CRASH_SEED=${SEED} repeats them)`,
);
const seeded = `seed ${SEED}`;

/** A server answering every request after 25 ms, and the models-file entry of its provider. */
const SERVERS = {
  openai: async () => {
    const s = await startServer(() => ({ kind: 'ok' }), 25);
    return { server: s, model: { endpoint: s.url } };
  },
  anthropic: async () => {
    const s = await startVendorServer('anthropic', null, () => ({ kind: 'ok' }), 25);
    return { server: s, model: { provider: 'anthropic', endpoint: s.url } };
  },
  gemini: async () => {
    const s = await startVendorServer('gemini', null, () => ({ kind: 'ok' }), 25);
    return { server: s, model: { provider: 'gemini', endpoint: s.url } };
  },
};
type Vendor = keyof typeof SERVERS;
const VENDORS = Object.keys(SERVERS) as Vendor[];

let dir: string;
let bag: string;
/** What the test reads of a server: the requests it accepted, those it rejected. */
interface Server {
  requests: Array<{ k: number }>;
  rejected?: unknown[];
  close: () => Promise<void>;
}
const servers = new Map<Vendor, Server>();
let models: string;
beforeAll(async () => {
  dir = await tempDir('stimkit-run-crash-');
  bag = path.join(dir, 'bag');
  await writeRunBag(bag, N);
  const started = await Promise.all(VENDORS.map((v) => SERVERS[v]()));
  VENDORS.forEach((v, i) => servers.set(v, started[i]!.server));
  // Each model is named after its provider; the ledger's rows carry the model.
  models = await writeModels(
    dir,
    VENDORS.map((v, i) => ({ name: v, concurrency: 6, ...started[i]!.model })),
  );
});
afterAll(() => Promise.all([...servers.values()].map((s) => s.close())));

const count = (ledger: string): number => {
  if (!existsSync(ledger)) return 0;
  try {
    return query(ledger, 'SELECT COUNT(*) AS n FROM results')[0].n;
  } catch {
    return 0; // the child is still creating the tables
  }
};
const sent = (): number => [...servers.values()].reduce((n, s) => n + s.requests.length, 0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function start(ledger: string) {
  const child = spawn(
    process.execPath,
    [
      `${ROOT}bin/stimkit.js`,
      'run',
      bag,
      '--models',
      models,
      '--ledger',
      ledger,
      '--concurrency',
      '6',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal === 'SIGKILL' ? -9 : code)),
  );
  return { child, exited, stderr: () => stderr };
}

/** Kill the run at random moments (four at most) until two kills hit it; returns the kills. */
async function killRounds(ledger: string): Promise<number[]> {
  const kills: number[] = [];
  for (let round = 0; round < 4; round++) {
    const before = count(ledger);
    const sentBefore = sent();
    const c = start(ledger);
    // Wait until this child has recorded something, then kill it at a random moment. (The servers'
    // logs show its first request without opening the ledger while the child starts.)
    const deadline = Date.now() + 20_000;
    while (sent() === sentBefore && Date.now() < deadline) await sleep(10);
    while (count(ledger) <= before && Date.now() < deadline) await sleep(10);
    await sleep(draws.index(`round ${round}`, 150));
    c.child.kill('SIGKILL');
    const code = await c.exited;
    if (code !== -9) break; // it finished before the kill
    kills.push(count(ledger));
    const perTrial = query(
      ledger,
      'SELECT model, trial_id, COUNT(*) AS n FROM results GROUP BY model, trial_id',
    );
    expect(
      perTrial.every((r) => r.n === 1),
      seeded,
    ).toBe(true);
  }
  return kills;
}

/** Every attempt but the last of a trial of `vendor` was interrupted; returns how many were re-sent. */
function expectResentOnlyInterrupted(ledger: string, vendor: Vendor, why: string): number {
  const attempts = query(
    ledger,
    'SELECT trial_id, attempt, state, outcome FROM attempts WHERE model = ? ORDER BY trial_id, attempt',
    vendor,
  );
  const byTrial = new Map<string, any[]>();
  for (const a of attempts) byTrial.set(a.trial_id, [...(byTrial.get(a.trial_id) ?? []), a]);
  let resent = 0;
  for (const list of byTrial.values()) {
    expect(list.at(-1).outcome, why).toBe('answer');
    for (const a of list.slice(0, -1)) expect(a.state, why).toBe('interrupted');
    resent += list.length - 1;
  }
  return resent;
}

it('(b) kill -9 and resume, for each provider: every trial recorded exactly once, re-sending only what was in flight', async () => {
  const ledger = path.join(dir, 'crash.sqlite');
  const kills = await killRounds(ledger);
  expect(kills.length, seeded).toBeGreaterThanOrEqual(2);
  const last = start(ledger);
  expect(await last.exited, `${seeded}: ${last.stderr()}`).toBe(0);

  for (const vendor of VENDORS) {
    const why = `${vendor}, ${seeded}`;
    const server = servers.get(vendor)!;
    const results = query(ledger, 'SELECT trial_id, outcome FROM results WHERE model = ?', vendor);
    expect(results, why).toHaveLength(N + 2);
    expect(new Set(results.map((r) => r.trial_id)).size, why).toBe(N + 2);
    expect(
      results.every((r) => r.outcome === 'answer'),
      why,
    ).toBe(true);
    expect(expectResentOnlyInterrupted(ledger, vendor, why), why).toBeGreaterThan(0);
    expect(
      query(
        ledger,
        "SELECT COUNT(*) AS n FROM attempts WHERE model = ? AND state = 'in_flight'",
        vendor,
      )[0].n,
      why,
    ).toBe(0);
    // The server never saw more requests for a trial than the ledger has attempts.
    const sentByK = new Map<number, number>();
    for (const r of server.requests) sentByK.set(r.k, (sentByK.get(r.k) ?? 0) + 1);
    const attemptsByEntry = query(
      ledger,
      'SELECT t.entry AS entry, COUNT(*) AS n FROM attempts a JOIN trials t USING (run_id, trial_id) WHERE a.model = ? GROUP BY t.entry',
      vendor,
    );
    for (const { entry, n } of attemptsByEntry)
      expect(sentByK.get(Number(entry.slice(1))) ?? 0, why).toBeLessThanOrEqual(n);
    expect(server.requests.length, why).toBeGreaterThanOrEqual(N + 2);
    expect(server.rejected ?? [], why).toEqual([]);
  }
});
