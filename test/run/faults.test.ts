// Every fault class against a real HTTP server on 127.0.0.1: infrastructure faults are retried
// (each attempt recorded with its class); findings are final results; permanent 4xx are failed
// without retry; 401 stops the model.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStudy, type RunResult } from '../../src/run/run.js';
import { tempDir } from '../helpers/tmp.js';
import { writeRunBag } from './fixture.js';
import { FAST, query, writeModels } from './helpers.js';
import { startServer, type Action, type TestServer } from './server.js';

let dir: string;
let bag: string;
let server: TestServer;
// Trial k's fault script: a list of actions for its 1st, 2nd, … request; then ok.
const SCRIPT: Record<number, Action[]> = {
  0: [
    { kind: 'status', status: 500 },
    { kind: 'status', status: 503 },
  ],
  1: [{ kind: 'status', status: 429, headers: { 'retry-after-ms': '150' } }],
  2: [{ kind: 'slow', ms: 60_000 }], // never in time: the client's timeout ends it
  3: [{ kind: 'drop' }],
  4: [{ kind: 'invalid_json' }],
  5: [{ kind: 'no_choices' }],
  6: [{ kind: 'ok', text: 'partial', finish_reason: 'content_filter' }],
  7: [{ kind: 'ok', text: 'cut off mid', finish_reason: 'length' }],
  8: [{ kind: 'ok', text: '   ' }],
  9: [
    {
      kind: 'status',
      status: 400,
      body: JSON.stringify({
        error: {
          code: 'data_inspection_failed',
          message: 'Input data may contain inappropriate content (content policy).',
        },
      }),
    },
  ],
  10: [{ kind: 'status', status: 404, body: '{"error":{"message":"model not found"}}' }],
  11: [
    { kind: 'status', status: 429, headers: { 'retry-after': '0' } },
    { kind: 'status', status: 429, headers: { 'retry-after': '0' } },
  ],
  12: [{ kind: 'ok', text: 'the answer', reasoning: 'thinking apart' }],
  13: Array.from({ length: 4 }, () => ({ kind: 'status', status: 502 })),
};

beforeAll(async () => {
  dir = await tempDir('stimkit-run-faults-');
  bag = path.join(dir, 'bag');
  await writeRunBag(bag, 14);
  server = await startServer((r) => SCRIPT[r.k]?.[r.seen] ?? { kind: 'ok' });
});
afterAll(() => server.close());

describe('faults', () => {
  let result: RunResult;
  let ledger: string;
  beforeAll(async () => {
    ledger = path.join(dir, 'faults.sqlite');
    const models = await writeModels(dir, [
      { name: 'm', endpoint: server.url, timeout_s: 3, concurrency: 4 },
    ]);
    result = (await runStudy({
      bundle: bag,
      modelsFile: models,
      ledger,
      maxAttempts: 4,
      backoff: FAST,
    })) as RunResult;
  });
  const res = (k: number) => {
    const id = query(ledger, 'SELECT trial_id FROM trials WHERE entry = ?', `e${k}`)[0].trial_id;
    return {
      result: query(ledger, 'SELECT * FROM results WHERE trial_id = ?', id)[0],
      attempts: query(ledger, 'SELECT * FROM attempts WHERE trial_id = ? ORDER BY attempt', id),
    };
  };

  it('retries 5xx, 429, timeouts, dropped connections, invalid JSON and empty choices, recording each attempt with its class', () => {
    const cases: Array<[number, string[]]> = [
      [0, ['server_error', 'server_error']],
      [1, ['rate_limited']],
      [2, ['timeout']],
      [3, ['connection']],
      [4, ['invalid_json']],
      [5, ['no_choices']],
      [11, ['rate_limited', 'rate_limited']],
    ];
    for (const [k, classes] of cases) {
      const { result: r, attempts } = res(k);
      expect(r.outcome, `trial ${k}`).toBe('answer');
      expect(r.response_text).toBe(`answer to trial ${k}`);
      expect(
        attempts.map((a: any) => a.error_class),
        `trial ${k}`,
      ).toEqual([...classes, null]);
      expect(attempts.slice(0, -1).every((a: any) => a.outcome === 'retry')).toBe(true);
      expect(r.attempts).toBe(classes.length + 1);
    }
    expect(result.models[0]!.retried).toMatchObject({
      server_error: 2 + 3,
      rate_limited: 3,
      timeout: 1,
      connection: 1,
      invalid_json: 1,
      no_choices: 1,
    });
  });

  it('honours retry-after-ms', () => {
    const seen = server.requests.filter((r) => r.k === 1);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(140);
  });

  it('keeps content filters, truncation, empty output and a policy 400 as final results, without retrying them', () => {
    const expected: Array<[number, string, string | null]> = [
      [6, 'provider_block', 'content_filter'],
      [7, 'length', 'length'],
      [8, 'suppressed', 'stop'],
      [9, 'provider_block', null],
    ];
    for (const [k, outcome, finish] of expected) {
      const { result: r, attempts } = res(k);
      expect(r.outcome, `trial ${k}`).toBe(outcome);
      expect(r.finish_reason).toBe(finish);
      expect(attempts).toHaveLength(1);
    }
    expect(res(9).result.error_body).toContain('data_inspection_failed');
    expect(res(9).result.http_status).toBe(400);
  });

  it('records a permanent 404 as failed with its body, not retried', () => {
    const { result: r, attempts } = res(10);
    expect(r.outcome).toBe('failed');
    expect(r.error_class).toBe('http_404');
    expect(r.error_body).toContain('model not found');
    expect(attempts).toHaveLength(1);
  });

  it('gives up after --max-attempts and records the trial as failed', () => {
    const { result: r, attempts } = res(13);
    expect(r.outcome).toBe('failed');
    expect(r.error_class).toContain('server_error');
    expect(attempts).toHaveLength(4);
  });

  it('keeps reasoning text apart, with usage, served model and fingerprint', () => {
    const { result: r } = res(12);
    expect(r.response_text).toBe('the answer');
    expect(r.reasoning_text).toBe('thinking apart');
    // `reasoning_content` shown whole; the server reports no reasoning tokens apart.
    expect([r.reasoning_visibility, r.reasoning_tokens]).toEqual(['full', null]);
    expect([r.prompt_tokens, r.completion_tokens, r.served_model, r.system_fingerprint]).toEqual([
      10,
      5,
      'm',
      'fp_test',
    ]);
  });

  it('tries failed trials again only with --retry-failed', async () => {
    const models = await writeModels(dir, [
      { name: 'm', endpoint: server.url, timeout_s: 3, concurrency: 4 },
    ]);
    const before = server.requests.length;
    const again = (await runStudy({
      bundle: bag,
      modelsFile: models,
      ledger,
      maxAttempts: 4,
      backoff: FAST,
    })) as RunResult;
    expect(server.requests.length).toBe(before);
    expect(again.models[0]!.pending).toBe(0);
    const retry = (await runStudy({
      bundle: bag,
      modelsFile: models,
      ledger,
      maxAttempts: 4,
      backoff: FAST,
      retryFailed: true,
    })) as RunResult;
    expect(retry.models[0]!.pending).toBe(2); // trials 10 and 13
    expect(res(10).result.outcome).toBe('answer');
    expect(res(13).result.outcome).toBe('answer');
    expect(query(ledger, 'SELECT COUNT(*) AS n FROM results')[0].n).toBe(16);
  });
});

describe('401', () => {
  it('stops that model at once with one clear message; the trials stay pending', async () => {
    const s = await startServer(() => ({
      kind: 'status',
      status: 401,
      body: '{"error":"bad key"}',
    }));
    try {
      const models = await writeModels(
        dir,
        [{ name: 'locked', endpoint: s.url, api_key_env: 'STIMKIT_TEST_KEY_401', concurrency: 2 }],
        'm401.yaml',
      );
      const ledger = path.join(dir, '401.sqlite');
      const r = (await runStudy({
        bundle: bag,
        modelsFile: models,
        ledger,
        backoff: FAST,
        env: { STIMKIT_TEST_KEY_401: 'sk-test-401-secret' },
      })) as RunResult;
      expect(r.models[0]!.stopped).toMatch(/HTTP 401.*\$STIMKIT_TEST_KEY_401/);
      expect(s.requests.length).toBeLessThanOrEqual(2);
      expect(query(ledger, 'SELECT COUNT(*) AS n FROM results')[0].n).toBe(0);
      expect(
        query(ledger, 'SELECT outcome FROM attempts').every((a: any) => a.outcome === 'auth'),
      ).toBe(true);
    } finally {
      await s.close();
    }
  });
});
