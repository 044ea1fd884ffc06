/**
 * The one CSV module: every CSV stimkit writes goes through csv-stringify, every CSV it reads
 * through csv-parse. RFC 4180: comma-separated, a header line, a field quoted when it holds a
 * comma, quote, CR or LF (quotes doubled), LF line ends unless asked for CRLF, UTF-8 without BOM.
 * Numbers are written in JavaScript's shortest round-trip form (−0 as `0`), null as an empty
 * field, booleans as `true` / `false`.
 *
 * Spreadsheet safety (OWASP's CSV-injection rule): a text cell a spreadsheet would run as a
 * formula (one starting with `=`, `+`, `-`, `@`, a tab or CR, or their full-width forms) is
 * written with a leading `'`, which spreadsheets show as text. A cell that is a plain decimal
 * number (`-2`, `+0.5`, `-1e-3`) is a number, not a formula, and is written as it is. A text that
 * already starts with `'`s before such a character gets one more, so reading strips exactly one
 * `'` and gives back the text written: `readCsv` does. `{ raw: true }` writes every cell as it is.
 *
 * @example
 * csvText(['model', 'note'], [['m', '=HYPERLINK("x")'], ['m', -2]]);
 * // 'model,note\nm,"\'=HYPERLINK(""x"")"\nm,-2\n'
 */
import { parse, type Options as ParseOptions } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';

/** A CSV cell value; null (and undefined) is written as an empty cell. */
export type Cell = string | number | boolean | null | undefined;

/** How to write a CSV. */
export interface CsvWriteOptions {
  /** Write text cells as they are, without neutralising formulas (`--csv-raw`). Default false. */
  raw?: boolean;
  /** Line end; default `\n`. */
  eol?: '\n' | '\r\n';
}

/** Characters that make a spreadsheet read a cell as a formula (ASCII and full-width forms). */
const TRIGGER = '=+\\-@\\t\\r\\uFF1D\\uFF0B\\uFF0D\\uFF20';
const NEEDS_GUARD = new RegExp(`^'*[${TRIGGER}]`);
const GUARDED = new RegExp(`^'+[${TRIGGER}]`);
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A text cell made safe to open in a spreadsheet (see the module comment); numbers pass as they are. */
export function neutralizeCell(text: string): string {
  return NEEDS_GUARD.test(text) && !DECIMAL.test(text) ? `'${text}` : text;
}

/** The text `neutralizeCell` was given: one leading `'` before a formula character removed. */
export function restoreCell(cell: string): string {
  return cell.charCodeAt(0) === 39 && GUARDED.test(cell) ? cell.slice(1) : cell;
}

function stringifyOptions(o: CsvWriteOptions) {
  const text = o.raw ? (s: string) => s : neutralizeCell;
  return {
    record_delimiter: o.eol === '\r\n' ? ('windows' as const) : ('unix' as const),
    cast: {
      boolean: (v: boolean) => (v ? 'true' : 'false'),
      number: (v: number) => (Object.is(v, -0) ? '0' : String(v)),
      string: text,
    },
  };
}

/** CSV lines (each ending in the line end) for `rows`; no header is added. */
export function csvLines(
  rows: readonly (readonly Cell[])[],
  options: CsvWriteOptions = {},
): string {
  if (rows.length === 0) return '';
  return stringify(rows as Cell[][], stringifyOptions(options));
}

/** A whole CSV document from a header and rows. */
export function csvText(
  header: readonly string[],
  rows: Iterable<readonly Cell[]>,
  options: CsvWriteOptions = {},
): string {
  return csvLines([header, ...rows], options);
}

/** One CSV field, quoted and neutralised as `csvText` writes it (no line end). */
export function csvField(value: Cell, options: CsvWriteOptions = {}): string {
  return csvLines([[value]], options).replace(/\r?\n$/, '');
}

/** How to read a CSV. */
export interface CsvReadOptions {
  /** Trim white space around fields. Default false. */
  trim?: boolean;
  /** Skip blank lines. Default true. */
  skipEmpty?: boolean;
  /** Accept rows with another number of fields than the header. Default true. */
  ragged?: boolean;
  /** Keep a leading `'` that the writer added (see the module comment). Default false. */
  raw?: boolean;
}

function parseOptions(o: CsvReadOptions): ParseOptions {
  return {
    bom: true,
    trim: o.trim ?? false,
    skip_empty_lines: o.skipEmpty ?? true,
    relax_column_count: o.ragged ?? true,
  };
}

/**
 * Every record of a CSV text as arrays of strings (header included), neutralised cells restored.
 * Throws csv-parse's error (with `lines`, the 1-based line it stopped at) on a malformed file.
 */
export function readCsvRecords(text: string, options: CsvReadOptions = {}): string[][] {
  const records = parse(text, parseOptions(options));
  if (!options.raw)
    for (const r of records) for (let j = 0; j < r.length; j++) r[j] = restoreCell(r[j]!);
  return records;
}

/** The 1-based line each record of `text` ends on (header included), as `readCsvRecords` reads it. */
export function csvRecordLines(text: string, options: CsvReadOptions = {}): number[] {
  return (
    parse(text, { ...parseOptions(options), info: true }) as unknown as Array<{
      info: { lines: number };
    }>
  ).map((r) => r.info.lines);
}

/** A CSV text as its header and rows of strings (neutralised cells restored). */
export function parseCsv(
  text: string,
  options: CsvReadOptions = {},
): { header: string[]; rows: string[][] } {
  const [header = [], ...rows] = readCsvRecords(text, options);
  return { header, rows };
}

/** A CSV text as one object per row keyed by the header (missing fields are empty strings). */
export function readCsvObjects(
  text: string,
  options: CsvReadOptions = {},
): Array<Record<string, string>> {
  const { header, rows } = parseCsv(text, options);
  return rows.map((r) => {
    const o: Record<string, string> = {};
    for (let j = 0; j < header.length; j++) o[header[j]!] = r[j] ?? '';
    return o;
  });
}
