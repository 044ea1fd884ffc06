/**
 * CSV cells that a spreadsheet would run as a formula (OWASP's CSV-injection rule): a text cell
 * starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading apostrophe, so
 * Excel, LibreOffice and Google Sheets show it as text. A cell that is a plain number (`-0.25`,
 * `+3`, `1e-5`) is left as is. Only text meant for spreadsheets goes through this; JSON and
 * JSONL files keep the raw text.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** `text` as a spreadsheet shows it literally: `'=HYPERLINK(…)` for `=HYPERLINK(…)`. */
export function spreadsheetSafe(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}
