/**
 * `stimkit analyze pressure`: how often a model's stance moves under follow-up pressure
 * (docs/formats/analyze.md, docs/statistics.md "Pressure"). From a scores folder's
 * `pressure.csv` (one row per planned turn) per model × language × turn: the conversations, the
 * share whose stance differs from turn 1 (`changed`) and whose side differs (`side_changed`), each
 * with its Wilson 95 % interval over the rows where it has a value, the direction of the change,
 * and why the other rows have no value. From `pressure-conversations.csv` per model × language:
 * FlipFlop's final-turn change (Laban et al. 2023), SYCON-Bench's Turn of Flip and Number of Flips
 * (Hong et al. 2025; flips with a t interval over conversations) and the direction of the first
 * change (after SycEval, Fanous et al. 2025).
 */
import type { Cell } from '../score/types.js';
import { oneSampleT, wilson } from '../stats/index.js';
import { byText, groupBy } from './group.js';

type Row = Record<string, string>;

/** x of n with its Wilson 95 % interval; rate and bounds null when n is 0. */
export interface PressureRate {
  x: number;
  n: number;
  rate: number | null;
  lower: number | null;
  upper: number | null;
}

/** One model × language × turn (or model × turn, pooled over languages). */
export interface PressureTurnRow {
  model: string;
  lang: string;
  turn: number;
  /** The follow-up kind(s) of the turn, `;`-joined when conversations differ; empty on turn 1. */
  followup: string;
  /** Planned turns (rows), sent or not. */
  conversations: number;
  /** Rows the outcome selection kept whose stance was read. */
  with_stance: number;
  changed: PressureRate;
  side_changed: PressureRate;
  /** Changed rows whose stance moved up (plus) or down (minus) from turn 1's. */
  plus: number;
  minus: number;
  /** Rows without a value of `changed`, and why (reason → rows). */
  not_told: number;
  not_told_reasons: Record<string, number>;
}

/** Mean flips over conversations with a 95 % t interval; `reason` says why a cell is empty. */
interface FlipsSummary {
  n: number;
  mean: number | null;
  sd: number | null;
  lower: number | null;
  upper: number | null;
  reason: string;
}

/** One model × language of the conversation measures. */
export interface PressureConversationRow {
  model: string;
  lang: string;
  conversations: number;
  changed_ever: PressureRate;
  final_changed: PressureRate;
  side_changed_ever: PressureRate;
  flips: FlipsSummary;
  /** First turn whose stance differs from turn 1's → conversations (SYCON-Bench's Turn of Flip). */
  first_change_turn: Record<string, number>;
  /** Conversations whose every later stance equals the first. */
  never_changed: number;
  /** Direction of the first change. */
  first_change_plus: number;
  first_change_minus: number;
  /** The `reason` cells of the rows (why some measures are empty) → rows. */
  reasons: Record<string, number>;
}

/** `groupBy`, each key compared in turn, the turn as a number (turn 10 after turn 9). */
function groupByTurn(rows: readonly Row[], keys: readonly string[]): Array<[string[], Row[]]> {
  const t = keys.indexOf('turn');
  return groupBy(rows, keys).sort(([a], [b]) => {
    for (let i = 0; i < keys.length; i++) {
      const d = i === t ? Number(a[i]) - Number(b[i]) : byText(a[i]!, b[i]!);
      if (d !== 0) return d;
    }
    return 0;
  });
}

/** The rate of a 0/1 column over the rows where it has a value. */
function rateOf(rows: readonly Row[], column: string): PressureRate {
  const told = rows.filter((r) => r[column] === '0' || r[column] === '1');
  const x = told.filter((r) => r[column] === '1').length;
  const n = told.length;
  if (n === 0) return { x, n, rate: null, lower: null, upper: null };
  const w = wilson(x, n);
  return { x, n, rate: w.pHat, lower: w.lower, upper: w.upper };
}

const count = (into: Record<string, number>, key: string) => {
  into[key] = (into[key] ?? 0) + 1;
};
const sortedCounts = (c: Record<string, number>) =>
  Object.fromEntries(Object.entries(c).sort(([a], [b]) => byText(a, b)));

/**
 * Why a row gives no value of `changed`: left out by the outcome selection (its `reason`, or
 * `left_out:<outcome>` when it had a stance), else its `changed_reason`, with `no_stance` made
 * precise by the row's `reason` (e.g. `unparseable`, `not_sent:…`).
 */
function notToldReason(r: Row, kept: boolean): string {
  if (!kept) return r.reason || `left_out:${r.outcome || 'unrecorded'}`;
  if (r.changed_reason === 'no_stance') return r.reason || 'no_stance';
  return r.changed_reason || 'no_value';
}

function turnRow(model: string, lang: string, turn: string, g: Row[], kept: ReadonlySet<Row>) {
  const used = g.filter((r) => kept.has(r));
  const changed = rateOf(used, 'changed');
  const reasons: Record<string, number> = {};
  for (const r of g)
    if (!kept.has(r) || (r.changed !== '0' && r.changed !== '1'))
      count(reasons, notToldReason(r, kept.has(r)));
  const told = used.filter((r) => r.changed === '0' || r.changed === '1');
  return {
    model,
    lang,
    turn: Number(turn),
    followup: [...new Set(g.map((r) => r.followup ?? '').filter((f) => f !== ''))]
      .sort(byText)
      .join(';'),
    conversations: g.length,
    with_stance: used.filter((r) => (r.stance ?? '') !== '').length,
    changed,
    side_changed: rateOf(used, 'side_changed'),
    plus: told.filter((r) => r.direction === 'plus').length,
    minus: told.filter((r) => r.direction === 'minus').length,
    not_told: g.length - changed.n,
    not_told_reasons: sortedCounts(reasons),
  };
}

/**
 * The per-turn measures of pressure.csv's `rows`, per model × language × turn (`pooled`: per
 * model × turn over every language, `lang` then empty). Only the rows in `kept` (the outcome
 * selection) give values; every row counts among the conversations.
 */
export function pressureTurns(
  rows: readonly Row[],
  kept: ReadonlySet<Row>,
  pooled = false,
): PressureTurnRow[] {
  const keys = pooled ? ['model', 'turn'] : ['model', 'language', 'turn'];
  return groupByTurn(rows, keys).map(([k, g]) =>
    pooled ? turnRow(k[0]!, '', k[1]!, g, kept) : turnRow(k[0]!, k[1]!, k[2]!, g, kept),
  );
}

/** Mean flips with a 95 % t interval over the conversations that have a flip count. */
function flipsSummary(rows: readonly Row[]): FlipsSummary {
  const x = rows.filter((r) => (r.flips ?? '') !== '').map((r) => Number(r.flips));
  if (x.length === 0)
    return { n: 0, mean: null, sd: null, lower: null, upper: null, reason: 'no_flip_count' };
  if (x.length === 1)
    return { n: 1, mean: x[0]!, sd: null, lower: null, upper: null, reason: 'one_conversation' };
  const t = oneSampleT(x);
  return { n: x.length, mean: t.mean, sd: t.sd, lower: t.ci[0], upper: t.ci[1], reason: '' };
}

/** The conversation measures of pressure-conversations.csv's `rows`, per model × language. */
export function pressureConversations(rows: readonly Row[]): PressureConversationRow[] {
  return groupByTurn(rows, ['model', 'language']).map(([[model, lang], g]) => {
    const first: Record<string, number> = {};
    const reasons: Record<string, number> = {};
    for (const r of g) {
      if ((r.first_change_turn ?? '') !== '') count(first, r.first_change_turn!);
      // several reasons are `;`-joined (`final_turn_not_sent;never_changed`): each counts
      for (const why of (r.reason ?? '').split(';')) if (why !== '') count(reasons, why);
    }
    return {
      model: model!,
      lang: lang!,
      conversations: g.length,
      changed_ever: rateOf(g, 'changed_ever'),
      final_changed: rateOf(g, 'final_changed'),
      side_changed_ever: rateOf(g, 'side_changed_ever'),
      flips: flipsSummary(g),
      first_change_turn: Object.fromEntries(
        Object.entries(first).sort(([a], [b]) => Number(a) - Number(b)),
      ),
      never_changed: g.filter((r) => r.changed_ever === '0').length,
      first_change_plus: g.filter((r) => r.first_change_direction === 'plus').length,
      first_change_minus: g.filter((r) => r.first_change_direction === 'minus').length,
      reasons: sortedCounts(reasons),
    };
  });
}

/** `a:1; b:2` — a count map as one CSV cell. */
const countsCell = (c: Record<string, number>): string =>
  Object.entries(c)
    .map(([k, n]) => `${k}:${n}`)
    .join('; ');

const RATE_PARTS = ['x', 'n', 'rate', 'lower', 'upper'] as const;

/** A CSV column: its name and how a row gives its cell. */
type Column<R> = readonly [name: string, cell: (r: R) => Cell];

/** The five columns of a rate: `<name>_x`, `_n`, `_rate`, `_lower`, `_upper`. */
const rateColumns = <R>(name: string, of: (r: R) => PressureRate): Array<Column<R>> =>
  RATE_PARTS.map((p) => [`${name}_${p}`, (r: R) => of(r)[p]] as const);

/** Columns that are a field of the row as it is. */
const fields = <R>(...names: Array<keyof R & string>): Array<Column<R>> =>
  names.map((k) => [k, (r: R) => r[k] as Cell] as const);

const csvOf = <R>(columns: ReadonlyArray<Column<R>>, rows: readonly R[]) => ({
  header: columns.map(([name]) => name),
  rows: rows.map((r) => columns.map(([, cell]) => cell(r))),
});

const TURN_CSV: ReadonlyArray<Column<PressureTurnRow>> = [
  ...fields<PressureTurnRow>('model', 'lang', 'turn', 'followup', 'conversations', 'with_stance'),
  ...rateColumns<PressureTurnRow>('changed', (r) => r.changed),
  ...rateColumns<PressureTurnRow>('side_changed', (r) => r.side_changed),
  ...fields<PressureTurnRow>('plus', 'minus', 'not_told'),
  ['not_told_reasons', (r) => countsCell(r.not_told_reasons)],
];

type ConversationRow = PressureConversationRow;
const CONVERSATION_CSV: ReadonlyArray<Column<ConversationRow>> = [
  ...fields<ConversationRow>('model', 'lang', 'conversations'),
  ...rateColumns<ConversationRow>('changed_ever', (r) => r.changed_ever),
  ...rateColumns<ConversationRow>('final_changed', (r) => r.final_changed),
  ...rateColumns<ConversationRow>('side_changed_ever', (r) => r.side_changed_ever),
  ...(['n', 'mean', 'sd', 'lower', 'upper', 'reason'] as const).map(
    (k) => [`flips_${k}`, (r: ConversationRow) => r.flips[k]] as const,
  ),
  ['first_change_turns', (r) => countsCell(r.first_change_turn)],
  ...fields<ConversationRow>('never_changed', 'first_change_plus', 'first_change_minus'),
  ['reasons', (r) => countsCell(r.reasons)],
];

/** `pressure-turns.csv`: header and rows. */
export function turnsCsvRows(rows: readonly PressureTurnRow[]): {
  header: string[];
  rows: Cell[][];
} {
  return csvOf(TURN_CSV, rows);
}

/** `pressure-conversations-summary.csv`: header and rows. */
export function conversationsCsvRows(rows: readonly PressureConversationRow[]): {
  header: string[];
  rows: Cell[][];
} {
  return csvOf(CONVERSATION_CSV, rows);
}
