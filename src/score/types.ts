/**
 * The contract between the score stage and the paradigm scorers. A scorer turns one response to
 * one trial into a `ScoreRecord` (one line of `scores.jsonl`) and may contribute CSV tables and
 * columns; `registry.ts` lists the scorers. To add a paradigm: write a `ParadigmScorer` in its own
 * file, add it to `SCORERS`, and document its columns (docs/formats/).
 *
 * Most tables are written row by row: one row per record. A table whose rows need several
 * records at once (a conversation's turns: pressure.csv, pressure-conversations.csv) is a
 * *grouped table*: the scorer's `grouped.start(bundle)` returns a reader that is handed whole
 * groups (`RowGroup`: every record of one or more whole models, sorted, with what the source
 * recorded beside them) and gives each of its tables' rows of that group. Scoring streams a
 * ledger one model at a time, so a group is never more than the scoring holds anyway.
 */
import type { Trial } from '../bundle/format.js';
import type { ScoreBundle } from './bundle.js';

/** What scoring knows about a model (from the models file; nulls without one). */
export interface ModelMeta {
  name: string;
  origin: string | null;
  vendor: string | null;
  /** True for `provider: sim` models: everything they produce is simulated. */
  simulated: boolean;
  /** The paradigms the models file gives the model (`run` sends it no other); null or absent: every one, or unknown. */
  paradigms?: readonly string[] | null;
}

/** One response to score: from a run ledger or a responses JSONL file. */
export interface ResponseRecord {
  trial_id: string;
  model: string;
  /** The response text; null when the run recorded none (an error row). */
  response: string | null;
  /** True when a simulated respondent produced it. */
  simulated: boolean;
  /** Ground truth recorded by a simulated respondent, if any (never used to score). */
  truth: Record<string, unknown> | null;
  /** Why there is no response (the ledger's error class), or null. */
  error: string | null;
  /** The ledger outcome (answer, provider_block, model_refusal, suppressed, length, failed); null when the source gave none. */
  outcome?: string | null;
  /** The serving route that answered (ledger `route`); null when the source gave none. */
  route?: string | null;
  /** The upstream provider a gateway named (ledger `route_provider`); null when none. */
  route_provider?: string | null;
  /** The reply's stop reason, error class and (redacted) error body as the ledger kept them; null or absent when the source gave none. */
  finish_reason?: string | null;
  error_class?: string | null;
  error_body?: string | null;
  /** The reasoning text the source kept (ledger `reasoning_text`), or null/absent when none. */
  reasoning?: string | null;
  /** How much of the reasoning the server showed (ledger schema.ts); null/absent when not recorded. */
  reasoning_visibility?: string | null;
  /** Reasoning tokens the server reported; null/absent when not reported. */
  reasoning_tokens?: number | null;
}

/** One scored trial × model: a line of `scores.jsonl`. */
export interface ScoreRecord {
  /** The bundle digest. */
  bundle: string;
  trial: string;
  model: string;
  paradigm: string;
  /** What the scorer parsed, paradigm-specific (instrument: label, option, value, reason, detail). */
  parse: Record<string, unknown>;
  /** The score before keying (instrument: −2..+2), or null when the paradigm has none. */
  score: number | null;
  /** The score on the study's stance axis (instrument: after keying), or null. */
  stance: number | null;
  /** Why the score is 0 (or missing), or null. */
  reason: string | null;
  simulated: boolean;
  /** Who said no: the response's ledger outcome (score.ts fills it from the response), or null. */
  outcome?: string | null;
  /** The serving route that answered (score.ts fills it from the response), or null. */
  route?: string | null;
  /** The upstream provider a gateway named (score.ts fills it from the response), or null. */
  route_provider?: string | null;
  /** sha256 of the response text as the ledger (or responses file) holds it (UTF-8); null without text. */
  response_sha256?: string | null;
  /** Who blocked by the vendor's metadata, its category (snake case and raw) and detail (block-provenance.ts); null when nothing blocked. */
  block_source?: string | null;
  block_category?: string | null;
  block_category_raw?: string | null;
  block_detail?: string | null;
  /** The reasoning channel of the response (score.ts fills it): visibility and tokens, null when not recorded. */
  reasoning_visibility?: string | null;
  reasoning_tokens?: number | null;
  /** A turn of a conversation (pressure only): its place and its change measures (pressure.ts). */
  pressure?: Record<string, unknown>;
}

/** One scoring call's inputs. */
export interface ScoreInput {
  trial: Trial;
  response: ResponseRecord;
  model: ModelMeta;
}

/** A row handed to CSV columns: the record with its trial and model. */
export interface TableRow {
  record: ScoreRecord;
  trial: Trial;
  model: ModelMeta;
  bundle: ScoreBundle;
}

/** A CSV cell value; null is written as an empty cell. */
export type Cell = string | number | boolean | null;

/** One CSV column: its header, what it holds (for the docs), and how to fill it. */
export interface CsvColumn {
  name: string;
  doc: string;
  value: (row: TableRow) => Cell;
}

/** A CSV table written next to `scores.jsonl`: rows are the records of its paradigms. */
export interface CsvTable {
  /** File name, e.g. `instrument.csv`. */
  file: string;
  doc: string;
  /** Paradigms whose records become rows, or `all`. */
  paradigms: readonly string[] | 'all';
  columns: CsvColumn[];
}

/**
 * What a grouped table's reader is handed: every scored row of whole models (a ledger's model,
 * or a responses file's every model), and the trials the source recorded as not sent.
 */
export interface RowGroup {
  /** The rows, sorted (model name, then the trial's place in the bundle), every paradigm. */
  rows: readonly TableRow[];
  /** The models of the rows, in name order. */
  models: readonly ModelMeta[];
  /**
   * Per model, the trials the source recorded as not sent and why (a ledger's `unsent_turns`:
   * trial id → reason); no entry for a model without any, and none from a responses file.
   */
  unsent: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

/** A grouped table's reader for one scoring (state such as counts is kept across groups). */
export interface GroupReader {
  /**
   * The tables' rows of one group, by file name, cells in column order, in their final order.
   * It may complete the group's records first (fields that depend on a model's other records,
   * as the pressure object's change measures): the records are written after it returns.
   */
  read: (group: RowGroup) => Record<string, Cell[][]>;
  /** What score.json records under `counts.<scorer name>` once every group was read. */
  counts: () => Record<string, unknown>;
}

/** A scorer's grouped tables: their headers (for the docs and the file), and their reader. */
export interface GroupedTables {
  tables: Array<{ file: string; doc: string; columns: Array<{ name: string; doc: string }> }>;
  /**
   * The reader for one scoring of `bundle`, or null when the bundle holds no trial of the
   * scorer's paradigms: then none of these files is written and no count is recorded.
   */
  start: (bundle: ScoreBundle) => GroupReader | null;
}

/** A paradigm scorer. */
export interface ParadigmScorer {
  /** Scorer name, e.g. `instrument`. */
  name: string;
  /** The trial paradigms it scores. */
  paradigms: readonly string[];
  /**
   * Called once per bundle; returns the per-response function. Throw a `StimkitError` for a
   * bundle the scorer cannot use (e.g. items without polarity keys).
   */
  prepare: (bundle: ScoreBundle) => (input: ScoreInput) => ScoreRecord;
  /** Tables of its own. */
  tables?: CsvTable[];
  /** Columns it adds to shared tables (by file name, e.g. `trials.csv`). */
  columns?: Record<string, CsvColumn[]>;
  /** Tables written from whole groups of rows (above), e.g. one row per conversation. */
  grouped?: GroupedTables;
  /** Parameters recorded in `score.json` (`params.<name>`). */
  params?: Record<string, unknown>;
  /**
   * True: the scorer's `params` appear in score.json only when the bundle holds trials of its
   * paradigms, so that a study without them keeps the bytes it had before the scorer was added.
   */
  onlyWithTrials?: boolean;
}
