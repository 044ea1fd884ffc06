// Refusal provenance, run → score: each vendor's documented block or refusal shape, sent by the
// local stand-ins, recorded by `run`, exported and scored, lands in the score tables as
// block_source / block_category (lower snake case, raw kept) with the vendor's detail; a stop
// stimkit does not know is `unclassified` (never an answer or a refusal in SpeechMap terms);
// and every outcome gets its SpeechMap label. The ledger read gives the same fields as the export.
//
// Vendor shapes (each cited where it is built):
// - Anthropic: stop_reason "refusal" with stop_details {type, category, explanation}
//   https://platform.claude.com/docs/en/test-and-evaluate/strengthen-guardrails/handle-streaming-refusals
//   (ANTHROPIC_REFUSAL_EXAMPLE in test/run/vendor/replies.ts).
// - Gemini: promptFeedback.blockReason with safetyRatings, candidates[].finishReason SAFETY /
//   RECITATION / OTHER with safetyRatings: https://ai.google.dev/api/generate-content#PromptFeedback,
//   #FinishReason, #SafetyRating.
// - Azure OpenAI: finish_reason "content_filter" with choices[].content_filter_results and
//   prompt_filter_results; a prompt filtered with HTTP 400, error.code "content_filter",
//   error.innererror.content_filter_result:
//   https://learn.microsoft.com/en-us/azure/ai-services/openai/concepts/content-filter
//   ("Scenario details", the response and error examples).
// - OpenRouter: a moderation error, HTTP 403 with error.metadata {reasons, flagged_input,
//   provider_name}: https://openrouter.ai/docs/api/reference/errors-and-debugging
//   (ModerationErrorMetadata; test/run/vendor/openrouter.ts).
// - SpeechMap: COMPLETE / EVASIVE / DENIAL (judge prompt) and ERROR_ORIGINAL_MODERATION /
//   _TRUNCATION / _RESPONSE: github.com/xlr8harder/speechmap-eval judge_compliance.py and README
//   ("Error semantics").
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportLedger } from '../../src/run/export.js';
import { runStudy } from '../../src/run/run.js';
import { prepareAudit } from '../../src/score/audit-prepare.js';
import { blockFields } from '../../src/score/block-provenance.js';
import { streamLedgerResponses } from '../../src/score/ledger.js';
import { SCORERS } from '../../src/score/registry.js';
import { scoreToFolder } from '../../src/score/score.js';
import { writeScoreBag } from '../helpers/bag-header.js';
import { tempDir } from '../helpers/tmp.js';
import { runTrials, writeRunBag } from '../run/fixture.js';
import { FAST, writeModels } from '../run/helpers.js';
import { startServer, type TestServer } from '../run/server.js';
import { startOpenRouter, type OpenRouterServer } from '../run/vendor/openrouter.js';
import { startVendorServer, type VendorServer } from '../run/vendor/server.js';
import { anthropicScript, azureScript, gatewayScript, geminiScript } from './block-fixtures.js';

const KEY = 'test-provenance-key-0123456789';
const VAR = 'STIMKIT_TEST_PROVENANCE_KEY';
type Row = Record<string, string>;
let dir: string;
let ledger: string;
let rows: Row[];
let trialsCsv: Row[];
let lines: Array<Record<string, unknown>>;
let ids: string[];
const servers: { ant?: VendorServer; gem?: VendorServer; az?: TestServer; or?: OpenRouterServer } =
  {};

beforeAll(async () => {
  process.env[VAR] = KEY;
  dir = await tempDir('stimkit-provenance-');
  const bag = path.join(dir, 'bag');
  await writeRunBag(bag, 4);
  const trials = runTrials(4);
  ids = trials.map((t) => t.id);
  servers.ant = await startVendorServer('anthropic', KEY, (r) => anthropicScript(r.k));
  servers.gem = await startVendorServer('gemini', KEY, (r) => geminiScript(r.k));
  servers.az = await startServer((r) => azureScript(r.k));
  servers.or = await startOpenRouter(['Mod'], gatewayScript);
  const models = await writeModels(dir, [
    {
      name: 'claude',
      provider: 'anthropic',
      endpoint: servers.ant.url,
      api_key_env: VAR,
      max_tokens: 64,
    },
    {
      name: 'gem',
      provider: 'gemini',
      endpoint: servers.gem.url,
      api_key_env: VAR,
      max_tokens: 64,
    },
    { name: 'azure', endpoint: servers.az.url },
    { name: 'gateway', endpoint: servers.or.url, routing: { only: ['Mod'] } },
  ]);
  ledger = path.join(dir, 'ledger.sqlite');
  await runStudy({ bundle: bag, modelsFile: models, ledger, backoff: FAST });
  // Scored from `run export`, against the same trials with their entries (the audit's input).
  const chunks: string[] = [];
  exportLedger(ledger, 'jsonl', {}, (c) => chunks.push(c));
  const responses = path.join(dir, 'responses.jsonl');
  await writeFile(responses, chunks.join(''));
  const scoreBag = path.join(dir, 'score-bag');
  await writeScoreBag(scoreBag, 'provenance', trials);
  const source = { kind: 'responses' as const, file: responses };
  const { scorer } = await prepareAudit({ bundle: scoreBag, source, models });
  const scores = path.join(dir, 'scores');
  await scoreToFolder({
    scorers: [...SCORERS, scorer],
    bundle: scoreBag,
    source,
    models,
    out: scores,
  });
  const csv = async (f: string): Promise<Row[]> =>
    parse<Row>(await readFile(path.join(scores, f), 'utf8'), { columns: true });
  rows = await csv('audit.csv');
  trialsCsv = await csv('trials.csv');
  lines = (await readFile(path.join(scores, 'scores.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
});
afterAll(async () => {
  delete process.env[VAR];
  await Promise.all([
    servers.ant?.close(),
    servers.gem?.close(),
    servers.az?.close(),
    servers.or?.close(),
  ]);
});

/** The audit.csv row of model m for trial k: outcome, the block columns and SpeechMap. */
function cells(m: string, k: number) {
  const r = rows.find((x) => x.model === m && x.trial === ids[k]);
  if (!r) throw new Error(`no row ${m} ${k}`);
  return [
    r.outcome,
    r.block_source,
    r.block_category,
    r.block_category_raw,
    r.block_detail,
    r.speechmap,
    r.speechmap_reason,
  ];
}

describe('refusal provenance, run → score', () => {
  it('Anthropic: stop_details category and explanation; an unknown stop reason is unclassified', () => {
    expect(cells('claude', 0)).toEqual([
      'provider_block',
      'vendor_classifier',
      'cyber',
      'cyber',
      'This request was declined because it could enable cyber harm.',
      'ERROR_ORIGINAL_MODERATION',
      '',
    ]);
    expect(cells('claude', 1)).toEqual([
      'answer',
      'unclassified',
      'new_stop_kind',
      'new_stop_kind',
      '',
      '',
      'unclassified_stop',
    ]);
    expect(cells('claude', 2)).toEqual(['answer', '', '', '', '', 'COMPLETE', '']);
    expect(cells('claude', 3)).toEqual(['length', '', '', '', '', 'ERROR_ORIGINAL_TRUNCATION', '']);
  });

  it('Gemini: blockReason and finishReason with the safety ratings; OTHER is unclassified', () => {
    expect(cells('gem', 0)).toEqual([
      'provider_block',
      'vendor_classifier',
      'safety',
      'SAFETY',
      'harm_category_hate_speech:high|harm_category_dangerous_content:negligible',
      'ERROR_ORIGINAL_MODERATION',
      '',
    ]);
    expect(cells('gem', 1)).toEqual([
      'provider_block',
      'vendor_classifier',
      'safety',
      'SAFETY',
      'harm_category_harassment:high:blocked',
      'ERROR_ORIGINAL_MODERATION',
      '',
    ]);
    expect(cells('gem', 2).slice(0, 4)).toEqual([
      'provider_block',
      'vendor_classifier',
      'recitation',
      'RECITATION',
    ]);
    expect(cells('gem', 3)).toEqual([
      'answer',
      'unclassified',
      'other',
      'OTHER',
      '',
      '',
      'unclassified_stop',
    ]);
  });

  it('Azure OpenAI: the filtered categories with their severity, from a 200 and from a 400', () => {
    expect(cells('azure', 0)).toEqual([
      'provider_block',
      'vendor_classifier',
      'hate',
      'hate',
      'hate:high',
      'ERROR_ORIGINAL_MODERATION',
      '',
    ]);
    expect(cells('azure', 1)).toEqual([
      'provider_block',
      'vendor_classifier',
      'hate|jailbreak',
      'hate|jailbreak',
      'hate:high|jailbreak:detected',
      'ERROR_ORIGINAL_MODERATION',
      '',
    ]);
    expect(cells('azure', 2)).toEqual(['failed', '', '', '', '', 'ERROR_ORIGINAL_RESPONSE', '']);
  });

  it("the gateway's moderation, a content_filter stop, the model's refusal, and SpeechMap of answers", () => {
    const flagged = rows.find((x) => x.model === 'gateway' && x.trial === ids[0])!;
    expect(cells('gateway', 0).slice(0, 4)).toEqual([
      'provider_block',
      'gateway',
      'political',
      'political',
    ]);
    expect(flagged.block_detail).toBe('trial 0: please tell me about subject 0.');
    expect(flagged.route_provider).toBe('Mod');
    expect(cells('gateway', 1)).toEqual([
      'provider_block',
      'vendor_classifier',
      'content_filter',
      'content_filter',
      '',
      'ERROR_ORIGINAL_MODERATION',
      '',
    ]);
    expect(cells('gateway', 2)).toEqual(['model_refusal', 'model', '', '', '', 'DENIAL', '']);
    expect(cells('gateway', 3)).toEqual([
      'suppressed',
      '',
      '',
      '',
      '',
      'ERROR_ORIGINAL_MODERATION',
      '',
    ]);
    expect(cells('gateway', 4)).toEqual(['answer', '', '', '', '', 'DENIAL', '']);
    expect(cells('gateway', 5)).toEqual(['answer', '', '', '', '', 'EVASIVE', '']);
  });

  it('trials.csv and scores.jsonl carry the same fields; the ledger read gives what the export gave', () => {
    const header = Object.keys(trialsCsv[0]!);
    for (const c of [
      'block_source',
      'block_category',
      'block_category_raw',
      'block_detail',
      'speechmap',
      'speechmap_reason',
    ])
      expect(header).toContain(c);
    for (const t of trialsCsv) {
      const a = rows.find((x) => x.model === t.model && x.trial === t.trial)!;
      expect([t.block_source, t.block_category, t.speechmap]).toEqual([
        a.block_source,
        a.block_category,
        a.speechmap,
      ]);
    }
    const byKey = new Map(lines.map((l) => [`${l.trial as string}@${l.model as string}`, l]));
    let n = 0;
    for (const r of streamLedgerResponses(ledger, 'main')) {
      const line = byKey.get(`${r.trial_id}@${r.model}`)!;
      expect(blockFields(r)).toEqual({
        block_source: line.block_source,
        block_category: line.block_category,
        block_category_raw: line.block_category_raw,
        block_detail: line.block_detail,
      });
      n++;
    }
    expect(n).toBe(24);
  });
});
