// Who said no, per serving route, end to end: three OpenRouter-style routes pinned in the models
// file (one blocks zh prompts by moderation, one returns empty stops for zh, one answers with a
// structured refusal once), a Gemini prompt block and an Anthropic structured refusal. Outcomes
// per route and language are exact in the ledger and in run's summary; every result names its
// route and the sha256 of the image bytes it sent; the routing pin is sent and is part of the
// request profile.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportLedger } from '../../src/run/export.js';
import { ModelSpec } from '../../src/models/schema.js';
import { providerOf } from '../../src/client/providers/index.js';
import { runStudy, type RunResult } from '../../src/run/run.js';
import { runJson } from '../../src/run/summary.js';
import { tempDir } from '../helpers/tmp.js';
import { runTrials, writeRunBag } from './fixture.js';
import { FAST, query, writeModels } from './helpers.js';
import { startOpenRouter, type OpenRouterServer, type RouteAction } from './vendor/openrouter.js';
import { startVendorServer, type VendorServer } from './vendor/server.js';

const KEY = 'test-routes-key-0123456789';
const VAR = 'STIMKIT_TEST_ROUTES_KEY';
const zh = (k: number) => k % 2 === 1; // the fixture's odd trials are in zh

function routeScript(route: string, k: number): RouteAction {
  if (route === 'BlockCo') return zh(k) ? { kind: 'moderation' } : { kind: 'ok' };
  if (route === 'EmptyCo') {
    if (k === 0) return { kind: 'content_filter' };
    return zh(k) ? { kind: 'empty_stop', text: k === 5 ? ' \n ' : '' } : { kind: 'ok' };
  }
  return k === 2 ? { kind: 'refusal', refusal: 'I cannot help with that.' } : { kind: 'ok' };
}

const openrouter = (name: string, routing: Record<string, unknown>, url: string) => ({
  name,
  endpoint: url,
  api_model: 'qwen/qwen2.5-vl-72b-instruct',
  routing,
  concurrency: 2,
});

describe('who said no, per route', () => {
  let dir: string;
  let bag: string;
  let ledger: string;
  let models: string;
  let or: OpenRouterServer;
  let gem: VendorServer;
  let ant: VendorServer;
  let result: RunResult;

  beforeAll(async () => {
    process.env[VAR] = KEY;
    dir = await tempDir('stimkit-routes-');
    bag = path.join(dir, 'bag');
    await writeRunBag(bag, 8);
    or = await startOpenRouter(['BlockCo', 'EmptyCo', 'AnswerCo'], routeScript);
    gem = await startVendorServer('gemini', KEY, (r) =>
      zh(r.k) ? { kind: 'blocked' } : { kind: 'ok' },
    );
    ant = await startVendorServer('anthropic', KEY, (r) =>
      r.k === 3 ? { kind: 'refusal' } : { kind: 'ok' },
    );
    models = await writeModels(dir, [
      openrouter('or-block', { only: ['BlockCo'], allow_fallbacks: false }, or.url),
      openrouter('or-empty', { order: ['EmptyCo'], allow_fallbacks: false }, or.url),
      openrouter('or-answer', { only: ['AnswerCo'] }, or.url),
      { name: 'gem', provider: 'gemini', endpoint: gem.url, api_key_env: VAR, max_tokens: 64 },
      {
        name: 'claude',
        provider: 'anthropic',
        endpoint: ant.url,
        api_key_env: VAR,
        max_tokens: 64,
      },
    ]);
    ledger = path.join(dir, 'ledger.sqlite');
    result = (await runStudy({
      bundle: bag,
      modelsFile: models,
      ledger,
      backoff: FAST,
    })) as RunResult;
  });
  afterAll(async () => {
    delete process.env[VAR];
    await Promise.all([or.close(), gem.close(), ant.close()]);
  });

  it('sends the routing pin as OpenRouter provider object, every request of the documented shape', () => {
    expect(or.rejected).toEqual([]);
    expect(gem.rejected).toEqual([]);
    expect(ant.rejected).toEqual([]);
    const byRoute = (r: string) => or.requests.filter((q) => q.route === r);
    expect(byRoute('BlockCo')).toHaveLength(10);
    expect(byRoute('EmptyCo').every((q) => q.body.provider.order[0] === 'EmptyCo')).toBe(true);
    expect(byRoute('BlockCo')[0]!.body.provider).toEqual({
      only: ['BlockCo'],
      allow_fallbacks: false,
    });
  });

  it('records outcomes per route and language exactly, in the ledger and in the summary', () => {
    const said = runJson(result).said_no.map((c) => [c.model, c.route, c.lang, c.n, c.outcomes]);
    const o = (answer: number, block = 0, refusal = 0, suppressed = 0) => ({
      answer,
      provider_block: block,
      model_refusal: refusal,
      suppressed,
      length: 0,
      failed: 0,
    });
    expect(said).toEqual([
      ['claude', ant.url, 'en', 5, o(5)],
      // Anthropic's stop_reason refusal is its classifiers': a provider block.
      ['claude', ant.url, 'zh', 5, o(4, 1)],
      ['gem', gem.url, 'en', 5, o(5)],
      ['gem', gem.url, 'zh', 5, o(0, 5)],
      ['or-answer', 'AnswerCo', 'en', 5, o(4, 0, 1)],
      ['or-answer', 'AnswerCo', 'zh', 5, o(5)],
      ['or-block', 'BlockCo', 'en', 5, o(5)],
      ['or-block', 'BlockCo', 'zh', 5, o(0, 5)],
      ['or-empty', 'EmptyCo', 'en', 5, o(4, 1)],
      ['or-empty', 'EmptyCo', 'zh', 5, o(0, 0, 0, 5)],
    ]);
    const block = runJson(result).said_no.find((c) => c.model === 'or-block' && c.lang === 'zh')!;
    expect(block.rates.provider_block).toMatchObject({ x: 5, n: 5, rate: 1, upper: 1 });
    expect(block.rates.provider_block.lower).toBeCloseTo(0.5655, 4); // Wilson 95 %, 5 of 5
    // Each a finding: one attempt, never retried.
    expect(query(ledger, 'SELECT MAX(attempts) AS m FROM results')[0].m).toBe(1);
  });

  it('names the route of every result: gateway provider, response and request ids, endpoint', () => {
    const rows = query(ledger, 'SELECT * FROM results');
    expect(rows).toHaveLength(50);
    for (const r of rows) {
      expect(r.endpoint, r.model).toBe(
        r.model === 'gem' ? gem.url : r.model === 'claude' ? ant.url : or.url,
      );
      expect(r.request_id === null, r.model).toBe(r.model === 'gem');
    }
    const pinned: Record<string, string> = {
      'or-block': 'BlockCo',
      'or-empty': 'EmptyCo',
      'or-answer': 'AnswerCo',
    };
    // Every OpenRouter result names its provider: from the completion, or from a block's metadata.
    const or1 = rows.filter((r) => r.model in pinned);
    for (const r of or1) expect(r.route_provider, r.trial_id).toBe(pinned[r.model]);
    for (const r of or1.filter((x) => x.http_status === 200)) {
      expect(r.response_id).toMatch(/^gen-\d+$/);
      expect(r.system_fingerprint).toMatch(/^fp_/);
    }
    const blocked = rows.filter((r) => r.model === 'or-block' && r.outcome === 'provider_block');
    expect(blocked.every((r) => r.http_status === 403 && /^req-\d+$/.test(r.request_id))).toBe(
      true,
    );
    expect(
      rows.filter((r) => r.model === 'claude').every((r) => /^req_\d+$/.test(r.request_id)),
    ).toBe(true);
    expect(
      rows
        .filter((r) => r.model === 'gem' && r.outcome === 'answer')
        .every((r) => /^resp-\d+$/.test(r.response_id)),
    ).toBe(true);
  });

  it('records the sha256 of the image bytes each request sent', () => {
    const sent = or.requests.filter((q) => q.k >= 8);
    expect(sent).toHaveLength(6);
    for (const q of sent) {
      const url: string = q.body.messages[0].content.find((p: any) => p.type === 'image_url')
        .image_url.url;
      const bytes = Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
      const model =
        q.body.provider.only?.[0] === 'BlockCo'
          ? 'or-block'
          : q.body.provider.only?.[0] === 'AnswerCo'
            ? 'or-answer'
            : 'or-empty';
      const [row] = query(
        ledger,
        'SELECT r.sent_images FROM results r JOIN trials t USING (run_id, trial_id) WHERE r.model = ? AND t.entry = ?',
        model,
        `e${q.k}`,
      );
      const images = JSON.parse(row.sent_images);
      expect(images).toHaveLength(1);
      expect(images[0].sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
  });

  it('exports the route columns', () => {
    let text = '';
    exportLedger(ledger, 'jsonl', { model: 'or-block' }, (c) => (text += c));
    const rows = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => r.route)).toEqual(Array(10).fill('BlockCo'));
    expect(rows[0]).toHaveProperty('request_id');
    expect(rows[0]).toHaveProperty('endpoint', or.url);
  });

  it('makes the routing pin part of the request hash', () => {
    const spec = ModelSpec.parse(openrouter('m', { only: ['BlockCo'] }, or.url));
    const other = ModelSpec.parse(openrouter('m', { only: ['AnswerCo'] }, or.url));
    const t = runTrials(2)[0]!;
    expect(providerOf(spec).build(t, spec).sha256).not.toBe(
      providerOf(other).build(t, other).sha256,
    );
  });
});
