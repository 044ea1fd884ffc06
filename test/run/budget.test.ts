// `run --budget USD` against a local server that counts the requests it gets: the run is
// refused with nothing sent when the upper estimate exceeds the budget (or cannot be given),
// and it stops sending once the cost recorded from usage reaches it — the requests in flight
// finish and are recorded — and a rerun with a higher budget continues, each trial exactly once.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { trialIndex, writeRunBag } from './fixture.js';
import { query, writeModels } from './helpers.js';

/** A chat server that holds its replies until `hold` requests have arrived, then answers each at once. */
function barrierServer(usage: Record<string, number>, hold: number) {
  const seen: number[] = [];
  const waiting: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      seen.push(trialIndex(body.messages[0].content));
      const answer = () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'x',
            object: 'chat.completion',
            model: body.model,
            choices: [
              { index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' },
            ],
            usage,
          }),
        );
      };
      waiting.push(answer);
      if (seen.length >= hold) while (waiting.length) waiting.shift()!();
    });
  });
  return {
    seen,
    start: () =>
      new Promise<string>((ok) =>
        server.listen(0, '127.0.0.1', () =>
          ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`),
        ),
      ),
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

let dir: string;
let bag: string;
beforeAll(async () => {
  dir = await tempDir('stimkit-run-budget-');
  bag = path.join(dir, 'bag');
  await writeRunBag(bag, 10);
});

// $1000 per million tokens: a text trial's upper estimate is about $0.09 (≤ 30 input tokens by
// the characters rule plus max_tokens 64), so ten of them fit in $1.
const price = { input_per_mtok: 1000, output_per_mtok: 1000 };
const text = ['--where', 'paradigm=comment-text'];

describe('run --budget', () => {
  const servers: Array<{ close: () => Promise<void> }> = [];
  afterAll(async () => Promise.all(servers.map((s) => s.close())));

  it('refuses to start, sending nothing, when the upper estimate exceeds the budget', async () => {
    const s = barrierServer({ prompt_tokens: 10, completion_tokens: 5 }, 1);
    servers.push(s);
    const models = await writeModels(
      dir,
      [{ name: 'm', endpoint: await s.start(), price }],
      'r.yaml',
    );
    const ledger = path.join(dir, 'refuse.sqlite');
    const r = await runCli([
      'run',
      bag,
      '--models',
      models,
      '--ledger',
      ledger,
      ...text,
      '--budget',
      '0.5',
      '--json',
    ]);
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('E_RUN_BUDGET');
    expect(r.stderr).toMatch(/exceeds the budget; nothing was sent/);
    expect(s.seen).toEqual([]);
    const dry = await runCli(['run', bag, '--models', models, ...text, '--dry-run', '--json']);
    const high = dry.json().models[0].estimate.cost_usd.high as number;
    expect(high).toBeGreaterThan(0.5);
    expect(high).toBeLessThan(1);
    // --dry-run --budget says whether the upper estimate fits, sending nothing.
    const dryArgs = ['run', bag, '--models', models, ...text, '--dry-run'];
    const over = await runCli([...dryArgs, '--budget', '0.5', '--json']);
    expect(over.json().budget).toEqual({ usd: 0.5, upper_usd: high, fits: false, why: null });
    const fits = await runCli([...dryArgs, '--budget', '1']);
    expect(fits.stdout + fits.stderr).toContain(
      `budget $1.0000: the upper estimate $${high.toFixed(4)} fits`,
    );
    const noPrice = await writeModels(
      dir,
      [{ name: 'm', endpoint: 'http://127.0.0.1:9/v1' }],
      'dp.yaml',
    );
    const unknown = await runCli([
      'run',
      bag,
      '--models',
      noPrice,
      ...text,
      '--dry-run',
      '--budget',
      '1',
      '--json',
    ]);
    expect(unknown.json().budget).toMatchObject({ fits: null, why: 'no price block: m' });
    expect(s.seen).toEqual([]);
  });

  it('refuses without a price, or without an upper bound on the replies', async () => {
    const s = barrierServer({ prompt_tokens: 10, completion_tokens: 5 }, 1);
    servers.push(s);
    const url = await s.start();
    const ledger = path.join(dir, 'bounds.sqlite');
    const noPrice = await writeModels(dir, [{ name: 'm', endpoint: url }], 'np.yaml');
    const a = await runCli([
      'run',
      bag,
      '--models',
      noPrice,
      '--ledger',
      ledger,
      ...text,
      '--budget',
      '5',
      '--json',
    ]);
    expect([a.code, a.json().error.code]).toEqual([1, 'E_RUN_BUDGET_PRICE']);
    const noCap = await writeModels(
      dir,
      [{ name: 'm', endpoint: url, price, sampling: { max_tokens: 'drop' } }],
      'nc.yaml',
    );
    const b = await runCli([
      'run',
      bag,
      '--models',
      noCap,
      '--ledger',
      ledger,
      ...text,
      '--budget',
      '5',
      '--json',
    ]);
    expect([b.code, b.json().error.code]).toEqual([1, 'E_RUN_BUDGET_UNBOUNDED']);
    expect(s.seen).toEqual([]);
  });

  it('stops once the recorded cost reaches it, records the requests in flight, and a higher budget continues exactly once', async () => {
    // The server bills far more than the estimate allows (50,010 tokens = $50.01 per reply).
    const s = barrierServer({ prompt_tokens: 10, completion_tokens: 50_000 }, 3);
    servers.push(s);
    const models = await writeModels(
      dir,
      [{ name: 'm', endpoint: await s.start(), price, concurrency: 3 }],
      's.yaml',
    );
    const ledger = path.join(dir, 'stop.sqlite');
    const args = ['run', bag, '--models', models, '--ledger', ledger, ...text, '--json'];
    const first = await runCli([...args, '--budget', '1']);
    expect(first.code).toBe(1);
    const j = first.json();
    expect(j.ok).toBe(false);
    expect(j.budget).toMatchObject({ usd: 1, spent_before: 0, reached: true, stopped: true });
    expect(j.models[0]).toMatchObject({ done: 3, pending: 10 });
    expect(j.models[0].cost_usd).toBeCloseTo(3 * 50.01, 9);
    expect(s.seen).toHaveLength(3);
    expect(query(ledger, "SELECT COUNT(*) AS n FROM attempts WHERE state = 'in_flight'")[0].n).toBe(
      0,
    );
    const recorded = query(ledger, 'SELECT SUM(cost_usd) AS usd, COUNT(*) AS n FROM results')[0];
    expect(recorded.n).toBe(3);
    expect(recorded.usd).toBeCloseTo(j.models[0].cost_usd, 9);
    expect(first.stderr).toMatch(/budget reached: no new requests were sent/);

    const same = await runCli([...args, '--budget', '1']);
    expect([same.code, same.json().error.code]).toEqual([1, 'E_RUN_BUDGET']);
    expect(s.seen).toHaveLength(3);

    const more = await runCli([...args, '--budget', '1000']);
    expect(more.code, more.stderr).toBe(0);
    expect(more.json().models[0]).toMatchObject({ done: 7, already_recorded: 3 });
    expect(more.json().models[0].run_cost_usd).toBeCloseTo(10 * 50.01, 9);
    expect([...s.seen].sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
