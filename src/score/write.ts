/**
 * Writing a scores folder's files: `scores.jsonl` and every CSV table, streamed in pieces (a
 * study's scores are never held as one text), each with its row count and sha256 for
 * `score.json`. The folder is swapped in whole (core/out-folder.ts), so what it may replace is
 * said here too.
 */
import path from 'node:path';
import { csvLines, type CsvWriteOptions } from '../core/csv.js';
import { writeChunks } from '../core/fsio.js';
import { headeredFolder, type OutFolderSpec } from '../core/out-folder.js';
import { SCORES_FILES, SCORES_FORMAT, type ScoresHeader } from './format.js';
import { tablesOf } from './registry.js';
import type { CsvTable, ParadigmScorer, TableRow } from './types.js';

/** Rows per written piece. */
const PIECE = 2000;

/**
 * Files a scores folder may hold besides those its scorers write: `stimkit validate` adds
 * validation.json, and the audit's scorer (given by the command) writes audit.csv and judges.csv.
 */
const EXTRA = ['validation.json', 'audit.csv', 'judges.csv'];

/** What `stimkit score` may replace: a scores folder (score.json and the files it lists). */
export function scoresFolder(scorers: readonly ParadigmScorer[]): OutFolderSpec {
  return headeredFolder({
    command: 'score',
    header: { file: SCORES_FILES.header, format: SCORES_FORMAT },
    names: [SCORES_FILES.records, ...EXTRA, ...tablesOf(scorers).map((t) => t.file)],
  });
}

function* pieces<T>(items: readonly T[], line: (chunk: readonly T[]) => string): Generator<string> {
  for (let i = 0; i < items.length; i += PIECE) yield line(items.slice(i, i + PIECE));
}

/** The rows of `table`, or null when it has none and is written only for its paradigms. */
function rowsOf(table: CsvTable, rows: readonly TableRow[]): readonly TableRow[] | null {
  if (table.paradigms === 'all') return rows;
  const paradigms = table.paradigms as readonly string[];
  const mine = rows.filter((r) => paradigms.includes(r.trial.paradigm));
  return mine.length === 0 ? null : mine;
}

/** Write `scores.jsonl` and the tables into `dir`; what `score.json` lists about them. */
export async function writeScoreFiles(
  dir: string,
  rows: readonly TableRow[],
  scorers: readonly ParadigmScorer[],
  csv: CsvWriteOptions,
): Promise<ScoresHeader['files']> {
  const files: ScoresHeader['files'] = [];
  const records = await writeChunks(
    path.join(dir, SCORES_FILES.records),
    pieces(rows, (c) => c.map((r) => `${JSON.stringify(r.record)}\n`).join('')),
  );
  files.push({ file: SCORES_FILES.records, rows: rows.length, sha256: records.sha256 });
  for (const table of tablesOf(scorers)) {
    const mine = rowsOf(table, rows);
    if (!mine) continue;
    const text = function* () {
      yield csvLines([table.columns.map((c) => c.name)], csv);
      yield* pieces(mine, (c) =>
        csvLines(
          c.map((r) => table.columns.map((col) => col.value(r))),
          csv,
        ),
      );
    };
    const written = await writeChunks(path.join(dir, table.file), text());
    files.push({ file: table.file, rows: mine.length, sha256: written.sha256 });
  }
  return files;
}
