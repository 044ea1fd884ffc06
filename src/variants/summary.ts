/** What `stimkit variants` prints: a JSON summary (`--json`) and a human summary (stderr). */
import { relPosix } from '../core/fsio.js';
import { lockWarnings } from './quality/warnings.js';
import type { VariantsResult } from './run.js';

/** How the summaries treat quality warnings: as errors under `--strict`. */
export interface SummaryOptions {
  strict?: boolean;
}

/** One failed output, for the summaries. */
interface Failure {
  entry: string;
  variant: string | null;
  code: string;
  message: string;
}

function failures(result: VariantsResult): Failure[] {
  const out: Failure[] = [];
  for (const e of result.lock.entries) {
    if (e.error) {
      out.push({ entry: e.id, variant: null, code: e.error.code, message: e.error.message });
      continue;
    }
    for (const v of e.variants)
      if (v.error)
        out.push({ entry: e.id, variant: v.code, code: v.error.code, message: v.error.message });
  }
  return out;
}

/** The machine-readable summary. */
export function variantsJson(
  result: VariantsResult,
  options: SummaryOptions = {},
): Record<string, unknown> {
  const cwd = process.cwd();
  const s = result.lock.summary;
  const quality = lockWarnings(result.lock.entries);
  return {
    ok: result.failed === 0 && !(options.strict && quality.length > 0),
    command: 'variants',
    out: relPosix(cwd, result.outDir),
    lock: relPosix(cwd, result.lockFile),
    lock_sha256: result.lockSha256,
    lock_written: result.lockWritten,
    entries: s.entries,
    entries_ok: s.ok,
    entries_failed: s.failed,
    entries_skipped: s.skipped,
    outputs: s.outputs,
    computed: result.computed,
    reused: result.reused,
    retired_locks: result.retiredLocks,
    segmenter_loaded: result.segmenterLoaded,
    contact_sheets: result.lock.contact_sheets.map((c) =>
      relPosix(cwd, `${result.outDir}/${c.file}`),
    ),
    failures: failures(result),
    warnings: result.warnings,
    strict: Boolean(options.strict),
    review: result.reviewPages.map((f) => relPosix(cwd, `${result.outDir}/${f}`)),
    quality_warnings: quality,
  };
}

/** The human summary. */
export function variantsHuman(result: VariantsResult, options: SummaryOptions = {}): string {
  const cwd = process.cwd();
  const s = result.lock.summary;
  const lines = [
    `variants: ${s.entries} entr${s.entries === 1 ? 'y' : 'ies'} (${s.ok} ok, ${s.failed} failed, ${s.skipped} skipped), ` +
      `${s.outputs} outputs (${result.computed} computed, ${result.reused} reused)`,
    `lock: ${relPosix(cwd, result.lockFile)}${result.lockWritten ? '' : ' (unchanged)'}`,
  ];
  for (const c of result.lock.contact_sheets)
    lines.push(`contact sheet: ${relPosix(cwd, `${result.outDir}/${c.file}`)}`);
  for (const f of result.reviewPages)
    lines.push(
      `review page (entries with warnings beside their A0): ${relPosix(cwd, `${result.outDir}/${f}`)}`,
    );
  for (const name of result.retiredLocks)
    lines.push(`moved aside: ${name} -> ${name}.stale (files it vouched for were rewritten)`);
  for (const w of result.warnings) lines.push(`  warning: ${w}`);
  const quality = lockWarnings(result.lock.entries);
  if (quality.length > 0) {
    const entries = new Set(quality.map((w) => w.entry)).size;
    lines.push(
      `quality: ${quality.length} warning(s) on ${entries} entr${entries === 1 ? 'y' : 'ies'}${options.strict ? ' (errors under --strict)' : ''}; marked on the contact sheet`,
    );
  }
  for (const w of quality) {
    const fig = `${fraction(w.value)}, threshold ${fraction(w.threshold)}`;
    lines.push(
      `  ${options.strict ? 'error' : 'warning'} ${w.code}: ${w.entry} ${w.variant}: ${w.message} (${fig}); fix: ${w.fix}`,
    );
  }
  for (const f of failures(result))
    lines.push(`  error ${f.code}: ${f.entry}${f.variant ? ` ${f.variant}` : ''}: ${f.message}`);
  return lines.join('\n');
}

/** A fraction as the summary prints it (4 significant digits). */
function fraction(x: number): string {
  return Number(x.toPrecision(4)).toString();
}
