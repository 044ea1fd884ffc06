/**
 * Writing a scores folder's files: `scores.jsonl` and every CSV table, appended group by group as
 * the scores come (a study's scores are never held whole), each with its row count and sha256
 * for `score.json`. The folder is swapped in whole (core/out-folder.ts), so what it may replace
 * is said here too.
 */
import path from 'node:path';
import { csvLines, type CsvWriteOptions } from '../core/csv.js';
import { openSink, type FileSink } from '../core/fsio.js';
import { headeredFolder, type OutFolderSpec } from '../core/out-folder.js';
import { COST_FILE } from './cost.js';
import { SCORES_FILES, SCORES_FORMAT, type ScoresHeader } from './format.js';
import { tablesOf } from './registry.js';
import type { Cell, CsvTable, GroupedTables, ParadigmScorer, TableRow } from './types.js';

/** A grouped table's header (types.ts). */
type GroupedTable = GroupedTables['tables'][number];

/**
 * Files a scores folder may hold besides those its scorers write: `stimkit validate` adds
 * validation.json, the audit's scorer (given by the command) writes audit.csv, judges.csv and
 * reasoning.csv, and
 * a scored ledger gets cost.csv.
 */
const EXTRA = ['validation.json', 'audit.csv', 'judges.csv', 'reasoning.csv', COST_FILE];

/** What `stimkit score` may replace: a scores folder (score.json and the files it lists). */
export function scoresFolder(scorers: readonly ParadigmScorer[]): OutFolderSpec {
  return headeredFolder({
    command: 'score',
    header: { file: SCORES_FILES.header, format: SCORES_FORMAT },
    names: [
      SCORES_FILES.records,
      ...EXTRA,
      ...tablesOf(scorers).map((t) => t.file),
      ...scorers.flatMap((s) => s.grouped?.tables.map((t) => t.file) ?? []),
    ],
  });
}

/**
 * Writes `scores.jsonl` and every table as sorted rows come, group by group: each table's file is
 * opened with its first row (a table of `all` paradigms is written even without rows, and so is
 * each grouped table in `grouped`: those of the scorers that have something to read here).
 */
export class ScoreWriter {
  private readonly tables: CsvTable[];
  private readonly sinks = new Map<string, { sink: FileSink; rows: number }>();
  private readonly extra: string[] = [];

  constructor(
    private readonly dir: string,
    scorers: readonly ParadigmScorer[],
    private readonly csv: CsvWriteOptions,
    private readonly grouped: readonly GroupedTable[] = [],
  ) {
    this.tables = tablesOf(scorers);
  }

  private async sink(file: string, header?: { columns: ReadonlyArray<{ name: string }> }) {
    let s = this.sinks.get(file);
    if (!s) {
      s = { sink: await openSink(path.join(this.dir, file)), rows: 0 };
      this.sinks.set(file, s);
      if (header) await s.sink.write(csvLines([header.columns.map((c) => c.name)], this.csv));
    }
    return s;
  }

  /** Append a grouped table's rows of one group (cells in column order, in their final order). */
  async addGrouped(file: string, cells: readonly Cell[][]): Promise<void> {
    const table = this.grouped.find((t) => t.file === file)!;
    const t = await this.sink(file, table);
    for (let i = 0; i < cells.length; i += PIECE) {
      await t.sink.write(csvLines(cells.slice(i, i + PIECE), this.csv));
      t.rows += Math.min(PIECE, cells.length - i);
    }
  }

  /** Append `rows` (already in their final order) to every file they belong to. */
  async add(rows: readonly TableRow[]): Promise<void> {
    const records = await this.sink(SCORES_FILES.records);
    for (let i = 0; i < rows.length; i += PIECE) {
      const piece = rows.slice(i, i + PIECE);
      await records.sink.write(piece.map((r) => `${JSON.stringify(r.record)}\n`).join(''));
      records.rows += piece.length;
      for (const table of this.tables) {
        const mine = rowsOf(table, piece);
        if (mine.length === 0) continue;
        const t = await this.sink(table.file, table);
        await t.sink.write(
          csvLines(
            mine.map((r) => table.columns.map((col) => col.value(r))),
            this.csv,
          ),
        );
        t.rows += mine.length;
      }
    }
  }

  /** Write a small whole file (e.g. cost.csv) that `score.json` lists after the tables. */
  async addFile(file: string, text: string, rows: number): Promise<void> {
    const s = await this.sink(file);
    await s.sink.write(text);
    s.rows = rows;
    this.extra.push(file);
  }

  /** Close every file; what `score.json` lists about them, in the order they are listed. */
  async finish(): Promise<ScoresHeader['files']> {
    await this.sink(SCORES_FILES.records);
    for (const table of this.tables)
      if (table.paradigms === 'all') await this.sink(table.file, table);
    for (const table of this.grouped) await this.sink(table.file, table);
    const files: ScoresHeader['files'] = [];
    const written = [...this.tables, ...this.grouped].map((t) => t.file);
    for (const file of [SCORES_FILES.records, ...written, ...this.extra]) {
      const s = this.sinks.get(file);
      if (s) files.push({ file, rows: s.rows, sha256: (await s.sink.close()).sha256 });
    }
    return files;
  }
}

/** Rows per written piece. */
const PIECE = 2000;

/** The rows of `piece` that belong in `table`. */
function rowsOf(table: CsvTable, piece: readonly TableRow[]): readonly TableRow[] {
  if (table.paradigms === 'all') return piece;
  const paradigms = table.paradigms;
  return piece.filter((r) => paradigms.includes(r.trial.paradigm));
}
