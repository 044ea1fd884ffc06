/**
 * CSV writing (RFC 4180): comma-separated, a header line, fields quoted when they hold a comma,
 * quote, CR or LF (quotes doubled), LF line ends, UTF-8 without BOM. Numbers are written in
 * JavaScript's shortest round-trip form; null is an empty field; booleans are `true`/`false`.
 */
import type { Cell } from './types.js';

/** One CSV field. */
export function csvField(value: Cell): string {
  if (value === null) return '';
  const s =
    typeof value === 'number' ? (Object.is(value, -0) ? '0' : String(value)) : String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A whole CSV document from a header and rows. */
export function csvText(header: readonly string[], rows: Iterable<readonly Cell[]>): string {
  const out = [header.map(csvField).join(',')];
  for (const row of rows) out.push(row.map(csvField).join(','));
  return `${out.join('\n')}\n`;
}

/** Parse a CSV document written by `csvText` (or any RFC 4180 file) into header and rows of strings. */
export function parseCsv(text: string): { header: string[]; rows: string[][] } {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  while (i < t.length) {
    const c = t[i]!;
    if (quoted) {
      if (c === '"') {
        if (t[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += c;
      i++;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && t[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
    i++;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  const [header = [], ...body] = rows;
  return { header, rows: body };
}
