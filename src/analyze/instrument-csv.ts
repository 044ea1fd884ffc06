/**
 * Read the responses table of `stimkit analyze instrument` (the columns of `instrument.csv`:
 * model, origin, topic, lang, framing, key, score; optional iteration) into `InstrumentRow`s.
 * An empty score is a missing response (left out); every other bad value is an error.
 */
import type { Problem } from '../core/errors.js';
import type { InstrumentRow } from './instrument/index.js';
import {
  simulatedCount,
  simulatedFlags,
  simulatedValues,
  type SimulatedRows,
} from './simulated.js';
import type { OutcomeSelection } from './outcomes.js';
import { readTable, requireColumns, throwProblems, type Table } from './table.js';

/** Required columns of the responses table. */
const INSTRUMENT_COLUMNS = ['model', 'origin', 'topic', 'lang', 'framing', 'key', 'score'] as const;

/** The responses table read. */
interface InstrumentTable {
  file: string;
  sha256: string;
  rows: InstrumentRow[];
  simulated: SimulatedRows | null;
  simulatedModels: Set<string> | null;
  /** The outcomes used and left out (null without `select` or an outcome column). */
  outcomes: OutcomeSelection | null;
}

/**
 * Parse and validate the responses table; also the file's sha256, and its simulated rows and
 * models (null without a `simulated` column).
 */
export function readInstrumentTable(
  file: string,
  select?: (t: Table) => { table: Table; selection: OutcomeSelection | null },
): InstrumentTable {
  const read = readTable(file);
  const { table: t, selection } = select ? select(read) : { table: read, selection: null };
  requireColumns(t, INSTRUMENT_COLUMNS, 'analyze instrument');
  const problems: Problem[] = [];
  const bad = (line: number, field: string, expected: string, got: string, fix: string) =>
    problems.push({
      code: 'E_ANALYZE_VALUE',
      severity: 'error',
      file,
      line,
      field,
      message: `bad ${field}`,
      expected,
      got: JSON.stringify(got),
      fix,
    });
  const hasIteration = t.columns.includes('iteration');
  const hasArm = t.columns.includes('arm');
  const rows: InstrumentRow[] = [];
  t.rows.forEach((r, i) => {
    const line = t.lines[i]!;
    for (const c of ['model', 'origin', 'topic', 'lang'] as const)
      if (r[c] === '') bad(line, c, 'a non-empty value', '', `fill in ${c}`);
    const framing = r.framing!;
    if (framing !== 'affirmative' && framing !== 'reverse')
      bad(line, 'framing', 'affirmative or reverse', framing, 'use the framing of the trial');
    const key = r.key!;
    if (key !== 'plus' && key !== 'minus')
      bad(
        line,
        'key',
        "plus or minus (the pole of the topic's affirmative)",
        key,
        "take it from the topic's affirmative_pole",
      );
    const s = r.score!;
    let score: number | null = null;
    if (s !== '') {
      score = Number(s);
      if (!Number.isInteger(score) || score < -2 || score > 2)
        bad(
          line,
          'score',
          'an integer from -2 to 2 (raw agreement before keying), or empty for missing',
          s,
          'score 0 for neutral, refusal or unparseable answers',
        );
    }
    rows.push({
      model: r.model!,
      origin: r.origin!,
      topic: r.topic!,
      lang: r.lang!,
      framing: framing as InstrumentRow['framing'],
      key: key as InstrumentRow['key'],
      score,
      ...(hasIteration ? { iteration: r.iteration! } : {}),
      ...(hasArm ? { arm: r.arm! } : {}),
    });
  });
  throwProblems('E_ANALYZE_VALUE', file, problems);
  const flags = simulatedFlags(t);
  return {
    file,
    sha256: t.sha256,
    rows,
    simulated: simulatedCount(flags),
    simulatedModels: simulatedValues(t, 'model', flags),
    outcomes: selection,
  };
}

/**
 * One row of a scores folder's `instrument.csv` as the analysis reads it, without validation (the
 * score stage wrote it): what `stimkit report` uses, so it reads the file as the CLI does.
 */
export function instrumentRowOf(r: Record<string, string>): InstrumentRow {
  return {
    model: r.model!,
    origin: r.origin || 'unknown',
    topic: r.topic!,
    lang: r.lang!,
    framing: r.framing as InstrumentRow['framing'],
    key: r.key as InstrumentRow['key'],
    score: r.score === '' || r.score === undefined ? null : Number(r.score),
    ...(r.iteration !== undefined ? { iteration: r.iteration } : {}),
    ...(r.arm !== undefined ? { arm: r.arm } : {}),
  };
}

/** A model of the table the analysis has no estimate for, and why. */
export interface AbsentModel {
  model: string;
  /** `no scored answer (model_refusal 72)`: its rows in the arm, by outcome (and empty scores by reason). */
  reason: string;
}

/**
 * The models of `raw` (the table before the outcome rule) in `arm` that `analysed` (the models
 * with an estimate) lacks: a model that refused everything, or answered only in a language
 * without instrument rules, is named with why rather than left out in silence.
 */
export function absentModels(
  raw: Pick<Table, 'columns' | 'rows'>,
  arm: string,
  analysed: ReadonlySet<string>,
): AbsentModel[] {
  const hasArm = raw.columns.includes('arm');
  const tallies = new Map<string, Map<string, number>>();
  for (const r of raw.rows) {
    const model = r.model ?? '';
    if (analysed.has(model) || (hasArm && (r.arm ?? '') !== arm)) continue;
    const outcome = r.outcome || 'unrecorded';
    const key =
      outcome === 'answer' || outcome === 'unrecorded'
        ? (r.score ?? '') === ''
          ? `${outcome} with an empty score: ${r.reason || 'no reason recorded'}`
          : outcome
        : outcome;
    const t = tallies.get(model) ?? new Map<string, number>();
    t.set(key, (t.get(key) ?? 0) + 1);
    tallies.set(model, t);
  }
  return [...tallies.keys()].sort().map((model) => ({
    model,
    reason: `no scored answer (${[...tallies.get(model)!]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')})`,
  }));
}
