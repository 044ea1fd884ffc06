/**
 * Writes a report's files: each chart as `charts/<id>.vl.json`, `.svg` and `.png` (with the
 * SIMULATED band when the report is from simulated input), each table and chart's data as
 * `tables/<id>.csv` (with its `simulated` column), a figure's images, and the data dictionary
 * `tables/README.csv`; every file atomically, recorded with its sha256 for report.json. Files are
 * written one after another in the order they are given (so `files` and report.json keep that
 * order), while the page goes on: a chart's PNG is still being drawn when the next chart starts.
 */
import path from 'node:path';
import type { CsvWriteOptions } from '../core/csv.js';
import { sha256, writeFileAtomic } from '../core/fsio.js';
import { escapeHtml, showBidiControls } from '../core/html.js';
import { artifactJson } from '../core/json.js';
import { renderChart, renderSvg } from './chart.js';
import { dictionaryCsv, tableCsv, type RowSimulated } from './csv.js';
import { PHONE_SUBTITLE_CHARS, PHONE_WIDTH, phoneSpec, wrapLines } from './phone.js';
import { markSimulatedSvg } from './simulated.js';
import type { ReportChart, ReportFigure, ReportTable } from './types.js';

/** The files of one report folder, as they are written. */
export class ReportWriter {
  /** Every file written (relative path and sha256), in order. */
  readonly files: Array<{ file: string; sha256: string }> = [];
  private readonly tables: Array<{ table: ReportTable; simulated: boolean }> = [];

  constructor(
    private readonly outDir: string,
    private readonly flag: RowSimulated,
    private readonly simulated: boolean,
    /** How the CSV tables are written (`{ raw: true }` for `--csv-raw`). */
    private readonly csv: CsvWriteOptions = {},
  ) {}

  /** The writes given so far, in order; settles when the last has. */
  private queue: Promise<void> = Promise.resolve();

  /**
   * Write `rel` (relative to the report folder) atomically and record it, after every write given
   * before it; `data` may still be in the making. Resolves once written; a failure rejects this
   * write and every later one (the caller awaiting the page's write sees it).
   */
  write(rel: string, data: string | Buffer | Promise<Buffer>): Promise<void> {
    const done = this.queue.then(async () => {
      const bytes = await data;
      await writeFileAtomic(path.join(this.outDir, rel), bytes);
      this.files.push({ file: rel, sha256: sha256(bytes) });
    });
    // handled here so that a write nobody awaits is not reported as unhandled; awaiting it (or a
    // later write) still throws its error
    done.catch(() => undefined);
    this.queue = done;
    return done;
  }

  /**
   * `make`'s result; when it fails, the writes given so far are waited for first, so nothing is
   * still writing into the folder when the failure reaches whoever removes it.
   */
  async whileWriting<T>(make: () => Promise<T>): Promise<T> {
    try {
      return await make();
    } catch (err) {
      await this.queue.catch(() => undefined);
      throw err;
    }
  }

  /** `tables/<id>.csv`, with its simulated column; listed for the dictionary. */
  table(t: ReportTable): void {
    void this.write(`tables/${t.id}.csv`, tableCsv(t, this.flag, this.csv));
    const rows = t.rows.some((r) => this.flag(t, r));
    this.tables.push({ table: t, simulated: t.rows.length > 0 ? rows : this.simulated });
  }

  /**
   * A chart's spec, SVG, PNG and data; returns the SVG for the page, and, for a chart wider than
   * a phone's window, a narrower layout of it for the page on phones (not written as a file).
   */
  async chart(chart: ReportChart): Promise<{ svg: string; phone: string | null }> {
    const spec = chartSpec(chart);
    const decorate = (drawn: string) =>
      labelSvg(this.simulated ? markSimulatedSvg(drawn) : drawn, chart.alt);
    const { svg, png } = await renderChart(spec, { id: chart.id, decorate });
    void this.write(`charts/${chart.id}.vl.json`, artifactJson(spec));
    void this.write(`charts/${chart.id}.svg`, svg);
    void this.write(`charts/${chart.id}.png`, png);
    this.table(chart.data);
    if (svgWidth(svg) <= PHONE_WIDTH) return { svg, phone: null };
    const phone = await renderSvg(phoneSpec(chartSpec(chart, PHONE_SUBTITLE_CHARS)), {
      id: `${chart.id}-phone`,
      decorate,
    });
    return { svg, phone: svgWidth(phone) < svgWidth(svg) ? phone : null };
  }

  /** A figure's images (paths checked: letters, digits, `.`, `-`, `_`, `/`; no `..`) and its table. */
  figure(f: ReportFigure): void {
    for (const img of f.rows.flatMap((r) => r.images)) {
      if (
        !/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(img.file) ||
        img.file.split('/').includes('..')
      )
        throw new Error(`report image path not allowed: ${img.file}`);
      void this.write(img.file, img.data);
    }
    this.table(f.data);
  }

  /** tables/README.csv: every column of every table given so far. */
  dictionary(): void {
    void this.write('tables/README.csv', dictionaryCsv(this.tables, this.csv));
  }
}

/**
 * The spec of a chart with its data. Bidi controls in the data and texts are made visible (as on
 * the page), so an override in a model name cannot reorder what a chart shows.
 */
function chartSpec(chart: ReportChart, chars = SUBTITLE_CHARS): Record<string, unknown> {
  const values = chart.data.rows.map((r) =>
    Object.fromEntries(chart.data.columns.map((c, i) => [c, r[i]])),
  );
  return visibleBidi(wrapSubtitle({ ...chart.spec, data: { values } }, chars)) as Record<
    string,
    unknown
  >;
}

/** Subtitle lines longer than this many characters are broken at spaces (so they do not widen the chart). */
const SUBTITLE_CHARS = 80;

export const svgWidth = (svg: string): number =>
  Number(/^<svg\b[^>]*\bwidth="([\d.]+)"/.exec(svg)?.[1] ?? 0);

function wrapSubtitle(spec: Record<string, unknown>, chars: number): Record<string, unknown> {
  const title = spec.title as { subtitle?: string | string[] } | undefined;
  if (!title?.subtitle) return spec;
  return { ...spec, title: { ...title, subtitle: wrapLines(title.subtitle, chars) } };
}

function visibleBidi(v: unknown): unknown {
  if (typeof v === 'string') return showBidiControls(v);
  if (Array.isArray(v)) return v.map(visibleBidi);
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, visibleBidi(x)]));
  return v;
}

/**
 * The SVG labelled as one image: `role="img"`, an `aria-label` and a `<title>` on the root (the
 * caption, links and column notes stay outside it, on the page).
 */
function labelSvg(svg: string, alt: string): string {
  const open = /^<svg\b[^>]*>/.exec(svg);
  if (!open) throw new Error('labelSvg: not an SVG');
  const text = escapeHtml(alt);
  const root = open[0].replace(/^<svg\b/, `<svg role="img" aria-label="${text}"`);
  return `${root}<title>${text}</title>${svg.slice(open[0].length)}`;
}

/**
 * The SVG for the page: the roles and labels vega gives its marks removed below the root (an
 * image's parts are not read one by one; left in, they are symbols without names inside an
 * image). The chart files keep them.
 */
export function plainMarks(svg: string): string {
  const open = /^<svg\b[^>]*>/.exec(svg);
  if (!open) return svg;
  const inner = svg
    .slice(open[0].length)
    .replace(/\s(?:role|aria-roledescription|aria-label|aria-hidden)="[^"]*"/g, '');
  return `${open[0]}${inner}`;
}
