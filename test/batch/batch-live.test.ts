// Batch records equal live ones: the same trials run live against a vendor stand-in, and through
// batch export → (the vendor's batch run: each exported body sent to the same stand-in, its reply
// written as the vendor's batch output line) → batch import. The two ledgers' results are equal
// field by field (outcome, request hash, dropped fields, texts, usage, sent images, served model,
// route provider, errors…) but for timing and ids; the cost is the live cost less the batch
// discount, and the route is the vendor's batch endpoint at the live endpoint.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelSpec } from '../../src/models/schema.js';
import { providerOf } from '../../src/client/providers/index.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { writeRunBag } from '../run/fixture.js';
import { exportBatch, query, writeModels } from '../run/helpers.js';
import { startServer } from '../run/server.js';
import { startVendorServer } from '../run/vendor/server.js';

type Vendor = 'openai' | 'anthropic' | 'gemini';
const PRICE = { input_per_mtok: 2, output_per_mtok: 8, batch_discount: 0.5 };

const SPECS: Record<Vendor, Record<string, unknown>> = {
  openai: {
    name: 'vlm',
    api_model: 'org/vlm-7b',
    sampling: { top_k: 'drop', seed: 'drop' },
    image: { format: 'jpeg' },
  },
  anthropic: { name: 'claude', provider: 'anthropic', api_model: 'claude-sonnet-4-5' },
  gemini: { name: 'gemini-flash', provider: 'gemini', api_model: 'gemini-2.5-flash' },
};

/** The stand-in: trial 1 is refused or blocked, trial 2 (openai) a 400; the rest answered. */
async function standIn(vendor: Vendor): Promise<{ url: string; close: () => Promise<void> }> {
  if (vendor === 'openai')
    return startServer((r) =>
      r.k === 1
        ? { kind: 'ok', text: '', finish_reason: 'content_filter' }
        : r.k === 2
          ? { kind: 'status', status: 400, body: '{"error":{"message":"bad image"}}' }
          : { kind: 'ok' },
    );
  return startVendorServer(vendor, null, (r) =>
    r.k === 1 ? { kind: vendor === 'anthropic' ? 'refusal' : 'blocked' } : { kind: 'ok' },
  );
}

/** The vendor's batch output line for an exported line, by sending its body to the stand-in. */
async function batchRun(vendor: Vendor, model: ModelSpec, url: string, line: any): Promise<any> {
  const body =
    vendor === 'openai' ? line.body : vendor === 'anthropic' ? line.params : line.request;
  const target = providerOf(model).http(url, model, null);
  const res = await fetch(target.url, {
    method: 'POST',
    headers: target.headers,
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as any;
  if (vendor === 'openai')
    return {
      custom_id: line.custom_id,
      response: { status_code: res.status, body: json },
      error: null,
    };
  if (vendor === 'anthropic')
    return {
      custom_id: line.custom_id,
      result: res.ok ? { type: 'succeeded', message: json } : { type: 'errored', error: json },
    };
  return res.ok ? { key: line.key, response: json } : { key: line.key, error: json.error };
}

/** Results by trial, without the fields that differ by nature (timing, ids, run). */
function results(ledger: string): Record<string, any> {
  const rows = query(ledger, 'SELECT * FROM results ORDER BY trial_id');
  return Object.fromEntries(
    rows.map((r) => {
      const { run_id, finished_at, latency_ms, response_id, request_id, ...rest } = r;
      void [run_id, finished_at, latency_ms, response_id, request_id];
      return [r.trial_id, rest];
    }),
  );
}

describe.each(['openai', 'anthropic', 'gemini'] as const)('batch equals live: %s', (vendor) => {
  let dir: string;
  let server: { url: string; close: () => Promise<void> };
  let live: Record<string, any>;
  let batch: Record<string, any>;
  let imported: any;
  beforeAll(async () => {
    dir = await tempDir(`stimkit-batch-live-${vendor}-`);
    const bag = path.join(dir, 'bag');
    await writeRunBag(bag, 4);
    server = await standIn(vendor);
    const spec: Record<string, unknown> = {
      ...SPECS[vendor],
      endpoint: server.url,
      max_tokens: 256,
      price: PRICE,
    };
    const models = await writeModels(dir, [spec]);
    const liveLedger = path.join(dir, 'live.sqlite');
    const run = await runCli(['run', bag, '--models', models, '--ledger', liveLedger]);
    expect(run.code, run.stderr).toBe(0);
    const input = path.join(dir, 'in.jsonl');
    const name = String(spec.name);
    const exp = await exportBatch(bag, models, name, input);
    expect(exp.code, exp.stderr).toBe(0);
    const model = ModelSpec.parse(spec);
    const lines = (await readFile(input, 'utf8')).trim().split('\n');
    const out: string[] = [];
    for (const l of lines)
      out.push(JSON.stringify(await batchRun(vendor, model, server.url, JSON.parse(l))));
    const output = path.join(dir, 'out.jsonl');
    await writeFile(output, `${out.join('\n')}\n`);
    const batchLedger = path.join(dir, 'batch.sqlite');
    const imp = await runCli([
      'batch',
      'import',
      output,
      '--bundle',
      bag,
      '--model',
      name,
      '--ledger',
      batchLedger,
      '--models',
      models,
      '--json',
    ]);
    expect(imp.code, imp.stderr).toBe(0);
    imported = imp.json();
    live = results(liveLedger);
    batch = results(batchLedger);
  });
  afterAll(() => server.close());

  it('records every trial with the live run’s outcome, dropped fields, sent images and texts', () => {
    expect(Object.keys(batch)).toEqual(Object.keys(live));
    expect(Object.keys(live)).toHaveLength(6);
    for (const id of Object.keys(live)) {
      const { cost_usd: lc, endpoint: le, ...l } = live[id];
      const { cost_usd: bc, endpoint: be, ...b } = batch[id];
      expect(b, id).toEqual(l);
      // the batch price: the live cost less the batch discount
      if (lc === null) expect(bc).toBeNull();
      else expect(bc).toBeCloseTo(lc * (1 - PRICE.batch_discount), 12);
      expect(be).toBe(
        `${le.replace(/\/+$/, '')}${
          vendor === 'openai'
            ? '/batches'
            : vendor === 'anthropic'
              ? '/v1/messages/batches'
              : '/v1beta/models/gemini-2.5-flash:batchGenerateContent'
        }`,
      );
    }
    const outcomes = Object.values(live).map((r) => r.outcome);
    expect(outcomes).toContain('provider_block');
    if (vendor === 'openai') {
      expect(outcomes).toContain('failed');
      expect(Object.values(batch).every((r) => r.dropped === '["top_k","seed"]')).toBe(true);
    }
    const image = Object.values(batch).filter((r) => r.sent_images !== null);
    expect(image).toHaveLength(2);
    expect(Object.values(batch).some((r) => r.cost_usd > 0)).toBe(true);
    expect(imported.warnings).toEqual([]);
  });
});
