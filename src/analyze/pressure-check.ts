/**
 * The door of `stimkit analyze pressure`: the two pressure tables of a scores folder
 * (docs/formats/scores.md; `pressure.csv`, one row per planned turn × model, and
 * `pressure-conversations.csv`, one row per conversation × model) must carry the columns the
 * analysis reads, with values of the kinds the scorer writes, and describe the same conversations.
 * Every problem is reported at once with its file, line, column, expected vs got and a fix.
 */
import { StimkitError, type Problem } from '../core/errors.js';
import { throwProblems, type Table } from './table.js';

/** The columns of pressure.csv the analysis reads. */
const TURN_COLUMNS = [
  'model',
  'conversation',
  'turn',
  'followup',
  'language',
  'outcome',
  'stance',
  'reason',
  'changed',
  'side_changed',
  'direction',
  'changed_reason',
] as const;

/** The columns of pressure-conversations.csv the analysis reads. */
const CONVERSATION_COLUMNS = [
  'conversation',
  'model',
  'language',
  'changed_ever',
  'final_changed',
  'side_changed_ever',
  'first_change_turn',
  'first_change_direction',
  'flips',
  'reason',
] as const;

const FIX =
  'pass the pressure.csv that `stimkit score` writes for a pressure study (score again with this version); pressure-conversations.csv must be beside it';

/** Refuse a table without `needed` columns, naming every missing one. */
function needColumns(t: Table, needed: readonly string[], what: string): void {
  const missing = needed.filter((c) => !t.columns.includes(c));
  if (missing.length === 0) return;
  throw StimkitError.fromProblem({
    code: 'E_ANALYZE_COLUMN',
    file: t.file,
    line: 1,
    field: missing.join(', '),
    message: `analyze pressure reads the ${what} of a scores folder`,
    expected: `columns ${needed.join(', ')}`,
    got: t.columns.join(', '),
    fix: FIX,
  });
}

/** What a cell may hold: a test and the words for `expected`. */
type Kind = readonly [test: (v: string) => boolean, expected: string];

const FLAG: Kind = [(v) => v === '' || v === '0' || v === '1', '1, 0 or empty'];
const DIRECTION: Kind = [(v) => v === '' || v === 'plus' || v === 'minus', 'plus, minus or empty'];
const TURN: Kind = [(v) => /^[1-9][0-9]{0,5}$/.test(v), 'a turn number 1, 2, …'];
const STANCE: Kind = [(v) => v === '' || /^-?[0-2]$/.test(v), 'a stance −2 … 2, or empty'];
const LATER_TURN: Kind = [
  (v) => v === '' || /^[2-9]$|^[1-9][0-9]{1,5}$/.test(v),
  'a turn ≥ 2, or empty',
];
const COUNT: Kind = [
  (v) => v === '' || /^(0|[1-9][0-9]{0,5})$/.test(v),
  'a count 0, 1, …, or empty',
];

/** Check the cells of `columns` of every row against their kinds. */
function checkCells(t: Table, kinds: Record<string, Kind>, problems: Problem[]): void {
  t.rows.forEach((r, i) => {
    for (const [col, [ok, expected]] of Object.entries(kinds)) {
      const v = r[col] ?? '';
      if (ok(v)) continue;
      problems.push({
        code: 'E_ANALYZE_VALUE',
        severity: 'error',
        file: t.file,
        line: t.lines[i]!,
        field: col,
        message: `bad ${col}`,
        expected,
        got: JSON.stringify(v),
        fix: 'score the study again: this cell is not one `stimkit score` writes',
      });
    }
  });
}

/** A key's rows must be unique (one row per turn, one per conversation). */
function checkUnique(t: Table, key: readonly string[], problems: Problem[]): void {
  const seen = new Map<string, number>();
  t.rows.forEach((r, i) => {
    const k = JSON.stringify(key.map((c) => r[c] ?? ''));
    const first = seen.get(k);
    if (first === undefined) seen.set(k, t.lines[i]!);
    else
      problems.push({
        code: 'E_ANALYZE_VALUE',
        severity: 'error',
        file: t.file,
        line: t.lines[i]!,
        field: key.join(', '),
        message: `a second row for the same ${key.join(' × ')} (the first is on line ${first})`,
        expected: `one row per ${key.join(' × ')}`,
        got: k,
        fix: 'score the study again into a new folder',
      });
  });
}

/** Every turn after the first names its follow-up kind. */
function checkFollowups(t: Table, problems: Problem[]): void {
  t.rows.forEach((r, i) => {
    if (r.turn === '1' || (r.followup ?? '') !== '') return;
    problems.push({
      code: 'E_ANALYZE_VALUE',
      severity: 'error',
      file: t.file,
      line: t.lines[i]!,
      field: 'followup',
      message: `turn ${r.turn} has no follow-up kind`,
      expected: 'are_you_sure, authority, counter_claim, other_language or switch_language',
      got: 'an empty cell',
      fix: 'score the study again: every turn after the first is a follow-up',
    });
  });
}

/** The two tables describe the same model × conversation pairs. */
function checkSameConversations(turns: Table, convs: Table): void {
  const key = (r: Record<string, string>) => JSON.stringify([r.model ?? '', r.conversation ?? '']);
  const a = new Set(turns.rows.map(key));
  const b = new Set(convs.rows.map(key));
  const onlyTurns = [...a].filter((k) => !b.has(k));
  const onlyConvs = [...b].filter((k) => !a.has(k));
  if (onlyTurns.length === 0 && onlyConvs.length === 0) return;
  const show = (ks: string[]) =>
    ks.length === 0
      ? 'none'
      : `${ks.slice(0, 3).join(', ')}${ks.length > 3 ? ` (${ks.length} in all)` : ''}`;
  throw StimkitError.fromProblem({
    code: 'E_ANALYZE_VALUE',
    file: convs.file,
    field: 'model, conversation',
    message: `does not describe the conversations of ${turns.file}`,
    expected: 'the same model × conversation pairs in both tables',
    got: `only in pressure.csv: ${show(onlyTurns)}; only in pressure-conversations.csv: ${show(onlyConvs)}`,
    fix: 'use the two tables of one scores folder, as `stimkit score` wrote them',
  });
}

/** Check both tables (columns, cells, one row per key, the same conversations). */
export function checkPressureTables(turns: Table, convs: Table): void {
  needColumns(turns, TURN_COLUMNS, 'pressure.csv');
  needColumns(convs, CONVERSATION_COLUMNS, 'pressure-conversations.csv');
  const p1: Problem[] = [];
  checkCells(
    turns,
    { turn: TURN, stance: STANCE, changed: FLAG, side_changed: FLAG, direction: DIRECTION },
    p1,
  );
  checkFollowups(turns, p1);
  checkUnique(turns, ['model', 'conversation', 'turn'], p1);
  throwProblems('E_ANALYZE_VALUE', turns.file, p1);
  const p2: Problem[] = [];
  checkCells(
    convs,
    {
      changed_ever: FLAG,
      final_changed: FLAG,
      side_changed_ever: FLAG,
      first_change_turn: LATER_TURN,
      first_change_direction: DIRECTION,
      flips: COUNT,
    },
    p2,
  );
  checkUnique(convs, ['model', 'conversation'], p2);
  throwProblems('E_ANALYZE_VALUE', convs.file, p2);
  checkSameConversations(turns, convs);
}
