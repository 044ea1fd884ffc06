// provider: anthropic and provider: gemini end to end against strict stand-ins of the vendors'
// APIs: every request passes the vendor's documented shape (a deviation would be rejected and
// counted), the key travels only in the vendor's header, faults are retried, findings kept
// (refusal, prompt block, safety stop, max-tokens stop, thinking apart), a rerun sends nothing,
// a changed request profile is refused, and no file or output holds any 12-character piece of
// the key.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Trial } from '../../src/bundle/format.js';
import { ModelSpec } from '../../src/models/schema.js';
import { providerOf } from '../../src/client/providers/index.js';
import { runStudy, type RunResult } from '../../src/run/run.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { RUN_IMAGES, writeRunBag } from './fixture.js';
import { allFiles, FAST, query, writeModels } from './helpers.js';
import type { VendorAction } from './vendor/replies.js';
import { startVendorServer, type Vendor, type VendorServer } from './vendor/server.js';

const KEY = 'sk-ant-native-KEY-0123456789abcdefghijklmnop';
const VAR = 'STIMKIT_TEST_NATIVE_KEY';
const PIECES = Array.from({ length: KEY.length - 11 }, (_, i) => KEY.slice(i, i + 12));

/** Each trial's script (first request, second, …; then ok), per vendor. */
function script(vendor: Vendor): Record<number, VendorAction[]> {
  return {
    0: [{ kind: 'overloaded' }],
    1: [{ kind: 'status', status: 429, headers: { 'retry-after': '0' } }],
    2: [{ kind: 'drop' }],
    3: [vendor === 'anthropic' ? { kind: 'refusal' } : { kind: 'blocked' }],
    4: [{ kind: 'max_tokens' }],
    5: [{ kind: 'ok', text: 'answer to trial 5', thinking: 'thought about trial 5' }],
    6: [
      vendor === 'anthropic'
        ? {
            kind: 'status',
            status: 400,
            body: JSON.stringify({
              type: 'error',
              error: { type: 'invalid_request_error', message: `bad; key ${KEY}` },
            }),
          }
        : { kind: 'safety' },
    ],
    7: [{ kind: 'status', status: 500, body: `internal; your key was ${KEY}` }],
  };
}

beforeAll(() => {
  process.env[VAR] = KEY;
});
afterAll(() => {
  delete process.env[VAR];
});

describe.each(['anthropic', 'gemini'] as const)('provider: %s', (vendor) => {
  let dir: string;
  let bag: string;
  let server: VendorServer;
  let models: string;
  let ledger: string;
  let result: RunResult;
  const outputs: string[] = [];
  const spec = {
    name: vendor === 'anthropic' ? 'claude' : 'gemini-flash',
    provider: vendor,
    api_model: vendor === 'anthropic' ? 'claude-sonnet-4-5' : 'gemini-2.5-flash',
    api_key_env: VAR,
    concurrency: 4,
    max_tokens: 256,
  };

  beforeAll(async () => {
    dir = await tempDir(`stimkit-run-${vendor}-`);
    bag = path.join(dir, 'bag');
    await writeRunBag(bag, 8);
    const s = script(vendor);
    server = await startVendorServer(vendor, KEY, (r) => s[r.k]?.[r.seen] ?? { kind: 'ok' });
    models = await writeModels(dir, [{ ...spec, endpoint: server.url }]);
    ledger = path.join(dir, 'out', 'ledger.sqlite');
    result = (await runStudy({
      bundle: bag,
      modelsFile: models,
      ledger,
      backoff: FAST,
      maxAttempts: 4,
    })) as RunResult;
  });
  afterAll(() => server.close());

  const resultOf = (k: number) =>
    query(
      ledger,
      'SELECT r.* FROM results r JOIN trials t USING (run_id, trial_id) WHERE t.entry = ?',
      `e${k}`,
    )[0];

  it('sends only requests of the documented shape, the key in its header', () => {
    expect(server.rejected).toEqual([]);
    const header = vendor === 'anthropic' ? 'x-api-key' : 'x-goog-api-key';
    expect(server.requests.every((r) => r.headers[header] === KEY && !r.url.includes(KEY))).toBe(
      true,
    );
    const image = server.requests.find((r) => r.k === 8)!;
    const part =
      vendor === 'anthropic'
        ? image.body.messages[0].content[0].source
        : image.body.contents[0].parts[0].inlineData;
    expect(Buffer.from(part.data, 'base64').equals(RUN_IMAGES[0]!)).toBe(true);
  });

  it('retries faults and keeps findings, with reasoning and token counts', () => {
    expect(result.models[0]!.retried).toMatchObject({
      rate_limited: 1,
      connection: 1,
      server_error: 2,
    });
    for (const k of [0, 1, 2, 5, 7, 8, 9]) expect(resultOf(k).outcome, `trial ${k}`).toBe('answer');
    expect(resultOf(3).outcome).toBe('provider_block');
    if (vendor === 'anthropic')
      expect(resultOf(3)).toMatchObject({
        error_class: 'refusal',
        error_body: JSON.stringify({ type: 'refusal', category: null, explanation: null }),
      });
    expect(resultOf(4).outcome).toBe('length');
    expect(resultOf(6)).toMatchObject(
      vendor === 'anthropic'
        ? { outcome: 'failed', error_class: 'http_400' }
        : { outcome: 'provider_block', finish_reason: 'SAFETY' },
    );
    // Claude 4 models and Gemini show a summary of their thinking (client/reasoning.ts).
    expect(resultOf(5)).toMatchObject({
      response_text: 'answer to trial 5',
      reasoning_text: 'thought about trial 5',
      reasoning_visibility: 'summary',
      reasoning_tokens: null,
    });
    expect(resultOf(0)).toMatchObject({ reasoning_visibility: 'absent', reasoning_tokens: null });
    expect(resultOf(0)).toMatchObject({
      prompt_tokens: vendor === 'anthropic' ? 10 : 8,
      served_model: spec.api_model,
    });
  });

  it('records the hash of the request each provider builds', async () => {
    const trials = (await readFile(path.join(bag, 'data', 'trials.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => Trial.parse(JSON.parse(l)));
    const model = ModelSpec.parse({ ...spec, endpoint: server.url });
    const hashes = new Map(
      query(ledger, 'SELECT trial_id, request_sha256 FROM results').map((r) => [
        r.trial_id,
        r.request_sha256,
      ]),
    );
    for (const t of trials) expect(hashes.get(t.id)).toBe(providerOf(model).build(t, model).sha256);
  });

  it('resumes exactly once and refuses a changed request profile', async () => {
    const before = server.requests.length;
    const again = await runCli(['run', bag, '--models', models, '--ledger', ledger, '--json']);
    outputs.push(again.stdout, again.stderr);
    expect(again.json().models[0]).toMatchObject({ already_recorded: 10, done: 0 });
    expect(server.requests.length).toBe(before);
    const changed = await writeModels(
      dir,
      [{ ...spec, endpoint: server.url, max_tokens: 512 }],
      'changed.yaml',
    );
    const refused = await runCli(['run', bag, '--models', changed, '--ledger', ledger, '--json']);
    outputs.push(refused.stdout, refused.stderr);
    expect(refused.code).toBe(1);
    expect(refused.json().error.code).toBe('E_RUN_REQUEST_CHANGED');
  });

  it('refuses to resume after the image block changed (it shapes the bytes sent)', async () => {
    const before = server.requests.length;
    const image = { max_side: 256, format: 'jpeg', quality: 50 };
    const changed = await writeModels(
      dir,
      [{ ...spec, endpoint: server.url, image }],
      'image.yaml',
    );
    const refused = await runCli(['run', bag, '--models', changed, '--ledger', ledger, '--json']);
    outputs.push(refused.stdout, refused.stderr);
    expect(refused.code).toBe(1);
    expect(refused.json().error).toMatchObject({
      code: 'E_RUN_REQUEST_CHANGED',
      message: expect.stringContaining('image'),
    });
    expect(server.requests.length).toBe(before);
  });

  it('never writes or prints any piece of the key', async () => {
    for (const format of ['jsonl', 'csv']) {
      const ex = await runCli(['run', 'export', '--ledger', ledger, '--format', format]);
      outputs.push(ex.stdout, ex.stderr);
    }
    const dry = await runCli(['run', bag, '--models', models, '--dry-run', '--json']);
    outputs.push(dry.stdout, dry.stderr);
    for (const f of await allFiles(dir)) {
      const bytes = await readFile(f);
      for (const piece of PIECES)
        expect(bytes.includes(Buffer.from(piece)), `${f} holds "${piece}"`).toBe(false);
    }
    for (const text of outputs)
      for (const piece of PIECES) expect(text.includes(piece)).toBe(false);
  });
});
