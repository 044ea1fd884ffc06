/**
 * The release's four record sets as typed tables: stimuli (one row per image of the bundle, with
 * its licence and whether it ships), responses (the ledger's final results of the scored run,
 * with `stimulus_available`), scores (the scores folder's trials.csv) and ratings (human labels,
 * `--labels DIR`'s labels.csv). The same table is written as CSV and Parquet and described in
 * croissant.json and the dataset card.
 */
import type { BundleEntry, BundleVariant } from '../bundle/payload-schemas.js';
import { parseCsv } from '../core/csv.js';
import type { LedgerResult } from '../ledger/read.js';
import { licenceRule, ships } from './licences.js';

/** A column's type, as CSV text, Parquet type and Croissant dataType say it. */
export type ColumnType = 'string' | 'int' | 'float' | 'bool';
type Value = string | number | boolean | null;

/** One column of a record set. */
interface Column {
  name: string;
  type: ColumnType;
  description: string;
}

/** A record set: its name (file stem and Croissant id), what it is, columns and rows. */
export interface Table {
  name: 'stimuli' | 'responses' | 'scores' | 'ratings';
  description: string;
  /** The column that identifies a row (Croissant `key`), when one does. */
  key: string[];
  columns: Column[];
  rows: Value[][];
}

const col = (name: string, type: ColumnType, description: string): Column => ({
  name,
  type,
  description,
});

/**
 * Stimuli: one row per bundle image of each entry; `phash` of the bundle's bytes. `shipped`: the
 * images the release ships (an entry whose licence allows it may still show bytes another entry's
 * licence withholds: the row then says so).
 */
export function stimuliTable(
  entries: ReadonlyMap<string, BundleEntry>,
  variants: readonly BundleVariant[],
  phash: ReadonlyMap<string, string>,
  shipped: ReadonlySet<string>,
): Table {
  const rows = variants.map((v): Value[] => {
    const e = entries.get(v.entry);
    const own = licenceRule(e?.provenance?.license);
    const ok = shipped.has(v.sha256);
    const rule =
      ships(own) && !ok
        ? {
            decision: 'no' as const,
            note: `withheld: the same image is also shown as another entry's (${variants
              .filter((w) => w.sha256 === v.sha256 && w.entry !== v.entry)
              .map((w) => w.entry)
              .join(', ')}), whose licence forbids redistribution`,
          }
        : own;
    return [
      v.sha256,
      v.entry,
      v.code,
      v.name,
      v.width,
      v.height,
      ok ? `images/${v.sha256}.png` : null,
      ok,
      e?.provenance?.license ?? null,
      rule.decision,
      rule.note,
      e?.provenance?.credit ?? null,
      e?.provenance?.archive ?? null,
      e?.provenance?.source_url ?? null,
      e?.image?.sha256 ?? null,
      phash.get(v.sha256) ?? null,
      JSON.stringify(v.params),
    ];
  });
  return {
    name: 'stimuli',
    description:
      'One row per image the sealed bundle shows (every variant of every entry), with its licence and whether the release ships it',
    key: ['entry', 'variant'],
    columns: [
      col('sha256', 'string', 'sha256 of the image bytes (the PNG the models were shown)'),
      col('entry', 'string', 'corpus entry id'),
      col('variant', 'string', 'abstraction variant code A0 (original) … A6 (silhouette)'),
      col('variant_name', 'string', 'the variant’s name (original, crop, …)'),
      col('width', 'int', 'width in pixels'),
      col('height', 'int', 'height in pixels'),
      col('file', 'string', 'the image in the release; empty when its licence withholds it'),
      col('available', 'bool', 'whether the image ships (else: rehydrate it from your own copy)'),
      col('license', 'string', 'the source image’s licence as its provenance gives it'),
      col('license_decision', 'string', 'yes, conditions or no (docs/release-licences.md)'),
      col('license_note', 'string', 'what the licence asks, or why the image is withheld'),
      col('credit', 'string', 'who to credit'),
      col('archive', 'string', 'the archive the source image came from'),
      col('source_url', 'string', 'where the source image can be obtained'),
      col('source_sha256', 'string', 'sha256 of the source image file (your copy must match it)'),
      col('phash', 'string', '64-bit DCT perceptual hash of the image (16 hex digits)'),
      col('recipe', 'string', 'the variant’s resolved parameters (JSON), with the bundle recipe'),
    ],
    rows,
  };
}

/** Responses: the final result of every trial × model of the scored run. */
export function responsesTable(
  results: Iterable<LedgerResult>,
  imagesOf: (trialId: string) => string[],
  available: (sha: string) => boolean,
): Table {
  const rows: Value[][] = [];
  for (const r of results) {
    const imgs = imagesOf(r.trial_id);
    const t = r.trial;
    rows.push([
      r.trial_id,
      r.model,
      t.paradigm,
      t.lang,
      t.entry,
      t.variant,
      t.topic,
      t.framing,
      t.iteration,
      t.seed,
      imgs.join('|'),
      imgs.every(available),
      r.outcome,
      r.text,
      r.finish_reason,
      r.route,
      r.simulated,
    ]);
  }
  return {
    name: 'responses',
    description:
      'The final response of every trial × model of the scored run (from the run ledger)',
    key: ['trial_id', 'model'],
    columns: [
      col('trial_id', 'string', 'trial id in the sealed bundle'),
      col('model', 'string', 'model name'),
      col('paradigm', 'string', 'trial paradigm'),
      col('lang', 'string', 'prompt language'),
      col('entry', 'string', 'corpus entry (VLM trials)'),
      col('variant', 'string', 'image variant (VLM trials)'),
      col('topic', 'string', 'instrument topic'),
      col('framing', 'string', 'instrument framing'),
      col('iteration', 'int', 'instrument iteration'),
      col('seed', 'int', 'replication seed (VLM trials)'),
      col(
        'images',
        'string',
        'sha256 of each image the trial showed, | separated (empty: text only)',
      ),
      col(
        'stimulus_available',
        'bool',
        'whether every image the trial showed ships in the release',
      ),
      col('outcome', 'string', 'answer, provider_block, model_refusal, suppressed, length, failed'),
      col('response_text', 'string', 'the reply (empty when the model gave none: see outcome)'),
      col('finish_reason', 'string', 'the reply’s finish reason'),
      col('route', 'string', 'the serving route that answered'),
      col('simulated', 'bool', 'a simulated respondent produced the reply'),
    ],
    rows,
  };
}

const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * The columns of trials.csv that are numbers (docs/formats/trials-csv.md): every other column is
 * text, whatever its cells look like, so that an id of digits (`0042`, a topic `2024`) stays the
 * text the other tables join on and a text column empty in one study keeps its type.
 */
export const TRIALS_NUMERIC: ReadonlySet<string> = new Set([
  'seed',
  'iteration',
  'score',
  'stance',
  'simulated',
  'china_origin',
  'd1_refusal',
  'd1_refusal_lexical',
  'd1_provider_block',
  'd1_suppressed',
  'd1_said_no',
  'd1_said_no_lexical',
  'marker_flag',
  'd2_integrity',
  'd3_grounded',
  'd4_state_aligned',
  'd5_language_consistent',
  'd5_language_auto',
  'd5_share',
  'd6_length_raw',
  'd6_length_markdown',
  'd6_length_clean',
  'judge_confidence',
  'judge_simulated',
  'turn',
]);

/**
 * A CSV as a table: the columns in `numeric` are `float` (when every non-empty cell is a number;
 * else text, as written), every other column `string`.
 */
export function csvTable(
  name: Table['name'],
  description: string,
  text: string,
  key: string[],
  describe: (column: string) => string,
  numeric: ReadonlySet<string> = new Set(),
): Table {
  const parsed = parseCsv(text);
  const header = parsed.header;
  const objects = parsed.rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
  const isFloat = header.map(
    (h) =>
      numeric.has(h) &&
      objects.every((o) => o[h] === '' || o[h] === undefined || NUMBER.test(o[h])),
  );
  return {
    name,
    description,
    key,
    columns: header.map((h, i) => col(h, isFloat[i] ? 'float' : 'string', describe(h))),
    rows: objects.map((o) =>
      header.map((h, i) => {
        const v = o[h] ?? '';
        return v === '' ? null : isFloat[i] ? Number(v) : v;
      }),
    ),
  };
}
