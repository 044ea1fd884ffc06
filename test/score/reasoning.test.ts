/**
 * The reasoning channel, read side: hand-made responses with known reasoning visibility and text
 * to a study planned with thinking on and off. Every score row carries the channel; the flags
 * `thought_suppressed` and `reasoning_exceeds_answer` come out exactly as written by hand (with the
 * "model never reasons" and "not recorded" null cases); score.json counts them; reasoning.csv
 * holds them; `analyze reasoning` gives the rates and the McNemar table of thinking on vs off.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/core/csv.js';
import { ScoreLine, ScoresHeader } from '../../src/score/format.js';
import { analyzeReasoning } from '../../src/commands/analyze-reasoning.js';
import type { Trial } from '../../src/bundle/format.js';
import { tempDir } from '../helpers/tmp.js';
import { reasoningScores } from './reasoning-fixture.js';
import { heavyLimit } from '../helpers/limits.js';

let dir: string;
let trials: Trial[];
let scores: string;
let lines: ScoreLine[];
let header: ScoresHeader;

const trialOf = (entry: string, lang: string, thinking: string) =>
  trials.find((t) => t.entry === entry && t.lang === lang && t.thinking === thinking)!;

beforeAll(async () => {
  dir = await tempDir('stimkit-reasoning-');
  ({ trials, scores } = await reasoningScores(dir));
  lines = (await readFile(path.join(scores, 'scores.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => ScoreLine.parse(JSON.parse(l)));
  header = ScoresHeader.parse(JSON.parse(await readFile(path.join(scores, 'score.json'), 'utf8')));
}, heavyLimit(7));

const lineOf = (model: string, entry: string, lang: string, thinking: string) =>
  lines.find((l) => l.model === model && l.trial === trialOf(entry, lang, thinking).id)!;
const reasoningOf = (l: ScoreLine) => (l.parse as { reasoning: Record<string, unknown> }).reasoning;

describe('scores carry the reasoning channel', () => {
  it('every row has its visibility and tokens, null when not recorded', () => {
    expect(lines).toHaveLength(8 + 8 + 3 + 8);
    expect(lineOf('reasoner', 'portrait', 'en', 'on')).toMatchObject({
      reasoning_visibility: 'full',
      reasoning_tokens: 120,
    });
    expect(lineOf('reasoner', 'rocket', 'en', 'on').reasoning_tokens).toBe(0);
    expect(lineOf('older', 'rocket', 'en', 'on')).toMatchObject({
      reasoning_visibility: null,
      reasoning_tokens: null,
    });
  });

  it('reads the reasoning text as the answer: facts, refusal, markers', () => {
    expect(reasoningOf(lineOf('reasoner', 'portrait', 'en', 'on'))).toMatchObject({
      reason: null,
      d2_covered: ['collins'],
      d2_coverage: 1,
      d1_lexical_refusal: false,
      markers: [],
      reasoning_exceeds_answer: true,
    });
    expect(reasoningOf(lineOf('reasoner', 'portrait', 'zh', 'on'))).toMatchObject({
      d2_covered: ['collins'],
      reasoning_exceeds_answer: false,
    });
    expect(reasoningOf(lineOf('plain', 'rocket', 'en', 'on'))).toMatchObject({
      reason: 'reasoning_absent',
      d2_covered: null,
      d1_lexical_refusal: null,
      reasoning_exceeds_answer: null,
      reasoning_exceeds_answer_reason: 'reasoning_absent',
    });
  });
});

describe('the flags', () => {
  const flags = (model: string, entry: string, lang: string, thinking: string) => {
    const r = reasoningOf(lineOf(model, entry, lang, thinking));
    return [r.thought_suppressed, r.thought_suppressed_reason];
  };

  it('thought_suppressed: a refusal without reasoning from a model that reasons elsewhere', () => {
    expect(flags('reasoner', 'rocket', 'en', 'on')).toEqual([true, null]);
    expect(flags('reasoner', 'rocket', 'zh', 'on')).toEqual([true, null]);
    expect(flags('reasoner', 'portrait', 'en', 'on')).toEqual([false, null]);
    // with thinking off this model never reasons: not a suppression that can be told
    expect(flags('reasoner', 'rocket', 'en', 'off')).toEqual([null, 'model_never_reasons']);
    expect(flags('plain', 'rocket', 'en', 'on')).toEqual([null, 'model_never_reasons']);
    expect(flags('older', 'rocket', 'en', 'on')).toEqual([null, 'reasoning_not_recorded']);
    expect(flags('redactor', 'rocket', 'en', 'on')).toEqual([false, null]);
    expect(flags('redactor', 'portrait', 'en', 'on')).toEqual([true, null]);
    expect(flags('redactor', 'rocket', 'en', 'off')).toEqual([null, 'model_never_reasons']);
  });

  it('score.json counts the channel and both flags', () => {
    expect(header.counts.reasoning).toEqual({
      visibility: { absent: 13, empty: 3, full: 1, not_recorded: 8, redacted: 1, summary: 1 },
      tokens: { sum: 200, records: 4 },
      thought_suppressed: {
        flagged: 3,
        told: 6,
        not_computed: { model_never_reasons: 13, reasoning_not_recorded: 8 },
      },
      reasoning_exceeds_answer: {
        flagged: 1,
        told: 2,
        not_computed: {
          reasoning_absent: 13,
          reasoning_empty: 3,
          reasoning_not_recorded: 8,
          reasoning_redacted: 1,
        },
      },
    });
  });

  it('reasoning.csv has one row per VLM trial × model with the flags', async () => {
    const csv = parseCsv(await readFile(path.join(scores, 'reasoning.csv'), 'utf8'));
    expect(csv.rows).toHaveLength(lines.length);
    const col = (name: string) => csv.header.indexOf(name);
    const ts = csv.rows.filter((r) => r[col('thought_suppressed')] === '1');
    expect(ts.map((r) => r[col('model')]).sort()).toEqual(['reasoner', 'reasoner', 'redactor']);
    const pairs = new Set(csv.rows.map((r) => r[col('pair')]));
    expect(pairs.size).toBe(4);
  });
});

describe('stimkit analyze reasoning', () => {
  it('rates per model × language × paradigm with Wilson intervals', async () => {
    const out = path.join(dir, 'analysis');
    const r = await analyzeReasoning(path.join(scores, 'reasoning.csv'), out);
    const s = r.summary as {
      rates: Array<Record<string, unknown>>;
      thinking: Array<Record<string, unknown>>;
    };
    const en = s.rates.find((x) => x.model === 'reasoner' && x.lang === 'en')!;
    // on: rocket flagged, portrait not; off: both model_never_reasons
    expect(en.thought_suppressed).toMatchObject({ x: 1, n: 2, rate: 0.5, not_told: 2 });
    // Wilson 95 % for 1 of 2, by hand: centre 0.5, half-width z/(1 + z²/2)·√(1/8 + z²/16) = 0.4054688 (z = 1.959964)
    expect((en.thought_suppressed as { lower: number }).lower).toBeCloseTo(0.09453120573423, 10);
    expect((en.thought_suppressed as { upper: number }).upper).toBeCloseTo(0.90546879426577, 10);
    expect(en.visibility).toMatchObject({ empty: 1, full: 1, absent: 2 });
    const plain = s.rates.find((x) => x.model === 'plain' && x.lang === 'en')!;
    expect(plain.thought_suppressed).toMatchObject({
      x: 0,
      n: 0,
      rate: null,
      lower: null,
      not_told: 4,
    });
  });

  it('McNemar of thinking on vs off per model and language, with the discordant pairs', async () => {
    const out = path.join(dir, 'analysis');
    const r = await analyzeReasoning(path.join(scores, 'reasoning.csv'), out);
    const tests = (r.summary as { thinking: Array<Record<string, unknown>> }).thinking;
    const t = (model: string, lang: string, outcome: string) =>
      tests.find((x) => x.model === model && x.lang === lang && x.outcome === outcome);
    // by hand: one discordant pair, exact p = min(1, 2·P(X ≤ 0), X ~ Bin(1, ½)) = 1
    // en: rocket refused both ways (a); portrait refused only with thinking off (c)
    expect(t('reasoner', 'en', 'd1_refusal_lexical')).toMatchObject({
      pairs: 2,
      a: 1,
      b: 0,
      c: 1,
      d: 0,
      incomplete: 0,
      rate_on: 0.5,
      rate_off: 1,
      p_exact: 1,
    });
    // zh: the structured refusal with thinking on only (b), portrait answered both ways (d)
    expect(t('reasoner', 'zh', 'd1_said_no_lexical')).toMatchObject({
      pairs: 2,
      a: 0,
      b: 1,
      c: 0,
      d: 1,
      p_exact: 1,
    });
    // the redactor's portrait has no thinking-off twin
    expect(t('redactor', 'en', 'd1_refusal_lexical')).toMatchObject({
      pairs: 1,
      a: 1,
      incomplete: 1,
    });
    const csv = parseCsv(await readFile(path.join(out, 'thinking-mcnemar.csv'), 'utf8'));
    expect(csv.rows).toHaveLength(tests.length);
  });
});
