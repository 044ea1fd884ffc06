/**
 * The contract between `stimkit report` and its sections. A section reads the scores folder
 * through a `ReportContext` and returns charts (vega-lite specs) and tables; the builder renders
 * the charts to SVG and PNG, writes each chart's data and each table as CSV, and lays everything
 * out on one self-contained HTML page. To add a section: write a `ReportSection` in its own file
 * and append it to `SECTIONS` (src/report/registry.ts).
 */
import type { BundleData } from '../label/bundle.js';
import type { ColumnDefs } from './dictionary.js';
import type { ScoreLine, ScoresHeader } from '../score/format.js';
import type { Cell } from '../score/types.js';

/** A CSV table read from the scores folder: header and rows as objects of strings. */
export interface CsvRows {
  header: string[];
  /** The rows the outcome rule keeps (report/outcomes.ts). */
  rows: Record<string, string>[];
  /** The rows it leaves out (a vendor's refusal …): for naming a model all of whose rows are here. */
  leftOut?: Record<string, string>[];
}

/** What sections can read. Loads are lazy and cached (`memo`), so sections can share work. */
export interface ReportContext {
  scoresDir: string;
  /** A second scores folder of the same bundle (`report --compare`), else null. */
  compareDir?: string | null;
  header: ScoresHeader;
  /** `scores.jsonl`, in file order. */
  records: () => Promise<ScoreLine[]>;
  /** A CSV of the scores folder by file name, or null when the folder has none. */
  table: (file: string) => Promise<CsvRows | null>;
  /** Compute once per report: `memo('instrument', () => analyze(...))`. */
  memo: <T>(key: string, make: () => Promise<T> | T) => Promise<T>;
  /** True when any scored response is simulated. */
  simulated: boolean;
  /** The language shifts `report --shift FROM:TO` asked for; null: each language against its arm's first. */
  shifts?: ReadonlyArray<{ from: string; to: string }> | null;
  /**
   * The scored bundle (for images), found through score.json's bundle input or `report --bundle`,
   * and checked against the scored digest; `bundle` is null and `note` says why when it is not
   * available (sections then say so in a sentence instead of failing).
   */
  bundle: () => Promise<{ bundle: BundleData | null; note: string | null }>;
}

/** A table on the page and as CSV (`tables/<id>.csv`). Every table says its n and interval method. */
export interface ReportTable {
  id: string;
  title: string;
  columns: string[];
  rows: Cell[][];
  /** What n is, e.g. "n = 28 cell means per model (64 responses each)". */
  n: string;
  /** How intervals or p values were computed, e.g. "95 % CI: t on cell means; Holm across models". */
  interval: string;
  /**
   * Header in words, unit, meaning and why a cell may be empty, for columns this table uses
   * differently from the data dictionary (src/report/columns/); see dictionary.ts.
   */
  columnInfo?: ColumnDefs;
  /**
   * The scores files the table is computed from, when its section reads others too: its caption
   * then names what the outcome rule left out of these files only.
   */
  sources?: string[];
  /**
   * Columns whose cells are text in a study language (a language's own name): per column, each
   * row's `lang` and `dir`, which the page's cell carries.
   */
  cellLang?: Record<string, ReadonlyArray<{ lang: string; dir: string }>>;
}

/** A chart: its vega-lite spec and the table of the values it plots (written as CSV beside it). */
export interface ReportChart {
  id: string;
  title: string;
  /** A vega-lite spec without data; the builder injects `data.values` from `data`. */
  spec: Record<string, unknown>;
  data: ReportTable;
  /** Alternative text for the image. */
  alt: string;
}

/** A small image written next to index.html (`file`, relative, e.g. `thumbs/x.png`) and shown with `<img>`. */
interface ReportImage {
  /** Path relative to the report folder; letters, digits, `.`, `-`, `_` and `/` only. */
  file: string;
  data: Buffer;
  width: number;
  height: number;
  alt: string;
  /** Caption under the image, e.g. "A3 edges". */
  label: string;
}

/** Rows of images (e.g. one strip of variant thumbnails per entry) with a provenance table (`tables/<data.id>.csv`). */
export interface ReportFigure {
  id: string;
  title: string;
  rows: Array<{ label: string; images: ReportImage[] }>;
  /** Where every image comes from (e.g. entry, variant, source sha256), written as CSV. */
  data: ReportTable;
}

/** A response shown on the page (model text: escaped, in its language). */
export interface ReportExample {
  trial: string;
  model: string;
  /** The prompt language (BCP 47), the `lang` of the shown text. */
  lang: string;
  /** The writing direction of that language (from its pack: the study's own first). */
  dir: 'ltr' | 'rtl' | 'auto';
  /** What the example is: model, language, why it was chosen. */
  label: string;
  /** The text shown (an excerpt when `cut`), or null when it cannot be read. */
  text: string | null;
  cut: boolean;
  simulated: boolean;
}

/** What a section returns. Texts are plain text (the builder escapes them). */
export interface SectionContent {
  paragraphs: string[];
  charts: ReportChart[];
  tables: ReportTable[];
  /** Image figures, laid out after the charts. */
  figures?: ReportFigure[];
  /** Responses shown inline, after the tables. */
  examples?: ReportExample[];
}

/** One section of the report. */
export interface ReportSection {
  id: string;
  title: string;
  /** Whether the scores hold anything for this section (e.g. instrument records). */
  applies: (ctx: ReportContext) => Promise<boolean> | boolean;
  build: (ctx: ReportContext) => Promise<SectionContent>;
}
