/**
 * The report folder written whole (core/out-folder.ts): `buildReport` writes into a temporary
 * sibling folder that replaces `--out` only when the page, every chart and table and report.json
 * are written, so a failed report leaves an earlier one as it was.
 */
import path from 'node:path';
import { headeredFolder, writeOutFolder } from '../core/out-folder.js';
import { buildReport, REPORT_FORMAT, type ReportResult } from './build.js';
import { SECTIONS } from './registry.js';
import type { ReportSection } from './types.js';

/** What `stimkit report` may replace: a report folder (report.json, the page, its subfolders). */
const REPORT_FOLDER = headeredFolder({
  command: 'report',
  header: { file: 'report.json', format: REPORT_FORMAT },
  names: ['index.html'],
  dirs: ['charts', 'tables', 'thumbs'],
});

/** `buildReport` into `outDir`, replaced whole once complete; `out` of the result is `outDir`. */
export async function writeReport(
  scoresDir: string,
  outDir: string,
  sections: readonly ReportSection[] = SECTIONS,
  options: Parameters<typeof buildReport>[3] = {},
): Promise<ReportResult> {
  const out = path.resolve(outDir);
  const r = await writeOutFolder(out, REPORT_FOLDER, (tmp) =>
    buildReport(scoresDir, tmp, sections, options),
  );
  return { ...r, out };
}
