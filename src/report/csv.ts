/**
 * The report's CSV files: each table as `tables/<id>.csv` with a `simulated` column (1 when the
 * row's numbers come from simulated input, else 0), and the data dictionary as
 * `tables/README.csv`. Text cells that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`,
 * tab, CR first) start with an apostrophe (src/core/csv.ts) unless `--csv-raw`; numbers are written as is;
 * the raw values of every chart are in its `charts/<id>.vl.json`.
 */
import { csvText, type CsvWriteOptions } from '../core/csv.js';
import type { Cell } from '../score/types.js';
import { DICTIONARY_COLUMNS, dictionaryRows } from './dictionary.js';
import type { ReportTable } from './types.js';

/** Whether a row of a table holds simulated numbers. */
export type RowSimulated = (table: ReportTable, row: readonly Cell[]) => boolean;

/** The columns of a table's CSV: its own, and `simulated` at the end when it has none. */
function csvColumns(t: ReportTable): string[] {
  return t.columns.includes('simulated') ? [...t.columns] : [...t.columns, 'simulated'];
}

/** A table as CSV text, with its `simulated` column (an existing one is rewritten as 1/0). */
export function tableCsv(
  t: ReportTable,
  simulated: RowSimulated,
  options: CsvWriteOptions = {},
): string {
  const own = t.columns.indexOf('simulated');
  const rows = t.rows.map((r) => {
    const flag = simulated(t, r) ? 1 : 0;
    return own >= 0 ? r.map((v, i) => (i === own ? flag : v)) : [...r, flag];
  });
  return csvText(csvColumns(t), rows, options);
}

/** tables/README.csv: what every column of every CSV means. */
export function dictionaryCsv(
  tables: Array<{ table: ReportTable; simulated: boolean }>,
  options: CsvWriteOptions = {},
): string {
  return csvText(
    DICTIONARY_COLUMNS,
    dictionaryRows(
      tables.map(({ table, simulated }) => ({ table: withCsvColumns(table), simulated })),
    ),
    options,
  );
}

const withCsvColumns = (t: ReportTable): ReportTable => ({ ...t, columns: csvColumns(t) });
