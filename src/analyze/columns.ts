/**
 * Column checks shared by the analyze commands: values that must be present, 0/1 or numeric,
 * each failure reported with file, line, column, expected vs got and a fix.
 */
import type { Problem } from '../core/errors.js';
import { column, requireColumns, throwProblems, type Table } from './table.js';

/** Every listed column present and non-empty on every row. */
export function requireFilled(t: Table, columns: readonly string[], what: string): void {
  requireColumns(t, columns, what);
  const problems: Problem[] = [];
  const values = columns.map((c) => column(t, c)!);
  const outcome = column(t, 'outcome');
  // a row of a scores table whose outcome leaves the column empty is for --outcomes, not to fill
  const remedy = (c: string, i: number) =>
    outcome && outcome[i] && outcome[i] !== 'answer'
      ? `this row's outcome is ${outcome[i]}, which leaves "${c}" empty: choose the rows with --outcomes (e.g. --outcomes answer), or --complete`
      : `fill in "${c}" or drop the row (or --complete: only the rows with every value)`;
  for (let i = 0; i < t.n; i++) {
    for (let j = 0; j < columns.length; j++) {
      const c = columns[j]!;
      if (values[j]![i] === '')
        problems.push({
          code: 'E_ANALYZE_VALUE',
          severity: 'error',
          file: t.file,
          line: t.lines[i],
          field: c,
          message: `empty value in column "${c}"`,
          expected: 'a value',
          got: 'an empty cell',
          fix: remedy(c, i),
        });
    }
  }
  throwProblems('E_ANALYZE_VALUE', t.file, problems);
}

/**
 * The complete cases: the rows with a value in every listed column (e.g. `audit.csv` without the
 * responses a judge could not label), and how many were dropped.
 */
export function completeRows(
  t: Table,
  columns: readonly string[],
  what: string,
): { table: Table; dropped: number } {
  requireColumns(t, columns, what);
  const used = columns.map((c) => column(t, c)!);
  const keep: number[] = [];
  for (let i = 0; i < t.n; i++) if (used.every((v) => (v[i] ?? '') !== '')) keep.push(i);
  if (keep.length === t.n) return { table: t, dropped: 0 };
  const table: Table = {
    file: t.file,
    sha256: t.sha256,
    columns: t.columns,
    data: t.data.map((v) => keep.map((i) => v[i]!)),
    n: keep.length,
    get rows() {
      return keep.map((i) => t.rows[i]!);
    },
    get lines() {
      return keep.map((i) => t.lines[i]!);
    },
  };
  return { table, dropped: t.n - keep.length };
}

/** The column as numbers; with `binary`, only 0 and 1 are accepted. */
export function numericColumn(t: Table, name: string, binary: boolean): number[] {
  const problems: Problem[] = [];
  const values = column(t, name) ?? [];
  const out = Array.from({ length: t.n }, (_, i) => {
    const raw = values[i] ?? '';
    const v = raw.trim() === '' ? Number.NaN : Number(raw);
    const ok = binary ? v === 0 || v === 1 : Number.isFinite(v);
    if (!ok) {
      problems.push({
        code: 'E_ANALYZE_VALUE',
        severity: 'error',
        file: t.file,
        line: t.lines[i],
        field: name,
        message: `column "${name}" must be ${binary ? '0 or 1' : 'numeric'}`,
        expected: binary ? '0 or 1' : 'a number',
        got: JSON.stringify(raw),
        fix: binary ? `recode "${name}" as 0/1 (1 = the event)` : `recode "${name}" as numbers`,
      });
    }
    return v;
  });
  throwProblems('E_ANALYZE_VALUE', t.file, problems);
  return out;
}
