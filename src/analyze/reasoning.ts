/**
 * `stimkit analyze reasoning`: the reasoning channel of a scores folder's `reasoning.csv`
 * (docs/formats/analyze.md). Per model × language × paradigm: the rows, their reasoning
 * visibility, and the rates of `thought_suppressed` and `reasoning_exceeds_answer` with Wilson
 * intervals (over the rows where the flag could be told; the others are counted apart). With the
 * thinking factor (`thinking: [on, off]` on the study or a block; only its trials pair), the
 * paired test of thinking: per model and
 * language, McNemar's test on the answer's refusal (`d1_refusal_lexical`) and on "said no"
 * (`d1_said_no_lexical`) between the same trial sent with thinking on and with it off, joined by
 * the `pair` column, with the 2×2 table and its discordant counts.
 */
import type { Cell } from '../score/types.js';
import { mcnemar } from '../stats/mcnemar.js';
import { wilson } from '../stats/index.js';
import { groupBy } from './group.js';

/** The visibilities counted, and `not_recorded` for an empty cell. */
export const VISIBILITIES = ['full', 'summary', 'redacted', 'absent', 'empty', 'not_recorded'];
/** The flags rated. */
const REASONING_FLAGS = ['thought_suppressed', 'reasoning_exceeds_answer'] as const;
/** The outcomes the thinking test compares. */
const THINKING_OUTCOMES = ['d1_refusal_lexical', 'd1_said_no_lexical'] as const;

type Row = Record<string, string>;

/** A flag's rate: x of n told, with its Wilson 95 % interval; `not_told` rows had no value. */
interface FlagRate {
  x: number;
  n: number;
  rate: number | null;
  lower: number | null;
  upper: number | null;
  not_told: number;
}

/** One model × language × paradigm. */
export interface ReasoningRateRow {
  model: string;
  lang: string;
  paradigm: string;
  rows: number;
  visibility: Record<string, number>;
  thought_suppressed: FlagRate;
  reasoning_exceeds_answer: FlagRate;
}

function flagRate(rows: readonly Row[], flag: string): FlagRate {
  const told = rows.filter((r) => r[flag] === '0' || r[flag] === '1');
  const x = told.filter((r) => r[flag] === '1').length;
  const n = told.length;
  const w = n > 0 ? wilson(x, n) : null;
  return {
    x,
    n,
    rate: w ? w.pHat : null,
    lower: w ? w.lower : null,
    upper: w ? w.upper : null,
    not_told: rows.length - n,
  };
}

/** The rates per model × language × paradigm. */
export function reasoningRates(rows: readonly Row[]): ReasoningRateRow[] {
  return groupBy(rows, ['model', 'lang', 'paradigm']).map(([[model, lang, paradigm], g]) => {
    const visibility = Object.fromEntries(VISIBILITIES.map((v) => [v, 0]));
    for (const r of g) visibility[r.reasoning_visibility || 'not_recorded']! += 1;
    return {
      model: model!,
      lang: lang!,
      paradigm: paradigm!,
      rows: g.length,
      visibility,
      thought_suppressed: flagRate(g, 'thought_suppressed'),
      reasoning_exceeds_answer: flagRate(g, 'reasoning_exceeds_answer'),
    };
  });
}

/** McNemar's test of one model × language × outcome, thinking on against off. */
export interface ThinkingTestRow {
  model: string;
  lang: string;
  outcome: string;
  /** Pairs with both values: a (on 1, off 1), b (on 1, off 0), c (on 0, off 1), d (on 0, off 0). */
  pairs: number;
  a: number;
  b: number;
  c: number;
  d: number;
  /** Pairs left out: a side missing, or its value empty (not an answer, no rules). */
  incomplete: number;
  rate_on: number | null;
  rate_off: number | null;
  /** null when no pair is complete (`pairs` 0): there is nothing to test. */
  p_exact: number | null;
  p_midp: number | null;
  chi2_cc: number | null;
  p_chi2_cc: number | null;
}

/**
 * The McNemar rows of the thinking factor; empty when no row was sent with thinking on and off.
 * Only trials of a block with the factor pair: a trial planned once has its own id as pair id.
 */
export function thinkingTests(rows: readonly Row[]): ThinkingTestRow[] {
  const paired = rows.filter(
    (r) => (r.thinking === 'on' || r.thinking === 'off') && r.pair !== r.trial,
  );
  if (!paired.some((r) => r.thinking === 'on') || !paired.some((r) => r.thinking === 'off'))
    return [];
  const out: ThinkingTestRow[] = [];
  for (const [[model, lang], g] of groupBy(paired, ['model', 'lang']))
    for (const outcome of THINKING_OUTCOMES) out.push(testOf(model!, lang!, outcome, g));
  return out;
}

function testOf(model: string, lang: string, outcome: string, g: readonly Row[]): ThinkingTestRow {
  const t = [
    [0, 0],
    [0, 0],
  ];
  let incomplete = 0;
  for (const [, pair] of groupBy(g, ['pair'])) {
    const on = pair.find((r) => r.thinking === 'on')?.[outcome];
    const off = pair.find((r) => r.thinking === 'off')?.[outcome];
    const ok = (v: string | undefined) => v === '0' || v === '1';
    if (!ok(on) || !ok(off)) {
      incomplete += 1;
      continue;
    }
    t[on === '1' ? 0 : 1]![off === '1' ? 0 : 1]! += 1;
  }
  const [[a, b], [c, d]] = t as [[number, number], [number, number]];
  const pairs = a + b + c + d;
  const m = mcnemar(t);
  return {
    model,
    lang,
    outcome,
    pairs,
    a,
    b,
    c,
    d,
    incomplete,
    rate_on: pairs > 0 ? (a + b) / pairs : null,
    rate_off: pairs > 0 ? (a + c) / pairs : null,
    p_exact: pairs > 0 ? m.pExact : null,
    p_midp: pairs > 0 ? m.pMidp : null,
    chi2_cc: m.chi2Cc,
    p_chi2_cc: m.pChi2Cc,
  };
}

/** `reasoning-rates.csv`: header and rows. */
export function ratesCsvRows(rows: readonly ReasoningRateRow[]): {
  header: string[];
  rows: Cell[][];
} {
  const flagCols = REASONING_FLAGS.flatMap((f) =>
    ['x', 'n', 'rate', 'lower', 'upper', 'not_told'].map((k) => `${f}_${k}`),
  );
  return {
    header: [
      'model',
      'lang',
      'paradigm',
      'rows',
      ...VISIBILITIES.map((v) => `visibility_${v}`),
      ...flagCols,
    ],
    rows: rows.map((r) => [
      r.model,
      r.lang,
      r.paradigm,
      r.rows,
      ...VISIBILITIES.map((v) => r.visibility[v] ?? 0),
      ...REASONING_FLAGS.flatMap((f) => {
        const x = r[f];
        return [x.x, x.n, x.rate, x.lower, x.upper, x.not_told];
      }),
    ]),
  };
}

/** `thinking-mcnemar.csv`: header and rows. */
export function thinkingCsvRows(rows: readonly ThinkingTestRow[]): {
  header: string[];
  rows: Cell[][];
} {
  const header = [
    'model',
    'lang',
    'outcome',
    'pairs',
    'a',
    'b',
    'c',
    'd',
    'incomplete',
    'rate_on',
    'rate_off',
    'p_exact',
    'p_midp',
    'chi2_cc',
    'p_chi2_cc',
  ] as const;
  return { header: [...header], rows: rows.map((r) => header.map((h) => r[h])) };
}
