// Who said no, all the way to the numbers: two gateway routes (BlockCo blocks every zh prompt of
// us-a; EmptyCo returns empty stops for every zh prompt of cn-b) and two models answering directly,
// scored, analysed and reported. Among the answers every model refuses 2 of 8 prompts in each
// language, so a logit of the lexical refusal on lang and china_origin must find no effect (odds
// ratio 1): the routes' no's are not the models' refusals. Every table says what it left out.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from '../../src/commands/analyze.js';
import { buildReport } from '../../src/report/build.js';
import { auditLengthSection } from '../../src/report/sections/audit-more.js';
import { saidNoSection } from '../../src/report/sections/said-no.js';
import { prepareAudit } from '../../src/score/audit-prepare.js';
import { SCORERS } from '../../src/score/registry.js';
import { scoreToFolder } from '../../src/score/score.js';
import { runTrials } from '../run/fixture.js';
import { writeScoreBag } from '../helpers/bag-header.js';
import { withDefaults } from '../helpers/command-defaults.js';
import { tempDir } from '../helpers/tmp.js';

const MODELS = [
  { name: 'cn-a', origin: 'CN', route: 'https://cn-a.test/v1', gate: null },
  { name: 'cn-b', origin: 'CN', route: 'EmptyCo', gate: 'suppressed' },
  { name: 'us-a', origin: 'US', route: 'BlockCo', gate: 'provider_block' },
  { name: 'us-b', origin: 'US', route: 'https://us-b.test/v1', gate: null },
] as const;
const REFUSAL = 'I cannot help with that.';
const ANSWER =
  'The photograph shows a large crowd gathered in a public square, with banners and a stage at the far end.';

/** The run export row of model m for trial k (k odd: zh). */
function exported(m: (typeof MODELS)[number], id: string, k: number) {
  const zh = k % 2 === 1;
  const base = { trial_id: id, model: m.name, route: m.route };
  if (zh && m.gate === 'suppressed')
    return { ...base, outcome: 'suppressed', response_text: '', route_provider: 'EmptyCo' };
  if (zh && m.gate === 'provider_block')
    return { ...base, outcome: 'provider_block', response_text: null, route_provider: 'BlockCo' };
  const refuses = Math.floor(k / 2) % 4 === 0; // 2 of the 8 prompts of each language
  return {
    ...base,
    outcome: 'answer',
    response_text: refuses ? REFUSAL : ANSWER,
    route_provider: m.gate ? m.route : null,
  };
}

async function analyze(args: string[], opts: Record<string, unknown>) {
  const r = await analyzeCommand.run!(
    args,
    withDefaults(analyzeCommand, { bootWeights: 'rademacher', ...opts }),
    {} as never,
  );
  return r as { summary: any; human: string };
}

describe('who said no, through score, analyze and report', () => {
  let dir: string;
  let audit: string;
  let report: string;

  beforeAll(async () => {
    dir = await tempDir('stimkit-outcomes-');
    const trials = runTrials(16).slice(0, 16);
    const bag = path.join(dir, 'bag');
    await writeScoreBag(bag, 'outcomes', trials);
    const lines = MODELS.flatMap((m) => trials.map((t, k) => JSON.stringify(exported(m, t.id, k))));
    await writeFile(path.join(dir, 'responses.jsonl'), `${lines.join('\n')}\n`);
    const models = MODELS.map((m) => ({
      name: m.name,
      endpoint: 'http://127.0.0.1:9/v1',
      origin: m.origin,
    }));
    await writeFile(
      path.join(dir, 'models.yaml'),
      stringify({ format: 'stimkit.models', version: 1, models }),
    );
    const scores = path.join(dir, 'scores');
    const source = { kind: 'responses' as const, file: path.join(dir, 'responses.jsonl') };
    const { scorer } = await prepareAudit({
      bundle: bag,
      source,
      models: path.join(dir, 'models.yaml'),
    });
    await scoreToFolder({
      scorers: [...SCORERS, scorer],
      bundle: bag,
      source: { kind: 'responses', file: path.join(dir, 'responses.jsonl') },
      models: path.join(dir, 'models.yaml'),
      out: scores,
    });
    audit = path.join(scores, 'audit.csv');
    report = path.join(dir, 'report');
    await buildReport(scores, report, [auditLengthSection, saidNoSection]);
  });

  it('writes each row with its outcome, route and reason, and no lexical refusal without text', async () => {
    const rows: Array<Record<string, string>> = parse(await readFile(audit, 'utf8'), {
      columns: true,
    });
    expect(rows).toHaveLength(64);
    const of = (model: string, lang: string) =>
      rows.filter((r) => r.model === model && r.lang === lang);
    for (const r of of('cn-b', 'zh'))
      expect(r).toMatchObject({
        outcome: 'suppressed',
        route: 'EmptyCo',
        route_provider: 'EmptyCo',
        reason: 'no_response',
        d1_refusal_lexical: '',
        d1_suppressed: '1',
        d1_said_no_lexical: '1',
        d6_length_raw: '',
      });
    for (const r of of('us-a', 'zh'))
      expect(r).toMatchObject({
        outcome: 'provider_block',
        reason: 'provider_block',
        d1_refusal_lexical: '',
        d1_provider_block: '1',
        d1_said_no_lexical: '1',
      });
    const answers = rows.filter((r) => r.outcome === 'answer');
    expect(answers).toHaveLength(48);
    expect(answers.filter((r) => r.d1_refusal_lexical === '1')).toHaveLength(12);
  });

  it("credits no route's no to china_origin or zh in a logit of the lexical refusal", async () => {
    const { summary, human } = await analyze(['logit', audit], {
      outcome: 'd1_refusal_lexical',
      predictors: ['lang', 'china_origin'],
      complete: true,
    });
    const terms = Object.fromEntries(summary.result.terms.map((t: any) => [t.term, t]));
    for (const name of Object.keys(terms).filter((n) => n !== 'Intercept')) {
      expect(terms[name].oddsRatio, name).toBeCloseTo(1, 6);
      expect(terms[name].p, name).toBeCloseTo(1, 6);
    }
    expect(summary.outcomes).toEqual({
      outcomes: ['answer', 'model_refusal', 'unrecorded'],
      default: true,
      kept: 48,
      left_out: { provider_block: 8, suppressed: 8 },
    });
    expect(summary.input.rows).toBe(48);
    expect(human).toContain(
      'outcomes: answer, model_refusal, unrecorded (default; --outcomes to choose); 48 rows used, left out 16: provider_block 8, suppressed 8',
    );
  });

  it('chooses outcomes with --outcomes, and said-no columns keep every outcome but failed', async () => {
    const chosen = await analyze(['rates', audit], {
      outcome: 'd1_said_no_lexical',
      by: ['model', 'lang'],
      outcomes: ['answer', 'provider_block', 'suppressed'],
    });
    expect(chosen.summary.outcomes).toMatchObject({ default: false, kept: 64, left_out: {} });
    const byDefault = await analyze(['rates', audit], {
      outcome: 'd1_said_no_lexical',
      by: ['model', 'lang'],
    });
    expect(byDefault.summary.outcomes).toMatchObject({ kept: 64, left_out: {} });
    const lexical = await analyze(['rates', audit], {
      outcome: 'd1_refusal_lexical',
      by: ['model'],
    });
    expect(lexical.summary.outcomes.left_out).toEqual({ provider_block: 8, suppressed: 8 });
    await expect(
      analyze(['rates', audit], { outcome: 'd1_said_no', outcomes: ['answered'] }),
    ).rejects.toMatchObject({ code: 'E_ANALYZE_USAGE' });
  });

  it('states the rule under every table and chart of the D6 lengths, and counts each outcome exactly', async () => {
    const html = await readFile(path.join(report, 'index.html'), 'utf8');
    const sentence =
      'Rows of audit.csv: answers only (the model&#39;s structured refusals count as D1 refusals; their other cells are empty), 48 rows; left out: provider_block 8, suppressed 8';
    const captions = html.split(/<div class="caption">|<figcaption>/).slice(1);
    const rates = captions.filter((c) => c.includes('tables/audit-'));
    expect(rates.length).toBeGreaterThan(0);
    for (const c of rates) expect(c).toContain(sentence);
    const saidNo = captions.filter((c) => c.includes('tables/said-no.csv'));
    expect(saidNo).toHaveLength(1);
    expect(saidNo[0]).not.toContain('Rows of audit.csv');
    const rows: Array<Record<string, string>> = parse(
      await readFile(path.join(report, 'tables', 'said-no.csv'), 'utf8'),
      { columns: true },
    );
    const cell = (model: string, lang: string) =>
      rows.find((r) => r.model === model && r.lang === lang)!;
    expect(cell('cn-b', 'zh')).toMatchObject({ n: '8', answer: '0', suppressed: '8' });
    expect(cell('us-a', 'zh')).toMatchObject({ n: '8', answer: '0', provider_block: '8' });
    expect(cell('cn-a', 'zh')).toMatchObject({ n: '8', answer: '8', provider_block: '0' });
  });
});
