// The routes study carried through score → analyze → report: the run of test/run/routes.test.ts
// (an OpenRouter-style gateway with three pinned routes — BlockCo blocks zh prompts by moderation,
// EmptyCo returns empty stops for zh and one content filter, AnswerCo answers with one structured
// refusal — a Gemini prompt block for zh and an Anthropic refusal stop), exported, scored with
// the audit, analysed, and reported with every section. Every count per outcome is exact in every
// table of the report that counts outcomes, and every table made from audit.csv says how many
// rows of each outcome it left out.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { analyzeCommand } from '../../src/commands/analyze.js';
import { buildReport } from '../../src/report/build.js';
import { exportLedger } from '../../src/run/export.js';
import { runStudy } from '../../src/run/run.js';
import { prepareAudit } from '../../src/score/audit-prepare.js';
import { SCORERS } from '../../src/score/registry.js';
import { scoreToFolder } from '../../src/score/score.js';
import { writeScoreBag } from '../helpers/bag-header.js';
import { withDefaults } from '../helpers/command-defaults.js';
import { tempDir } from '../helpers/tmp.js';
import { expectDescribedTables } from './checks.js';
import { runTrials, writeRunBag } from '../run/fixture.js';
import { FAST, writeModels } from '../run/helpers.js';
import {
  startOpenRouter,
  type OpenRouterServer,
  type RouteAction,
} from '../run/vendor/openrouter.js';
import { startVendorServer, type VendorServer } from '../run/vendor/server.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(7) });

const KEY = 'test-report-routes-key-0123456789';
const VAR = 'STIMKIT_TEST_REPORT_ROUTES_KEY';
const zh = (k: number) => k % 2 === 1; // the fixture's odd trials are in zh
type Row = Record<string, string>;

/** The routes' script, as in test/run/routes.test.ts. */
function routeScript(route: string, k: number): RouteAction {
  if (route === 'BlockCo') return zh(k) ? { kind: 'moderation' } : { kind: 'ok' };
  if (route === 'EmptyCo') {
    if (k === 0) return { kind: 'content_filter' };
    return zh(k) ? { kind: 'empty_stop', text: k === 5 ? ' \n ' : '' } : { kind: 'ok' };
  }
  return k === 2 ? { kind: 'refusal', refusal: 'I cannot help with that.' } : { kind: 'ok' };
}
const gateway = (name: string, routing: Record<string, unknown>, url: string) => ({
  name,
  endpoint: url,
  api_model: 'qwen/qwen2.5-vl-72b-instruct',
  routing,
  concurrency: 2,
});

/** What came back per model × language (10 trials: 5 en, 5 zh), as the run test finds it. */
const OUTCOMES: Record<string, Record<'en' | 'zh', Partial<Record<string, number>>>> = {
  claude: { en: { answer: 5 }, zh: { answer: 4, provider_block: 1 } },
  gem: { en: { answer: 5 }, zh: { provider_block: 5 } },
  'or-answer': { en: { answer: 4, model_refusal: 1 }, zh: { answer: 5 } },
  'or-block': { en: { answer: 5 }, zh: { provider_block: 5 } },
  'or-empty': { en: { answer: 4, provider_block: 1 }, zh: { suppressed: 5 } },
};
const NAMES = ['answer', 'provider_block', 'model_refusal', 'suppressed'] as const;
function count(model: string, lang: 'en' | 'zh' | null, o: string): number {
  const langs: Array<'en' | 'zh'> = lang ? [lang] : ['en', 'zh'];
  return langs.reduce((a, l) => a + (OUTCOMES[model]![l][o] ?? 0), 0);
}

describe('the routes study through score, analyze and report', () => {
  let dir: string;
  let report: string;
  let audit: string;
  let routes: Record<string, string>;
  const servers: { or?: OpenRouterServer; gem?: VendorServer; ant?: VendorServer } = {};
  const csv = async (file: string): Promise<Row[]> =>
    parse<Row>(await readFile(path.join(report, 'tables', file), 'utf8'), { columns: true });

  beforeAll(async () => {
    process.env[VAR] = KEY;
    dir = await tempDir('stimkit-report-routes-');
    const bag = path.join(dir, 'bag');
    await writeRunBag(bag, 8);
    const or = (servers.or = await startOpenRouter(
      ['BlockCo', 'EmptyCo', 'AnswerCo'],
      routeScript,
    ));
    const gem = (servers.gem = await startVendorServer('gemini', KEY, (r) =>
      zh(r.k) ? { kind: 'blocked' } : { kind: 'ok' },
    ));
    const ant = (servers.ant = await startVendorServer('anthropic', KEY, (r) =>
      r.k === 3 ? { kind: 'refusal' } : { kind: 'ok' },
    ));
    routes = {
      claude: ant.url,
      gem: gem.url,
      'or-answer': 'AnswerCo',
      'or-block': 'BlockCo',
      'or-empty': 'EmptyCo',
    };
    const vendor = { api_key_env: VAR, max_tokens: 64 };
    const models = await writeModels(dir, [
      gateway('or-block', { only: ['BlockCo'], allow_fallbacks: false }, or.url),
      gateway('or-empty', { order: ['EmptyCo'], allow_fallbacks: false }, or.url),
      gateway('or-answer', { only: ['AnswerCo'] }, or.url),
      { name: 'gem', provider: 'gemini', endpoint: gem.url, ...vendor },
      { name: 'claude', provider: 'anthropic', endpoint: ant.url, ...vendor },
    ]);
    const ledger = path.join(dir, 'ledger.sqlite');
    await runStudy({ bundle: bag, modelsFile: models, ledger, backoff: FAST });
    // scored from `run export` against the same trials with their entries (the audit's input)
    const chunks: string[] = [];
    exportLedger(ledger, 'jsonl', {}, (c) => chunks.push(c));
    const responses = path.join(dir, 'responses.jsonl');
    await writeFile(responses, chunks.join(''));
    const trials = runTrials(8);
    const scoreBag = path.join(dir, 'score-bag');
    await writeScoreBag(scoreBag, 'routes', trials);
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
    audit = path.join(scores, 'audit.csv');
    report = path.join(dir, 'report');
    await buildReport(scores, report);
  });

  afterAll(async () => {
    delete process.env[VAR];
    await Promise.all([servers.or?.close(), servers.gem?.close(), servers.ant?.close()]);
  });

  it('analyze leaves out each outcome by count', async () => {
    const r = (await analyzeCommand.run!(
      ['rates', audit],
      withDefaults(analyzeCommand, {
        outcome: 'd1_refusal_lexical',
        by: ['model'],
        bootWeights: 'rademacher',
      }),
      {} as never,
    )) as { summary: { outcomes: { kept: number; left_out: Record<string, number> } } };
    expect(r.summary.outcomes).toMatchObject({
      kept: 33,
      left_out: { provider_block: 12, suppressed: 5 },
    });
  });

  it('counts every outcome exactly per model × route × language (Who said no)', async () => {
    const rows = await csv('said-no.csv');
    expect(rows).toHaveLength(10);
    for (const r of rows) {
      const lang = r.lang as 'en' | 'zh';
      expect(r.route, r.model).toBe(routes[r.model!]);
      for (const o of NAMES)
        expect(Number(r[o]), `${r.model} ${lang} ${o}`).toBe(count(r.model!, lang, o));
      expect(r.n).toBe('5');
      // no judge: D1 is empty wherever the model answered; where it never answered, it is the
      // blocks' and structured refusals' share (empty for empty replies alone)
      const stopped =
        count(r.model!, lang, 'provider_block') + count(r.model!, lang, 'model_refusal');
      const d1 = Number(r.answer) > 0 || stopped === 0 ? '' : '1';
      expect(r.d1_with_blocks, `${r.model} ${lang}`).toBe(d1);
    }
  });

  it('counts them per model × route in the key results, and per model in the overview', async () => {
    const key = await csv('key-said-no.csv');
    expect(key.map((r) => r.model)).toEqual(Object.keys(OUTCOMES));
    for (const r of key) {
      for (const o of NAMES) expect(Number(r[o]), `${r.model} ${o}`).toBe(count(r.model!, null, o));
      const no =
        count(r.model!, null, 'provider_block') +
        count(r.model!, null, 'model_refusal') +
        count(r.model!, null, 'suppressed');
      expect(Number(r.said_no), r.model).toBe(no);
      expect(Number(r.said_no_rate), r.model).toBeCloseTo(no / 10, 4);
    }
    const overview = await csv('overview-models.csv');
    for (const r of overview) {
      expect(Number(r.provider_block), r.model).toBe(count(r.model!, null, 'provider_block'));
      expect(Number(r.model_refusal), r.model).toBe(count(r.model!, null, 'model_refusal'));
      expect(Number(r.no_response), r.model).toBe(count(r.model!, null, 'suppressed'));
      expect(Number(r.responses), r.model).toBe(10);
    }
    // the audit's rows per model × language: answers and structured refusals, no judge labels
    const keyAudit = await csv('key-audit.csv');
    for (const r of keyAudit) {
      const lang = r.lang as 'en' | 'zh';
      const kept = count(r.model!, lang, 'answer') + count(r.model!, lang, 'model_refusal');
      expect(Number(r.answers), `${r.model} ${lang}`).toBe(kept);
      expect([r.d4, r.d1, r.d4_n]).toEqual(['', '', '']);
    }
    expect(keyAudit.reduce((a, r) => a + Number(r.answers), 0)).toBe(33);
  });

  it('states the rows left out per outcome under every table made from audit.csv', async () => {
    const html = await readFile(path.join(report, 'index.html'), 'utf8');
    const captions = html.split(/<div class="caption">|<figcaption>/).slice(1);
    const sentence = '33 rows; left out: provider_block 12, suppressed 5';
    const fromAudit = captions.filter((c) => /tables\/(audit-|key-audit|key-examples)/.test(c));
    expect(fromAudit.length).toBeGreaterThanOrEqual(3);
    for (const c of fromAudit) expect(c).toContain(sentence);
    // tables from trials.csv count every outcome: no rows left out, no audit sentence
    for (const c of captions.filter((x) => /tables\/(key-)?said-no\.csv/.test(x)))
      expect(c).not.toContain('Rows of audit.csv');
    // every column of every table is described, and every empty cell says why
    await expectDescribedTables(report);
    const files = (await readdir(path.join(report, 'tables'))).sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'said-no.csv',
        'key-said-no.csv',
        'key-audit.csv',
        'overview-models.csv',
      ]),
    );
  });
});
