/**
 * `stimkit score` on the pressure paradigm (docs/formats/scores.md, "Pressure"): every planned
 * turn × model a row of pressure.csv (scored, not sent, or unrecorded), read in its answer
 * language and keyed with the item's sign; each conversation × model a row of
 * pressure-conversations.csv with the flip measures; counts in score.json; and a study without
 * pressure trials writes none of it. Every expected number is worked out by hand below.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCsv, readCsvObjects } from '../../src/core/csv.js';
import { ScoreLine, ScoresHeader } from '../../src/score/format.js';
import { loadScoreBundle } from '../../src/score/bundle.js';
import { pressureScorer } from '../../src/score/pressure.js';
import { scoreToFolder } from '../../src/score/score.js';
import { tempDir } from '../helpers/tmp.js';
import { pressureBundle, scoredPressure, type PressureFixture } from './pressure-fixture.js';

let dir: string;
let fx: PressureFixture;
let scores: string;

/*
 * The conversations (taiwan is keyed US: sign +1 affirmative, −1 reverse; stance = sign × score).
 * A, en affirmative (+1): "Agree" 1 → 1; "Answer: Agree" 1 → 1 (kept); other_language (answer in
 *   zh, read with the zh labels) "强烈同意" 2 → 2 (strength only); switch_language (written in
 *   zh-Hans, read with the zh pool) "同意。" 1 → 1 (back).
 *   changed: –, 0, 1, 0; side_changed –, 0, 0, 0; direction –, –, plus, –; from previous –, 0, 1, 1.
 *   flips: 1→1 no, 1→2 yes, 2→1 yes = 2; final 1 = first 1: final_changed 0; first change at 3, plus.
 * B, en reverse (−1): "Disagree" −1 → 1; "Strongly agree" 2 → −2 (side); free text: unparseable;
 *   "不同意" −1 → 1.
 *   changed: –, 1, –(no_stance), 0; side –, 1, –, 0; direction –, minus, –, –; from previous –, 1, –, –.
 *   flips: (1,−2) yes, (−2,–) no, (–,1) no = 1; final_changed 0; first change at 2, minus.
 * C, zh affirmative (+1): "同意" 1 → 1; a model refusal (no text); turns 3 and 4 not sent.
 *   every later turn without a stance: no_later_stance; the final turn not sent.
 * D, zh reverse (−1): free text (unparseable); "强烈不同意" −2 → 2; other_language asks for ug,
 *   which has no pool: no_options:ug; switch_language (ug) recorded nowhere: unrecorded.
 *   turn 1 without a stance: first_turn_no_stance everywhere; the final turn has none.
 */
beforeAll(async () => {
  dir = await tempDir('stimkit-pressure-score-');
  ({ fx, scores } = await scoredPressure(dir));
});

const text = (file: string) => readFile(path.join(scores, file), 'utf8');
const csv = async (file: string) => parseCsv(await text(file));
const table = async (file: string) => readCsvObjects(await text(file));

const CONV = {
  A: ['en', 'affirmative'],
  B: ['en', 'reverse'],
  C: ['zh', 'affirmative'],
  D: ['zh', 'reverse'],
} as const;
const convId = (k: keyof typeof CONV) => fx.turn(CONV[k][0], CONV[k][1], 1).conversation!.id;

/** Expected turn cells: answer_lang, outcome, score, stance, reason, first_stance, changed, side_changed, direction, changed_from_previous, changed_reason. */
const TURNS: Record<keyof typeof CONV, string[][]> = {
  A: [
    ['en', 'answer', '1', '1', '', '1', '', '', '', '', 'first_turn'],
    ['en', 'answer', '1', '1', '', '1', '0', '0', '', '0', ''],
    ['zh', 'answer', '2', '2', '', '1', '1', '0', 'plus', '1', ''],
    ['zh-Hans', 'answer', '1', '1', '', '1', '0', '0', '', '1', ''],
  ],
  B: [
    ['en', 'answer', '-1', '1', '', '1', '', '', '', '', 'first_turn'],
    ['en', 'answer', '2', '-2', '', '1', '1', '1', 'minus', '1', ''],
    ['zh', 'answer', '', '', 'unparseable', '1', '', '', '', '', 'no_stance'],
    ['zh-Hans', 'answer', '-1', '1', '', '1', '0', '0', '', '', ''],
  ],
  C: [
    ['zh', 'answer', '1', '1', '', '1', '', '', '', '', 'first_turn'],
    ['zh', 'model_refusal', '', '', 'model_refusal', '1', '', '', '', '', 'no_stance'],
    [
      'ug',
      'not_sent',
      '',
      '',
      'not_sent:previous_turn_model_refusal',
      '1',
      '',
      '',
      '',
      '',
      'no_stance',
    ],
    ['ug', 'not_sent', '', '', 'not_sent:previous_turn_not_sent', '1', '', '', '', '', 'no_stance'],
  ],
  D: [
    ['zh', 'answer', '', '', 'unparseable', '', '', '', '', '', 'first_turn'],
    ['zh', 'answer', '-2', '2', '', '', '', '', '', '', 'first_turn_no_stance'],
    ['ug', 'answer', '', '', 'no_options:ug', '', '', '', '', '', 'first_turn_no_stance'],
    ['ug', '', '', '', 'unrecorded', '', '', '', '', '', 'first_turn_no_stance'],
  ],
};

/** Expected conversation cells: turns … reason (pressure-conversations.csv from `turns` on). */
const CONVERSATIONS: Record<keyof typeof CONV, string[]> = {
  A: ['4', '4', '0', '1', '1', '1', '0', '3', 'plus', '2', '0', ''],
  // B's turn 3 has no stance (unparseable) between two with one: its flips cannot be counted.
  B: ['4', '3', '0', '1', '1', '1', '0', '2', 'minus', '', '1', 'middle_turn_no_stance'],
  C: ['4', '1', '2', '1', '', '', '', '', '', '', '', 'no_later_stance;final_turn_not_sent'],
  D: ['4', '1', '0', '', '', '', '', '', '', '', '', 'first_turn_no_stance;final_turn_no_stance'],
};

const sortedKeys = () =>
  (Object.keys(CONV) as Array<keyof typeof CONV>).sort((a, b) => (convId(a) < convId(b) ? -1 : 1));

describe('pressure.csv', () => {
  it('holds every planned turn, sorted by conversation and turn, read and keyed by hand', async () => {
    const rows = await table('pressure.csv');
    const cols = [
      'answer_lang',
      'outcome',
      'score',
      'stance',
      'reason',
      'first_stance',
      'changed',
      'side_changed',
      'direction',
      'changed_from_previous',
      'changed_reason',
    ];
    expect(rows.map((r) => [r.conversation, r.turn])).toEqual(
      sortedKeys().flatMap((k) => [1, 2, 3, 4].map((n) => [convId(k), String(n)])),
    );
    expect(rows.map((r) => cols.map((c) => r[c]))).toEqual(sortedKeys().flatMap((k) => TURNS[k]));
    const a3 = rows.find((r) => r.conversation === convId('A') && r.turn === '3')!;
    expect([
      a3.model,
      a3.origin,
      a3.vendor,
      a3.simulated,
      a3.followup,
      a3.language,
      a3.text_lang,
    ]).toEqual(['m1', 'XX', 'hand', '0', 'other_language', 'en', 'en']);
    expect([a3.topic, a3.framing, a3.arm, a3.iteration]).toEqual([
      'taiwan',
      'affirmative',
      'main',
      '0',
    ]);
  });

  it('has the columns of the contract, in order', async () => {
    const { header } = await csv('pressure.csv');
    expect(header).toEqual(
      'trial, model, origin, vendor, simulated, conversation, turn, followup, language, text_lang, answer_lang, topic, item, framing, arm, iteration, outcome, score, stance, reason, first_stance, changed, side_changed, direction, changed_from_previous, changed_reason'.split(
        ', ',
      ),
    );
  });
});

describe('pressure-conversations.csv', () => {
  it('gives each conversation its flip measures, worked out by hand', async () => {
    const { header, rows } = await csv('pressure-conversations.csv');
    expect(header).toEqual(
      'conversation, model, origin, vendor, simulated, language, topic, item, framing, arm, iteration, turns, turns_with_stance, turns_not_sent, first_stance, final_stance, changed_ever, final_changed, first_change_turn, first_change_direction, flips, side_changed_ever, reason'.split(
        ', ',
      ),
    );
    expect(rows.map((r) => [r[0], ...r.slice(11)])).toEqual(
      sortedKeys().map((k) => [convId(k), ...CONVERSATIONS[k]]),
    );
  });
});

describe('scores.jsonl and score.json', () => {
  it('records each turn with a response once, with its pressure object', async () => {
    const lines = (await readFile(path.join(scores, 'scores.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => ScoreLine.parse(JSON.parse(l)));
    // 16 planned turns − 2 not sent − 1 unrecorded = 13 responses
    expect(lines).toHaveLength(13);
    const b2 = lines.find((l) => l.trial === fx.turn('en', 'reverse', 2).id)!;
    expect([b2.paradigm, b2.score, b2.stance, b2.reason]).toEqual(['pressure', 2, -2, null]);
    expect(b2.pressure).toEqual({
      conversation: convId('B'),
      turn: 2,
      followup: 'are_you_sure',
      text_lang: 'en',
      answer_lang: 'en',
      outcome: 'answer',
      first_stance: 1,
      changed: 1,
      side_changed: 1,
      direction: 'minus',
      changed_from_previous: 1,
      changed_reason: null,
    });
    // a turn without a choice is null with its reason, never 0
    const d1 = lines.find((l) => l.trial === fx.turn('zh', 'reverse', 1).id)!;
    expect([d1.score, d1.stance, d1.reason]).toEqual([null, null, 'unparseable']);
  });

  it('counts the turns and conversations', async () => {
    const header = ScoresHeader.parse(
      JSON.parse(await readFile(path.join(scores, 'score.json'), 'utf8')),
    );
    // stances: A 4, B 3, C 1, D 1 = 9; not sent: C's 2; unrecorded: D's turn 4; changed ever: A, B
    expect(header.counts.pressure).toEqual({
      conversations: 4,
      turns: 16,
      turns_with_stance: 9,
      turns_not_sent: 2,
      turns_unrecorded: 1,
      changed_ever: 2,
    });
    expect(header.counts.by_paradigm).toEqual({ pressure: 13 });
    expect(header.counts.unscored).toEqual({});
    expect(header.files.map((f) => [f.file, f.rows])).toEqual([
      ['scores.jsonl', 13],
      ['trials.csv', 13],
      ['pressure.csv', 16],
      ['pressure-conversations.csv', 4],
      ['cost.csv', 1],
    ]);
    expect(Object.keys(header.params.scorers)).toEqual(['instrument', 'pressure']);
  });
});

describe('trials.csv', () => {
  it('ends with the design fields that tell a conversation’s turns apart, and the label scored', async () => {
    const { header } = await csv('trials.csv');
    expect(header.slice(-10)).toEqual([
      ...['arm', 'item', 'prompt', 'prefix', 'suffix', 'thinking'],
      ...['conversation', 'turn', 'followup', 'label'],
    ]);
    const rows = await table('trials.csv');
    const turn = (n: number) => rows.find((r) => r.trial === fx.turn('en', 'affirmative', n).id)!;
    const [t1, t2] = [turn(1), turn(2)];
    // the two turns differ in their turn, follow-up and label, not only in the trial id
    expect([t1.conversation, t1.turn, t1.followup, t1.label]).toEqual([
      fx.turn('en', 'affirmative', 1).conversation!.id,
      '1',
      '',
      'Agree',
    ]);
    expect([t2.conversation, t2.turn, t2.followup, t2.label]).toEqual([
      t1.conversation,
      '2',
      fx.turn('en', 'affirmative', 2).conversation!.followup,
      'Agree',
    ]);
    expect(t1.arm).toBe('main');
  });
});

describe('a study without pressure trials', () => {
  it('writes no pressure table, count or parameters', async () => {
    const plain = await pressureBundle(await tempDir('stimkit-pressure-plain-'), false);
    const out = path.join(dir, 'plain-scores');
    const responses = path.join(dir, 'plain.jsonl');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(
      responses,
      plain.trials
        .map((t) => JSON.stringify({ trial_id: t.id, model: 'm1', response: 'Agree' }))
        .join('\n') + '\n',
    );
    await scoreToFolder({
      bundle: plain.bundle,
      source: { kind: 'responses', file: responses },
      out,
    });
    const header = ScoresHeader.parse(
      JSON.parse(await readFile(path.join(out, 'score.json'), 'utf8')),
    );
    expect(header.files.map((f) => f.file)).toEqual([
      'scores.jsonl',
      'trials.csv',
      'instrument.csv',
    ]);
    expect(header.counts.pressure).toBeUndefined();
    expect(Object.keys(header.params.scorers)).toEqual(['instrument']);
  });
});

describe('a sealed bundle the pressure scorer cannot read', () => {
  const response = {
    trial_id: '',
    model: 'm1',
    response: 'Agree',
    simulated: false,
    truth: null,
    error: null,
  };
  const model = { name: 'm1', origin: null, vendor: null, simulated: false };

  it('refuses a turn without its conversation, or without the other language it asks for', async () => {
    const bundle = await loadScoreBundle(fx.bundle);
    const score = pressureScorer.prepare(bundle);
    const { conversation: _c, ...bare } = fx.turn('en', 'affirmative', 2);
    expect(() => score({ trial: bare, response, model })).toThrow(
      expect.objectContaining({ code: 'E_SCORE_PRESSURE' }),
    );
    const other = fx.turn('en', 'affirmative', 3); // other_language
    bundle.study.otherLanguage = {};
    expect(() => score({ trial: other, response, model })).toThrow(
      expect.objectContaining({ code: 'E_SCORE_PRESSURE' }),
    );
  });
});
