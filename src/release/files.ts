/** A table written as CSV and as Parquet (hyparquet-writer), the same rows in the same order. */
import { parquetWriteBuffer } from 'hyparquet-writer';
import { csvText } from '../core/csv.js';
import { TOOL } from '../core/tool.js';
import type { ColumnType, Table } from './tables.js';

const PARQUET_TYPE: Record<ColumnType, 'STRING' | 'INT32' | 'DOUBLE' | 'BOOLEAN'> = {
  string: 'STRING',
  int: 'INT32',
  float: 'DOUBLE',
  bool: 'BOOLEAN',
};

/** The table as CSV text (csv.md conventions; empty cell = null). */
export function tableCsv(t: Table): string {
  return csvText(
    t.columns.map((c) => c.name),
    t.rows,
  );
}

/** The table as Parquet bytes: one column per table column, nullable, no clock in the file. */
export function tableParquet(t: Table): Uint8Array {
  const buffer = parquetWriteBuffer({
    columnData: t.columns.map((c, i) => ({
      name: c.name,
      type: PARQUET_TYPE[c.type],
      data: t.rows.map((r) => r[i] ?? null),
    })),
    createdBy: `${TOOL.name} ${TOOL.version}`,
  });
  return new Uint8Array(buffer);
}
