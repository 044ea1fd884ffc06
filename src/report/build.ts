/**
 * `stimkit report <scores dir> --out DIR`: builds every section that applies, renders each chart
 * to `charts/<id>.svg` and `.png` (with its spec as `charts/<id>.vl.json`), writes the data behind
 * each chart and every table as `tables/<id>.csv`, a figure's images beside the page (e.g.
 * `thumbs/*.png`, referenced relatively), and lays it all out on `index.html` (inline SVG, no
 * network). `report.json` (written last) records the inputs' sha256 and every file written.
 * Same scores → same bytes.
 */
import path from 'node:path';
import { ensureFolder, relPosix, writeFileAtomic } from '../core/fsio.js';
import { artifactJson } from '../core/json.js';
import { TOOL } from '../core/tool.js';
import { parseCsv } from '../core/csv.js';
import { SCORES_FILES } from '../score/format.js';
import { openScores } from '../score/read.js';
import { reportBundle } from './bundle.js';
import { languageNames } from './languages.js';
import { languageSection } from './sections/language.js';
import { compared } from './sections/what-changed.js';
import {
  outcomeSentence,
  selectRows,
  TableReads,
  withOutcomeNotes,
  type OutcomeNote,
} from './outcomes.js';
import { pageHtml, type RenderedSection } from './page.js';
import { SECTIONS } from './registry.js';
import { rowSimulated, simulatedNotes } from './simulated.js';
import type { CsvRows, ReportContext, ReportSection } from './types.js';
import { ReportWriter } from './writer.js';

export const REPORT_FORMAT = 'stimkit.report';
const REPORT_VERSION = 1;

export interface ReportResult {
  out: string;
  sections: string[];
  files: { file: string; sha256: string }[];
  simulated: boolean;
}

/** Options of a report build. */
export interface ReportOptions {
  /** The scored bundle's folder, when it is not where score.json records it (for the ladder's thumbnails). */
  bundle?: string;
  /** Write the CSV tables' cells as they are, without neutralising spreadsheet formulas (`--csv-raw`). */
  csvRaw?: boolean;
  /** A second scores folder of the same bundle, for the "What changed" section (`--compare`). */
  compare?: string;
  /** The language shifts to show (`--shift FROM:TO`, repeatable); default each language against its arm's first. */
  shifts?: Array<{ from: string; to: string }>;
}

/**
 * The context sections read from; every file read is checked against score.json's sha256. The
 * rows of a response-derived table are those the outcome rule keeps (outcomes.ts): `notes` says
 * what it left out, `reads` which tables a section read.
 */
async function reportContext(
  scoresDir: string,
  reads: TableReads,
  notes: Map<string, OutcomeNote>,
  options: ReportOptions = {},
): Promise<{ ctx: ReportContext; headerSha: string }> {
  const scores = await openScores(scoresDir, 'E_REPORT_SCORES');
  const { header } = scores;
  const memo = new Map<string, Promise<unknown>>();
  const cache = <T>(key: string, make: () => Promise<T> | T): Promise<T> => {
    if (!memo.has(key)) memo.set(key, Promise.resolve().then(make));
    return memo.get(key) as Promise<T>;
  };
  const once = async <T>(key: string, make: () => Promise<T> | T): Promise<T> => {
    const value = await cache(key, reads.memo(key, make));
    reads.used(key);
    return value;
  };
  const bundle = () => once('bundle', () => reportBundle(scoresDir, header, options.bundle));
  // a bundle named with --bundle is checked up front, whether or not a section shows its images
  if (options.bundle !== undefined) await bundle();
  const ctx: ReportContext = {
    scoresDir,
    compareDir: options.compare ?? null,
    shifts: options.shifts ?? null,
    header,
    simulated: header.counts.simulated > 0,
    memo: once,
    bundle,
    records: () =>
      once('records', () =>
        header.files.some((f) => f.file === SCORES_FILES.records) ? scores.lines() : [],
      ),
    table: (file) => {
      reads.read(file);
      return once(`table:${file}`, async (): Promise<CsvRows | null> => {
        const text = await scores.listed(file);
        if (text === null) return null;
        const { header: cols, rows } = parseCsv(text);
        const all = rows.map((r) => Object.fromEntries(cols.map((c, i) => [c, r[i] ?? ''])));
        const chosen = selectRows(file, cols, all);
        if (chosen.note) notes.set(file, chosen.note);
        return { header: cols, rows: chosen.rows, leftOut: chosen.leftOut };
      });
    },
  };
  return { ctx, headerSha: scores.sha };
}

/**
 * Build each section that applies and give its charts, tables and figures to `out` (whose files
 * are still being written when this returns).
 */
async function renderSections(
  ctx: ReportContext,
  sections: readonly ReportSection[],
  reads: TableReads,
  outcomeNotes: Map<string, OutcomeNote>,
  out: ReportWriter,
): Promise<RenderedSection[]> {
  const rendered: RenderedSection[] = [];
  for (const section of sections) {
    const built = await reads.section(async () =>
      (await section.applies(ctx)) ? section.build(ctx) : null,
    );
    if (built.value === null) continue;
    const sentences = [...built.files].flatMap((f) => {
      const note = outcomeNotes.get(f);
      return note ? [{ file: f, sentence: outcomeSentence(note) }] : [];
    });
    const content = withOutcomeNotes(built.value, sentences);
    const charts = [];
    for (const chart of content.charts) charts.push({ chart, ...(await out.chart(chart)) });
    for (const t of content.tables) out.table(t);
    for (const f of content.figures ?? []) out.figure(f);
    rendered.push({ section, content, charts });
  }
  return rendered;
}

/**
 * The inputs report.json names: score.json (and --compare's), and the bundle when the page uses it,
 * each with the sha256 of the bytes the report read (`headerSha`: the report's score.json).
 */
async function reportInputs(
  ctx: ReportContext,
  headerSha: string,
  outDir: string,
  options: ReportOptions,
  rendered: readonly RenderedSection[],
): Promise<Array<{ file: string; sha256: string }>> {
  const inputs = [
    { file: relPosix(outDir, path.join(ctx.scoresDir, SCORES_FILES.header)), sha256: headerSha },
  ];
  if (options.compare !== undefined)
    inputs.push({
      file: relPosix(outDir, path.join(options.compare, SCORES_FILES.header)),
      sha256: (await compared(ctx)).b.score_json_sha256,
    });
  // the bundle is an input when its images or its own language packs' names are on the page
  const named = rendered.some((r) => r.section.id === languageSection.id)
    ? (await languageNames(ctx)).packs.length > 0
    : false;
  const usedBundle =
    named || rendered.some((r) => (r.content.figures ?? []).length > 0)
      ? (await ctx.bundle()).bundle
      : null;
  if (usedBundle)
    inputs.push({
      file: relPosix(outDir, path.join(usedBundle.dir, 'manifest-sha256.txt')),
      sha256: usedBundle.digest,
    });
  return inputs;
}

/**
 * Build the report of a scores folder into `outDir`, a new folder (`writeReport` builds into a
 * temporary one and swaps it in whole, so nothing of an earlier report stays behind).
 *
 * @example
 * await buildReport('demo/scores', 'demo/report'); // demo/report/index.html
 */
export async function buildReport(
  scoresDir: string,
  outDir: string,
  sections: readonly ReportSection[] = SECTIONS,
  options: ReportOptions = {},
): Promise<ReportResult> {
  const reads = new TableReads();
  const outcomeNotes = new Map<string, OutcomeNote>();
  const { ctx, headerSha } = await reportContext(scoresDir, reads, outcomeNotes, options);
  await ensureFolder(outDir);
  const notes = await simulatedNotes(ctx);
  const simulated = ctx.simulated || notes.length > 0;
  const out = new ReportWriter(outDir, rowSimulated(ctx, notes.length > 0), simulated, {
    raw: options.csvRaw ?? false,
  });
  // on a failure, the files already given are written before it reaches writeOutFolder's cleanup
  const { rendered, inputs } = await out.whileWriting(async () => {
    const rendered = await renderSections(ctx, sections, reads, outcomeNotes, out);
    out.dictionary();
    const inputs = await reportInputs(ctx, headerSha, outDir, options, rendered);
    // awaited: every file given before the page is written once the page is
    await out.write('index.html', pageHtml(ctx, rendered, relPosix(outDir, scoresDir), notes));
    return { rendered, inputs };
  });
  const files = out.files;
  await writeFileAtomic(
    path.join(outDir, 'report.json'),
    artifactJson({
      format: REPORT_FORMAT,
      version: REPORT_VERSION,
      tool: { ...TOOL },
      bundle: ctx.header.bundle,
      simulated,
      csv: options.csvRaw ? 'raw' : 'safe',
      inputs,
      sections: rendered.map((r) => r.section.id),
      files,
    }),
  );
  return {
    out: outDir,
    sections: rendered.map((r) => r.section.id),
    files,
    simulated,
  };
}
