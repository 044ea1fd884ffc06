/**
 * Read a CSV table for `stimkit analyze`: a header row, then one row per record. Every problem is
 * reported with the file, the 1-based line, the column, expected vs got and a fix.
 *
 * Parsed by the one CSV reader (core/csv.ts: csv-parse, cells a stimkit writer neutralised for
 * spreadsheets restored), fields trimmed and blank lines skipped; the line of every record comes
 * from a second parse with csv-parse's `info`, asked for only when a line number is needed, i.e.
 * for an error message (`info` triples the parse time), and right even when a quoted field spans
 * lines.
 *
 * Values are kept column by column (`data`, what the regressions read); the per-row objects of
 * `rows` are only built when something asks for them.
 */
import { readFileSync } from 'node:fs';
import { csvRecordLines, readCsvRecords, type CsvReadOptions } from '../core/csv.js';
import { StimkitError, type Problem } from '../core/errors.js';
import { sha256 } from '../core/fsio.js';

/** A parsed table: header names, values column by column, and rows keyed by header (all values are strings). */
export interface Table {
  file: string;
  /** sha256 of the file's bytes */
  sha256: string;
  columns: string[];
  /** `data[j][i]`: the value of `columns[j]` on row i (trimmed) */
  data: string[][];
  /** number of data rows */
  n: number;
  /** one object per row keyed by column (built on first access) */
  readonly rows: Record<string, string>[];
  /** 1-based line of each row in the file (its last line when a quoted field spans lines) */
  readonly lines: number[];
}

/** The values of one column of `t` (the table's own array: do not modify); undefined when absent. */
export function column(t: Table, name: string): string[] | undefined {
  const j = t.columns.indexOf(name);
  return j < 0 ? undefined : t.data[j];
}

/** A table built in memory from row objects (e.g. a scores CSV already read); lines default to 2, 3, … */
export function tableFromRows(
  file: string,
  sha256: string,
  columns: string[],
  rows: Record<string, string>[],
  lines: number[] = rows.map((_, i) => i + 2),
): Table {
  return {
    file,
    sha256,
    columns,
    data: columns.map((c) => rows.map((r) => r[c] ?? '')),
    n: rows.length,
    rows,
    lines,
  };
}

/** Read and parse `file`; a missing file, a bad CSV or an empty table is an error (exit 1). */
export function readTable(file: string): Table {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw StimkitError.fromProblem(
      {
        code: 'E_ANALYZE_READ',
        file,
        message: 'cannot read the table',
        got: (err as NodeJS.ErrnoException).code ?? String(err),
        fix: 'check the path',
      },
      err,
    );
  }
  const parsed = parseTable(file, text);
  const { columns, data, n } = parsed;
  if (!columns || n === 0) {
    throw StimkitError.fromProblem({
      code: 'E_ANALYZE_EMPTY',
      file,
      message: 'the table has no data rows',
      expected: 'a header line and at least one row',
      got: columns ? 'a header only' : 'an empty file',
      fix: 'export the table again',
    });
  }
  const dup = columns.find((c, i) => columns.indexOf(c) !== i);
  if (dup !== undefined) {
    throw StimkitError.fromProblem({
      code: 'E_ANALYZE_HEADER',
      file,
      line: parsed.headerLine,
      field: dup,
      message: 'a column name appears twice in the header',
      expected: 'unique column names',
      got: dup,
      fix: 'rename one of the columns',
    });
  }
  let rows: Record<string, string>[] | undefined;
  return {
    file,
    sha256: sha256(text),
    columns,
    data,
    n,
    get rows() {
      rows ??= Array.from({ length: n }, (_, i) => {
        // a plain loop: Object.fromEntries is ~20× slower on 20k rows
        const o: Record<string, string> = {};
        for (let j = 0; j < columns.length; j++) o[columns[j]!] = data[j]![i]!;
        return o;
      });
      return rows;
    },
    get lines() {
      return parsed.lines();
    },
  };
}

/** Require columns; all missing ones are reported at once. */
export function requireColumns(t: Table, needed: readonly string[], what: string): void {
  const missing = needed.filter((c) => !t.columns.includes(c));
  if (missing.length > 0) {
    const problems: Problem[] = missing.map((c) => ({
      code: 'E_ANALYZE_COLUMN',
      severity: 'error',
      file: t.file,
      line: 1,
      field: c,
      message: `${what} needs a column "${c}"`,
      expected: needed.join(', '),
      got: t.columns.join(', '),
      fix: `add the column "${c}" or name the right one in the flags`,
    }));
    throw new StimkitError(
      'E_ANALYZE_COLUMN',
      `${t.file}: missing column${missing.length > 1 ? 's' : ''} ${missing.map((c) => `"${c}"`).join(', ')} (header: ${t.columns.join(', ')})`,
      {
        fix: 'add the missing columns to the table, or name the columns it has in the flags',
        problems,
      },
    );
  }
}

/** Throw all problems at once, or nothing. */
export function throwProblems(code: string, file: string, problems: Problem[], max = 20): void {
  if (problems.length === 0) return;
  const shown = problems.slice(0, max);
  const more = problems.length > max ? ` (and ${problems.length - max} more)` : '';
  throw new StimkitError(
    code,
    `${file}: ${problems.length} bad value${problems.length > 1 ? 's' : ''}${more}`,
    { fix: 'correct the values listed below and rerun', problems: shown },
  );
}

/** What a parser returns: the header, the values column by column, the line of each data row. */
interface Parsed {
  columns: string[] | undefined;
  headerLine: number;
  data: string[][];
  n: number;
  /** line of each data row, computed on first call */
  lines: () => number[];
}

const READ: CsvReadOptions = { trim: true, skipEmpty: true, ragged: false };

/** Columns of `records` (after the header), each repeated value one shared string (less to keep alive). */
function toColumns(width: number, body: string[][]): string[][] {
  const data: string[][] = Array.from({ length: width }, () => []);
  const interned = data.map(() => new Map<string, string>());
  for (const r of body) {
    for (let j = 0; j < width; j++) {
      const v = r[j] ?? '';
      const seen = interned[j]!.get(v);
      if (seen === undefined) interned[j]!.set(v, v);
      data[j]!.push(seen ?? v);
    }
  }
  return data;
}

/** Parse the text; the line of every record from a second parse, when first asked for. */
function parseTable(file: string, text: string): Parsed {
  let records: string[][];
  try {
    records = readCsvRecords(text, READ);
  } catch (err) {
    const e = err as { code?: string; lines?: number; message: string };
    throw StimkitError.fromProblem(
      {
        code: 'E_ANALYZE_CSV',
        file,
        line: e.lines,
        message: `not a valid CSV table: ${e.message.replace(/^Invalid Record Length: /, '')}`,
        expected: 'comma-separated values with the same number of fields on every line',
        got: e.code ?? 'a parse error',
        fix: 'quote fields that contain commas or quotes, and give every row as many fields as the header',
      },
      err,
    );
  }
  const [header, ...body] = records;
  let lines: number[] | undefined;
  let headerLine: number | undefined;
  const withInfo = () => {
    const info = csvRecordLines(text, READ);
    headerLine = info[0] ?? 0;
    lines = info.slice(1);
  };
  return {
    columns: header,
    get headerLine() {
      if (headerLine === undefined) withInfo();
      return headerLine!;
    },
    data: toColumns(header?.length ?? 0, body),
    n: body.length,
    lines: () => {
      if (lines === undefined) withInfo();
      return lines!;
    },
  };
}
