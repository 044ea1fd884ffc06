/**
 * The reasoning flags on instrument rows: `thought_suppressed` when the forced-choice answer
 * refuses (the parser's refusal cue, or a structured refusal) and the reasoning is empty or absent
 * while the same model shows reasoning on its other trials (same thinking setting); null with its
 * reason otherwise; `reasoning_exceeds_answer` empty with `no_expected_facts` (the instrument has
 * none). Hand-made responses, each flag written by hand; reasoning.csv holds the rows.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCsvObjects } from '../../src/core/csv.js';
import { scoreToFolder } from '../../src/score/score.js';
import { SCORERS } from '../../src/score/registry.js';
import { vlmScorer } from '../../src/score/audit-scorer.js';
import type { Trial } from '../../src/bundle/format.js';
import { heavyLimit } from '../helpers/limits.js';
import { tempDir } from '../helpers/tmp.js';
import { bundleTrials, instrumentBundle } from './fixture.js';

const REFUSE = 'I cannot answer this question.';
let en: Trial[];
let parsed: Map<string, Record<string, unknown>>;
let csv: Array<Record<string, string>>;

/** What each hand-made response is: [model, trial index, response fields, expected flag, reason]. */
type Case = [string, number, Record<string, unknown>, boolean | null, string | null];
const CASES: Case[] = [
  // A model that reasons (trial 0 shows it):
  [
    'thinker',
    0,
    { response: 'Agree', reasoning_visibility: 'full', reasoning_text: 'Weighing it.' },
    false,
    null,
  ],
  // a lexical refusal with empty reasoning: suppressed
  [
    'thinker',
    1,
    { response: REFUSE, reasoning_visibility: 'empty', reasoning_text: '' },
    true,
    null,
  ],
  // a structured refusal (no text) with the reasoning absent: suppressed
  [
    'thinker',
    2,
    { response: null, outcome: 'model_refusal', reasoning_visibility: 'absent' },
    true,
    null,
  ],
  // an answer with empty reasoning: not suppressed (the answer does not refuse)
  [
    'thinker',
    3,
    { response: 'Disagree', reasoning_visibility: 'empty', reasoning_text: '' },
    false,
    null,
  ],
  // a refusal with its reasoning shown: not suppressed
  [
    'thinker',
    4,
    {
      response: REFUSE,
      reasoning_visibility: 'full',
      reasoning_text: 'I cannot discuss this topic.',
    },
    false,
    null,
  ],
  // a provider block: the answer cannot be read
  [
    'thinker',
    5,
    { response: null, outcome: 'provider_block', reasoning_visibility: 'absent' },
    null,
    'provider_block',
  ],
  // A model that never shows reasoning: suppression cannot be told.
  ['silent', 1, { response: REFUSE, reasoning_visibility: 'absent' }, null, 'model_never_reasons'],
  // A row without the channel recorded.
  ['older', 1, { response: REFUSE }, null, 'reasoning_not_recorded'],
];

beforeAll(async () => {
  const dir = await tempDir('stimkit-reasoning-instrument-');
  const fx = await instrumentBundle(dir, { iterations: 1, ptIterations: 0 });
  en = (await bundleTrials(fx.bundle)).filter((t) => t.lang === 'en');
  const file = path.join(dir, 'responses.jsonl');
  const line = ([model, i, fields]: Case) =>
    JSON.stringify({ trial_id: en[i]!.id, model, ...fields });
  await writeFile(file, CASES.map((c) => `${line(c)}\n`).join(''));
  const out = path.join(dir, 'scores');
  // The scorers `stimkit score` uses: the instrument's and the VLM audit's (which owns reasoning.csv).
  const audit = vlmScorer({ entries: new Map(), judges: [], rubric: null, judgeLedger: null });
  await scoreToFolder({
    bundle: fx.bundle,
    source: { kind: 'responses', file },
    out,
    scorers: [...SCORERS, audit],
  });
  const lines = (await readFile(path.join(out, 'scores.jsonl'), 'utf8')).trim().split('\n');
  parsed = new Map(
    lines.map((l) => {
      const j = JSON.parse(l) as { trial: string; model: string; parse: Record<string, unknown> };
      return [`${j.model} ${j.trial}`, j.parse.reasoning as Record<string, unknown>];
    }),
  );
  csv = readCsvObjects(await readFile(path.join(out, 'reasoning.csv'), 'utf8'), { raw: true });
}, heavyLimit(4));

describe('instrument rows carry the reasoning flags', () => {
  it('thought_suppressed as written by hand, reasoning_exceeds_answer never told', () => {
    for (const [model, i, , flag, why] of CASES) {
      const r = parsed.get(`${model} ${en[i]!.id}`);
      expect(r, `${model} ${i}`).toMatchObject({
        thought_suppressed: flag,
        thought_suppressed_reason: why,
        reasoning_exceeds_answer: null,
        reasoning_exceeds_answer_reason: 'no_expected_facts',
        markers: null,
      });
    }
    expect(parsed.get(`thinker ${en[1]!.id}`)).toMatchObject({ answer_refuses: true });
    expect(parsed.get(`thinker ${en[4]!.id}`)).toMatchObject({ d1_lexical_refusal: true });
  });

  it('reasoning.csv has one row per instrument trial × model', () => {
    expect(csv).toHaveLength(CASES.length);
    const row = csv.find((r) => r.model === 'thinker' && r.trial === en[1]!.id)!;
    expect({
      paradigm: row.paradigm,
      answer_refuses: row.answer_refuses,
      thought_suppressed: row.thought_suppressed,
      reasoning_exceeds_answer: row.reasoning_exceeds_answer,
      why: row.reasoning_exceeds_answer_reason,
      marker: row.reasoning_marker_flag,
    }).toEqual({
      paradigm: 'instrument',
      answer_refuses: '1',
      thought_suppressed: '1',
      reasoning_exceeds_answer: '',
      why: 'no_expected_facts',
      marker: '',
    });
  });
});
