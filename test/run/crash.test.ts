// (b) kill -9 at random moments, for each HTTP provider (OpenAI-compatible, and the strict
// Anthropic and Gemini stand-ins): a child `stimkit run` is SIGKILLed several times while requests
// are in flight; after each resume every trial has at most one result, and in the end exactly
// one; the ledger shows the interrupted attempts that were re-sent, and no request ever left
// without an attempt row committed before it. The kill points are drawn from a seed, printed
// with every run (STIMKIT_CRASH_SEED=<seed> repeats them) and named in every failure.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { stream } from '../../src/sim/rng.js';
import { ROOT } from '../helpers/cli.js';
import { heavyLimit } from '../helpers/limits.js';
import { tempDir } from '../helpers/tmp.js';
import { writeRunBag } from './fixture.js';
import { query, writeModels } from './helpers.js';
import { startServer } from './server.js';
import { startVendorServer } from './vendor/server.js';

// Each test runs five `stimkit run` processes through 122 trials at 25 ms, six at a time: about
// 10 s on a quiet machine, and a limit scaled from that (not vitest's fixed 60 s).
vi.setConfig({ testTimeout: heavyLimit(10) });

const N = 120;
const SEED = Number(process.env.STIMKIT_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const draws = stream(SEED, 'crash-test', 'kill-points');
console.log(
  `test/run/crash.test.ts: kill points from seed ${SEED} (STIMKIT_CRASH_SEED=${SEED} repeats them)`,
);
const seeded = `seed ${SEED}`;
let dir: string;
let bag: string;
beforeAll(async () => {
  dir = await tempDir('stimkit-run-crash-');
  bag = path.join(dir, 'bag');
  await writeRunBag(bag, N);
});

/** A server answering every request after 25 ms, and the models-file entry of its provider. */
const SERVERS = {
  openai: async () => {
    const s = await startServer(() => ({ kind: 'ok' }), 25);
    return { server: s, model: { name: 'm', endpoint: s.url, concurrency: 6 } };
  },
  anthropic: async () => {
    const s = await startVendorServer('anthropic', null, () => ({ kind: 'ok' }), 25);
    return {
      server: s,
      model: { name: 'm', provider: 'anthropic', endpoint: s.url, concurrency: 6 },
    };
  },
  gemini: async () => {
    const s = await startVendorServer('gemini', null, () => ({ kind: 'ok' }), 25);
    return { server: s, model: { name: 'm', provider: 'gemini', endpoint: s.url, concurrency: 6 } };
  },
};

const count = (ledger: string): number => {
  if (!existsSync(ledger)) return 0;
  try {
    return query(ledger, 'SELECT COUNT(*) AS n FROM results')[0].n;
  } catch {
    return 0; // the child is still creating the tables
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function start(models: string, ledger: string) {
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

describe.each(Object.keys(SERVERS) as Array<keyof typeof SERVERS>)(
  '(b) kill -9 and resume: %s',
  (vendor) => {
    let server: {
      requests: Array<{ k: number }>;
      rejected?: unknown[];
      close: () => Promise<void>;
    };
    let model: Record<string, unknown>;
    beforeAll(async () => ({ server, model } = await SERVERS[vendor]()));
    afterAll(() => server.close());
    it('ends with every trial recorded exactly once, re-sending only what was in flight', async () => {
      const models = await writeModels(dir, [model], `${vendor}.yaml`);
      const ledger = path.join(dir, `crash-${vendor}.sqlite`);
      const kills: number[] = [];
      for (let round = 0; round < 4; round++) {
        const before = count(ledger);
        const c = start(models, ledger);
        // Wait until this child has recorded something, then kill it at a random moment.
        const deadline = Date.now() + 20_000;
        while (count(ledger) <= before && Date.now() < deadline) await sleep(10);
        await sleep(draws.index(`${vendor} round ${round}`, 150));
        c.child.kill('SIGKILL');
        const code = await c.exited;
        if (code !== -9) break; // it finished before the kill
        kills.push(count(ledger));
        const perTrial = query(
          ledger,
          'SELECT trial_id, COUNT(*) AS n FROM results GROUP BY trial_id',
        );
        expect(
          perTrial.every((r) => r.n === 1),
          seeded,
        ).toBe(true);
      }
      expect(kills.length, seeded).toBeGreaterThanOrEqual(2);
      const last = start(models, ledger);
      expect(await last.exited, `${seeded}: ${last.stderr()}`).toBe(0);

      const results = query(ledger, 'SELECT trial_id, outcome FROM results');
      expect(results, seeded).toHaveLength(N + 2);
      expect(new Set(results.map((r) => r.trial_id)).size, seeded).toBe(N + 2);
      expect(
        results.every((r) => r.outcome === 'answer'),
        seeded,
      ).toBe(true);
      // Every attempt but the last of a trial was interrupted by a kill; the last one answered.
      const attempts = query(
        ledger,
        'SELECT trial_id, attempt, state, outcome FROM attempts ORDER BY trial_id, attempt',
      );
      const byTrial = new Map<string, any[]>();
      for (const a of attempts) byTrial.set(a.trial_id, [...(byTrial.get(a.trial_id) ?? []), a]);
      let resent = 0;
      for (const list of byTrial.values()) {
        expect(list.at(-1).outcome, seeded).toBe('answer');
        for (const a of list.slice(0, -1)) expect(a.state, seeded).toBe('interrupted');
        resent += list.length - 1;
      }
      expect(resent, seeded).toBeGreaterThan(0);
      expect(
        query(ledger, "SELECT COUNT(*) AS n FROM attempts WHERE state = 'in_flight'")[0].n,
        seeded,
      ).toBe(0);
      // The server never saw more requests for a trial than the ledger has attempts.
      const sentByK = new Map<number, number>();
      for (const r of server.requests) sentByK.set(r.k, (sentByK.get(r.k) ?? 0) + 1);
      const attemptsByEntry = query(
        ledger,
        'SELECT t.entry AS entry, COUNT(*) AS n FROM attempts a JOIN trials t USING (run_id, trial_id) GROUP BY t.entry',
      );
      for (const { entry, n } of attemptsByEntry)
        expect(sentByK.get(Number(entry.slice(1))) ?? 0, seeded).toBeLessThanOrEqual(n);
      expect(server.requests.length, seeded).toBeGreaterThanOrEqual(N + 2);
      expect(server.rejected ?? []).toEqual([]);
    });
  },
);
