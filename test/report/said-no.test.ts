// The report's "Who said no" section: from responses that carry their ledger outcome and route
// (a run export's rows, old outcome names included), through score, to tables/said-no.csv: the
// counts per model × route × language equal what was given, rates are x / n, the Wilson bounds
// are the stats module's, and D1 is given with and without provider blocks.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build.js';
import { saidNoSection } from '../../src/report/sections/said-no.js';
import { loadScoreBundle } from '../../src/score/bundle.js';
import { scoreToFolder } from '../../src/score/score.js';
import { wilson } from '../../src/stats/index.js';
import { tempDir } from '../helpers/tmp.js';
import { instrumentBundle } from '../score/fixture.js';

/** The outcome written for the i-th trial of a model (old names on some, as older exports give them). */
function scripted(model: string, i: number): { outcome: string; http_status?: number } {
  if (model === 'm-old')
    return [
      { outcome: 'content_filter' },
      { outcome: 'policy_refusal', http_status: 400 },
      { outcome: 'policy_refusal' },
      { outcome: 'empty' },
      { outcome: 'answer' },
    ][i % 5]!;
  return [
    { outcome: 'provider_block' },
    { outcome: 'model_refusal' },
    { outcome: 'suppressed' },
    { outcome: 'answer' },
  ][i % 4]!;
}
const MAPPED: Record<string, string> = {
  content_filter: 'provider_block',
  empty: 'suppressed',
};

describe('report: who said no', () => {
  let rows: Array<Record<string, string>>;
  const expected = new Map<string, Record<string, number>>();

  beforeAll(async () => {
    const dir = await tempDir('stimkit-said-no-');
    const fx = await instrumentBundle(dir, { iterations: 1, ptIterations: 0 });
    const bundle = await loadScoreBundle(fx.bundle);
    const lines: string[] = [];
    for (const model of ['m-new', 'm-old'])
      bundle.trials.forEach((t, i) => {
        const s = scripted(model, i);
        const route = model === 'm-new' ? (i % 3 === 0 ? 'RouteA' : 'RouteB') : 'https://x.test/v1';
        const outcome =
          s.outcome === 'policy_refusal'
            ? s.http_status
              ? 'provider_block'
              : 'model_refusal'
            : (MAPPED[s.outcome] ?? s.outcome);
        const key = `${model}|${route}|${t.lang}`;
        const c = expected.get(key) ?? {};
        c[outcome] = (c[outcome] ?? 0) + 1;
        expected.set(key, c);
        lines.push(
          JSON.stringify({
            trial_id: t.id,
            model,
            response_text:
              s.outcome === 'answer'
                ? 'I agree.'
                : s.outcome.includes('empty') || s.outcome === 'suppressed'
                  ? ''
                  : null,
            ...s,
            route,
          }),
        );
      });
    await writeFile(path.join(dir, 'responses.jsonl'), `${lines.join('\n')}\n`);
    const models = ['m-new', 'm-old'].map((name) => ({
      name,
      endpoint: 'http://127.0.0.1:9/v1',
      origin: 'US',
    }));
    await writeFile(
      path.join(dir, 'models.yaml'),
      stringify({ format: 'stimkit.models', version: 1, models }),
    );
    const scores = path.join(dir, 'scores');
    await scoreToFolder({
      bundle: fx.bundle,
      source: { kind: 'responses', file: path.join(dir, 'responses.jsonl') },
      models: path.join(dir, 'models.yaml'),
      out: scores,
    });
    const out = path.join(dir, 'report');
    await buildReport(scores, out, [saidNoSection]);
    rows = parse(await readFile(path.join(out, 'tables', 'said-no.csv'), 'utf8'), {
      columns: true,
    });
  });

  it('counts each model × route × language exactly, old outcome names mapped', () => {
    expect(rows.map((r) => `${r.model}|${r.route}|${r.lang}`)).toEqual([...expected.keys()].sort());
    for (const r of rows) {
      const c = expected.get(`${r.model}|${r.route}|${r.lang}`)!;
      for (const o of ['answer', 'provider_block', 'model_refusal', 'suppressed'])
        expect(Number(r[o]), `${r.model} ${r.route} ${r.lang} ${o}`).toBe(c[o] ?? 0);
      expect(Number(r.n)).toBe(Object.values(c).reduce((a, b) => a + b, 0));
    }
  });

  it('gives rates x / n with the Wilson interval, and D1 with and without provider blocks', () => {
    for (const r of rows) {
      const n = Number(r.n);
      for (const o of ['provider_block', 'model_refusal', 'suppressed']) {
        const w = wilson(Number(r[o]), n);
        expect(Number(r[`${o}_rate`])).toBeCloseTo(w.pHat, 4);
        expect(Number(r[`${o}_lower`])).toBeCloseTo(w.lower, 4);
        expect(Number(r[`${o}_upper`])).toBeCloseTo(w.upper, 4);
      }
      // No judge labels here: where the model answered, D1 is not computed (blocks and refusals
      // alone would make it 100 %); the cells are empty, never a rate of the non-answers alone.
      const blocks = Number(r.provider_block);
      const refusals = Number(r.model_refusal);
      if (Number(r.answer) > 0) {
        for (const c of ['d1_with_blocks_n', 'd1_with_blocks', 'd1_model_only_n', 'd1_model_only'])
          expect(r[c], `${r.model} ${r.route} ${r.lang} ${c}`).toBe('');
      } else {
        expect(Number(r.d1_with_blocks_n)).toBe(blocks + refusals);
        expect(Number(r.d1_model_only_n)).toBe(refusals);
      }
      expect(r.simulated).toBe('0');
    }
  });
});
