/**
 * Column checks shared by the analyze commands: values that must be present, 0/1 or numeric,
 * each failure reported with file, line, column, expected vs got and a fix.
 */
import type { Problem } from '../core/errors.js';
import { requireColumns, throwProblems, type Table } from './table.js';

/** Every listed column present and non-empty on every row. */
export function requireFilled(t: Table, columns: readonly string[], what: string): void {
  requireColumns(t, columns, what);
  const problems: Problem[] = [];
  t.rows.forEach((r, i) => {
    for (const c of columns) {
      if (r[c] === '') problems.push({ code: 'E_ANALYZE_VALUE', severity: 'error', file: t.file, line: t.lines[i], field: c, message: `empty value in column "${c}"`, expected: 'a value', got: 'an empty cell', fix: `fill in "${c}" or drop the row` });
    }
  });
  throwProblems('E_ANALYZE_VALUE', t.file, problems);
}

/**
 * The complete cases: the rows with a value in every listed column (e.g. `audit.csv` without the
 * responses a judge could not label), and how many were dropped.
 */
export function completeRows(t: Table, columns: readonly string[], what: string): { table: Table; dropped: number } {
  requireColumns(t, columns, what);
  const keep = t.rows.map((r) => columns.every((c) => (r[c] ?? '') !== ''));
  const table = { ...t, rows: t.rows.filter((_, i) => keep[i]), lines: t.lines.filter((_, i) => keep[i]) };
  return { table, dropped: t.rows.length - table.rows.length };
}

/** The column as numbers; with `binary`, only 0 and 1 are accepted. */
export function numericColumn(t: Table, column: string, binary: boolean): number[] {
  const problems: Problem[] = [];
  const out = t.rows.map((r, i) => {
    const raw = r[column] ?? '';
    const v = raw.trim() === '' ? Number.NaN : Number(raw);
    const ok = binary ? v === 0 || v === 1 : Number.isFinite(v);
    if (!ok) {
      problems.push({
        code: 'E_ANALYZE_VALUE',
        severity: 'error',
        file: t.file,
        line: t.lines[i],
        field: column,
        message: `column "${column}" must be ${binary ? '0 or 1' : 'numeric'}`,
        expected: binary ? '0 or 1' : 'a number',
        got: JSON.stringify(raw),
        fix: binary ? `recode "${column}" as 0/1 (1 = the event)` : `recode "${column}" as numbers`,
      });
    }
    return v;
  });
  throwProblems('E_ANALYZE_VALUE', t.file, problems);
  return out;
}
