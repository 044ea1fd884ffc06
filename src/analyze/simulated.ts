/**
 * Simulated rows never pass for real findings: the tables score, label and run export write carry
 * a `simulated` column (1 on a row of simulated input), and every analyze result says how many of
 * the rows it used are simulated (`simulated: {rows, of}`, null when the table has no such
 * column), per model or group where its rows are per model or group, and in a SIMULATED line.
 */
import type { Problem } from '../core/errors.js';
import { column, throwProblems, type Table } from './table.js';

/** How many of the rows analysed are simulated. */
export interface SimulatedRows {
  rows: number;
  of: number;
}

/** Values of the column: 1/true simulated; 0/false or empty (not recorded) not. */
const VALUES: Record<string, boolean> = {
  '1': true,
  true: true,
  '0': false,
  false: false,
  '': false,
};

/** Whether each row is simulated (its `simulated` cell); null when the table has no such column. */
export function simulatedFlags(t: Table): boolean[] | null {
  const values = column(t, 'simulated');
  if (!values) return null;
  const problems: Problem[] = [];
  const flags = values.map((v, i) => {
    const flag = VALUES[v.toLowerCase()];
    if (flag === undefined)
      problems.push({
        code: 'E_ANALYZE_VALUE',
        severity: 'error',
        file: t.file,
        line: t.lines[i]!,
        field: 'simulated',
        message: 'bad simulated',
        expected: '1 (simulated) or 0 (true and false, or empty, also read)',
        got: JSON.stringify(v),
        fix: 'write 1 on rows of simulated input and 0 on the others',
      });
    return flag ?? false;
  });
  throwProblems('E_ANALYZE_VALUE', t.file, problems);
  return flags;
}

/** How many of the rows `flags` marks are simulated (null without the column). */
export function simulatedCount(flags: boolean[] | null): SimulatedRows | null {
  return flags && { rows: flags.filter(Boolean).length, of: flags.length };
}

/** The count of simulated rows of `t`, or null when it has no `simulated` column. */
export function simulatedRows(t: Table): SimulatedRows | null {
  return simulatedCount(simulatedFlags(t));
}

/**
 * The values of `by` on a simulated row (e.g. the simulated models), or null without the column;
 * `flags` as `simulatedFlags(t)` gives them.
 */
export function simulatedValues(t: Table, by: string, flags: boolean[] | null): Set<string> | null {
  const values = column(t, by);
  if (!flags || !values) return null;
  return new Set(values.filter((_, i) => flags[i]));
}

/** The human output's first line when some rows are simulated (else nothing). */
export function simulatedLine(s: SimulatedRows | null): string {
  if (!s || s.rows === 0) return '';
  return `SIMULATED: ${s.rows} of ${s.of} rows are simulated (the table's simulated column); these numbers are not evidence about real models.\n`;
}

/**
 * A per-model results table (a `model` column) with the `simulated` column every results table
 * carries (docs/formats/csv.md): 1 when every row of the model in `input` is simulated, 0 when
 * none is, empty when they are mixed or `input` has no such column.
 */
export function withSimulatedColumn<C>(
  out: { header: string[]; rows: Array<Array<C | number | null>> },
  input: Table,
): { header: string[]; rows: Array<Array<C | number | null>> } {
  const at = out.header.indexOf('model');
  if (out.header.includes('simulated') || at < 0) return out;
  const flags = simulatedFlags(input);
  const models = column(input, 'model') ?? [];
  const seen = new Map<string, Set<boolean>>();
  if (flags)
    flags.forEach((f, i) => {
      const m = models[i] ?? '';
      seen.set(m, (seen.get(m) ?? new Set()).add(f));
    });
  const flag = (m: unknown) => {
    const s = seen.get(String(m));
    return s?.size === 1 ? (s.has(true) ? 1 : 0) : null;
  };
  return {
    header: [...out.header, 'simulated'],
    rows: out.rows.map((r) => [...r, flag(r[at])]),
  };
}
