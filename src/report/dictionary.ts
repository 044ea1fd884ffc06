/**
 * The report's data dictionary: for every column of every table, the header the page shows (in
 * words), what it means, its unit, and why a cell can be empty. The page prints it under each
 * table; `tables/README.csv` holds it for all tables. A table's own entry (`ReportTable.columnInfo`,
 * or the by-table lists in columns/) wins over the common one; a column nobody described gets its
 * name in words and "(not described)", which a test refuses for the sections stimkit ships.
 */
import { AUDIT_COLUMNS } from './columns/audit.js';
import { COMMON_COLUMNS } from './columns/common.js';
import { INSTRUMENT_COLUMNS } from './columns/instrument.js';
import { UNIT_WORDS, type Unit } from './format.js';
import type { ReportTable } from './types.js';

/** One column: header in words, unit, meaning, and (optional) why a cell can be empty. */
type ColumnDef = [label: string, unit: Unit, meaning: string, empty?: string];
/** Columns by name. */
export type ColumnDefs = Record<string, ColumnDef>;

/** A column of a table, described. */
export interface ColumnInfo {
  name: string;
  label: string;
  unit: Unit;
  meaning: string;
  empty: string | null;
  described: boolean;
}

const BY_TABLE: Record<string, ColumnDefs> = { ...INSTRUMENT_COLUMNS, ...AUDIT_COLUMNS };

/** What the page says for a column no one described. */
const NOT_DESCRIBED = '(not described)';

/**
 * The by-table entries for a table id: its own, or those of the longest listed id it starts with
 * (a variant of a table, e.g. `model-tests-pt-control` of `model-tests`).
 */
function tableColumns(id: string): ColumnDefs | undefined {
  if (BY_TABLE[id]) return BY_TABLE[id];
  const base = Object.keys(BY_TABLE)
    .filter((k) => id.startsWith(`${k}-`))
    .sort((a, b) => b.length - a.length)[0];
  return base === undefined ? undefined : BY_TABLE[base];
}

/** The description of column `name` of `table`. */
export function describeColumn(table: ReportTable, name: string): ColumnInfo {
  const def = table.columnInfo?.[name] ?? tableColumns(table.id)?.[name] ?? COMMON_COLUMNS[name];
  if (!def) {
    const words = name.replace(/_/g, ' ');
    return {
      name,
      label: words.charAt(0).toUpperCase() + words.slice(1),
      unit: 'text',
      meaning: NOT_DESCRIBED,
      empty: null,
      described: false,
    };
  }
  const [label, unit, meaning, empty] = def;
  return { name, label, unit, meaning, empty: empty ?? null, described: true };
}

/** Every column of a table, described. */
export function describeTable(table: ReportTable): ColumnInfo[] {
  return table.columns.map((c) => describeColumn(table, c));
}

/** The header of tables/README.csv. */
export const DICTIONARY_COLUMNS = [
  'table',
  'column',
  'header',
  'meaning',
  'unit',
  'empty_means',
  'simulated',
];

/** The rows of tables/README.csv: one per column of every table, in page order. */
export function dictionaryRows(
  tables: Array<{ table: ReportTable; simulated: boolean }>,
): Array<Array<string | number>> {
  return tables.flatMap(({ table, simulated }) =>
    describeTable(table).map((c) => [
      `${table.id}.csv`,
      c.name,
      c.label,
      c.meaning,
      UNIT_WORDS[c.unit],
      c.empty ?? '',
      simulated ? 1 : 0,
    ]),
  );
}
