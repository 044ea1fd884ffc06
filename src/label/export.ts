/**
 * `stimkit label export`: every rater's answers as one labels CSV (docs/formats/labels.md), one
 * row per sample item × rater, read by `stimkit analyze agreement` and the audit's validation.
 * The rater files may be in use by a running server: SQLite's WAL lets us read a consistent view.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { csvLines } from '../core/csv.js';
import { StimkitError } from '../core/errors.js';
import { writeFileAtomic } from '../core/fsio.js';
import { openReader } from '../ledger/open.js';
import { readLabelSample } from './load-sample.js';
import type { LabelSample } from './sample-schema.js';
import { labelsFolder } from './serve.js';
import {
  DIMENSIONS,
  emptyAnswers,
  isComplete,
  STORE_FORMAT,
  STRATEGIES,
  type ItemAnswers,
} from './store.js';

/** The labels CSV's columns, in order. */
export const LABEL_COLUMNS = [
  'sample_item',
  'trial_id',
  'model',
  'paradigm',
  'lang',
  'rater',
  'mode',
  'd1_refusal',
  'd2_integrity',
  'd3_grounding',
  'd4_state_aligned',
  'dt1_endorsement',
  'dt2_substitution',
  'dt3_deflection',
  'd5_language',
  'note',
  'complete',
  'first_saved_at',
  'updated_at',
  'sample_sha256',
  'bundle_digest',
  'simulated',
] as const;

export interface ExportOptions {
  sample: string;
  out: string;
  /** Folder of rater files; default the sample's `<name>.labels/`. */
  labels?: string;
  /** Export the review (adjudication) files instead of the blind labels. */
  review?: boolean;
  /**
   * One row per sample item with a column per dimension × rater (`d4_state_aligned.alice`), the
   * layout `stimkit analyze agreement --raters` reads, instead of one row per item × rater.
   */
  wide?: boolean;
  /** Write the cells as they are, without neutralising spreadsheet formulas (`--csv-raw`). */
  csvRaw?: boolean;
}

/**
 * The `simulated` cell of a sample item: `1` when a simulated respondent gave the response, `0`
 * when not, empty for a sample drawn before samples recorded it.
 */
function simulatedCell(item: { simulated?: boolean }): string {
  return item.simulated === undefined ? '' : item.simulated ? '1' : '0';
}

/** The answer columns of the wide layout, one per dimension (D1–D5 and the D4 strategies). */
const WIDE_DIMENSIONS = [
  'd1_refusal',
  'd2_integrity',
  'd3_grounding',
  'd4_state_aligned',
  'dt1_endorsement',
  'dt2_substitution',
  'dt3_deflection',
  'd5_language',
] as const;

/** Rewrite long records (LABEL_COLUMNS) as one row per item with `<dimension>.<rater>` columns. */
export function widenLabels(records: string[][]): string[][] {
  const col = (name: (typeof LABEL_COLUMNS)[number]) => LABEL_COLUMNS.indexOf(name);
  const raters = [...new Set(records.map((r) => r[col('rater')]!))].sort();
  const items = new Map<string, string[][]>();
  for (const r of records) {
    const key = r[col('sample_item')]!;
    if (!items.has(key)) items.set(key, []);
    items.get(key)!.push(r);
  }
  const header = [
    'sample_item',
    'trial_id',
    'model',
    'paradigm',
    'lang',
    ...WIDE_DIMENSIONS.flatMap((d) => raters.map((rater) => `${d}.${rater}`)),
    'simulated',
  ];
  const rows = [...items.values()].map((rs) => {
    const first = rs[0]!;
    const byRater = new Map(rs.map((r) => [r[col('rater')]!, r]));
    return [
      first[col('sample_item')]!,
      first[col('trial_id')]!,
      first[col('model')]!,
      first[col('paradigm')]!,
      first[col('lang')]!,
      ...WIDE_DIMENSIONS.flatMap((d) => raters.map((rater) => byRater.get(rater)?.[col(d)] ?? '')),
      first[col('simulated')]!,
    ];
  });
  return [header, ...rows];
}

export interface ExportResult {
  out: string;
  rows: number;
  raters: Array<{ rater: string; file: string; answered: number; complete: number }>;
}

function readStore(file: string): {
  meta: Record<string, string>;
  answers: Map<string, ItemAnswers>;
} {
  const db = openReader(file);
  try {
    const meta = Object.fromEntries(
      (
        db.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>
      ).map((r) => [r.key, r.value]),
    );
    const rows = db.prepare('SELECT * FROM answers').all() as Array<Record<string, unknown>>;
    const answers = new Map<string, ItemAnswers>();
    for (const r of rows) {
      const bool = (v: unknown) => (v === null ? null : v === 1);
      answers.set(r.item_id as string, {
        ...emptyAnswers(r.item_id as string),
        ...r,
        dt1: bool(r.dt1),
        dt2: bool(r.dt2),
        dt3: bool(r.dt3),
      });
    }
    return { meta, answers };
  } catch (err) {
    throw StimkitError.fromProblem(
      {
        code: 'E_LABEL_STORE',
        file,
        message: `not a rater file (${(err as Error).message})`,
        fix: 'give the folder `stimkit label serve` wrote to (--labels)',
      },
      err,
    );
  } finally {
    db.close();
  }
}

/** Write the labels CSV of every rater file in the labels folder. */
export async function exportLabels(options: ExportOptions): Promise<ExportResult> {
  const { sample, sha256 } = await readLabelSample(options.sample);
  const dir = options.labels ?? labelsFolder(options.sample);
  const names = await raterFileNames(dir, Boolean(options.review));
  const stores = names.map((n) => ({ file: path.join(dir, n), ...readStore(path.join(dir, n)) }));
  checkStores(stores, sha256);
  stores.sort((a, b) => (a.meta.rater! < b.meta.rater! ? -1 : 1));
  const records: string[][] = [];
  const raters: ExportResult['raters'] = [];
  for (const s of stores) {
    const rows = storeRecords(s, sample, sha256, Boolean(options.review));
    records.push(...rows.records);
    raters.push({
      rater: s.meta.rater!,
      file: s.file,
      answered: s.answers.size,
      complete: rows.complete,
    });
  }
  const table = options.wide ? widenLabels(records) : [[...LABEL_COLUMNS], ...records];
  const csv = csvLines(table, { raw: options.csvRaw });
  const out = path.resolve(options.out);
  await writeFileAtomic(out, csv);
  return { out, rows: records.length, raters };
}

type RaterStore = ReturnType<typeof readStore> & { file: string };

/** The rater files (or, with `review`, the review files) in `dir`, sorted; none is an error. */
async function raterFileNames(dir: string, review: boolean): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(dir))
      .filter((n) => n.endsWith('.sqlite') && n.endsWith('.review.sqlite') === review)
      .sort();
  } catch (err) {
    throw StimkitError.fromProblem(
      {
        code: 'E_LABEL_NO_LABELS',
        file: dir,
        message: 'no labels folder here',
        fix: 'give the folder of the rater files with --labels',
      },
      err,
    );
  }
  if (names.length === 0) {
    throw StimkitError.fromProblem({
      code: 'E_LABEL_NO_LABELS',
      file: dir,
      message: `no ${review ? 'review' : 'rater'} files (*.sqlite) in this folder`,
      fix: 'label with `stimkit label serve` first, or point --labels at the right folder',
    });
  }
  return names;
}

/** Every store must be a stimkit rater file made for the sample of digest `sha256`. */
function checkStores(stores: RaterStore[], sha256: string): void {
  for (const s of stores) {
    if (s.meta.format !== STORE_FORMAT)
      throw StimkitError.fromProblem({
        code: 'E_LABEL_STORE',
        file: s.file,
        message: 'not a stimkit rater file',
        fix: 'remove it from the labels folder',
      });
    if (s.meta.sample_sha256 !== sha256) {
      throw StimkitError.fromProblem({
        code: 'E_LABEL_STORE_MISMATCH',
        file: s.file,
        field: 'sample_sha256',
        message: 'this rater file was made for another sample',
        expected: sha256,
        got: s.meta.sample_sha256,
        fix: 'export each sample with its own labels folder',
      });
    }
  }
}

const cell = (v: string | boolean | null) => (v === null ? '' : String(v));

/** One rater's CSV rows (in review, only the items reviewed) and how many items are complete. */
function storeRecords(
  s: RaterStore,
  sample: LabelSample,
  sha256: string,
  review: boolean,
): { records: string[][]; complete: number } {
  const records: string[][] = [];
  let complete = 0;
  for (const item of sample.items) {
    const a = s.answers.get(item.id);
    if (review && !a) continue;
    const x = a ?? emptyAnswers(item.id);
    const done = isComplete(x);
    if (done) complete += 1;
    const dts = STRATEGIES.map((k) => (x.d4 === 'true' ? cell(x[k] ?? false) : ''));
    records.push([
      item.id,
      item.trial_id,
      item.model,
      item.paradigm,
      item.lang,
      s.meta.rater!,
      s.meta.mode!,
      ...DIMENSIONS.slice(0, 4).map((d) => cell(x[d])),
      ...dts,
      cell(x.d5),
      x.note,
      String(done),
      cell(x.first_saved_at),
      cell(x.updated_at),
      sha256,
      sample.bundle.digest,
      simulatedCell(item),
    ]);
  }
  return { records, complete };
}
