/** The human and JSON summaries of an ingest run. */
import { formatProblems } from '../core/errors.js';
import { relPosix } from '../core/fsio.js';
import type { IngestResult } from './ingest.js';

/** Counts of entries by topic × sensitivity × role (an entry with two roles counts under both). */
function countCells(
  result: IngestResult,
): Array<{ topic: string; sensitivity: string; role: string; entries: number }> {
  const cells = new Map<string, number>();
  for (const e of result.lock.entries) {
    for (const role of e.roles) {
      const key = `${e.topic}\t${e.sensitivity}\t${role}`;
      cells.set(key, (cells.get(key) ?? 0) + 1);
    }
  }
  return [...cells.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, entries]) => {
      const [topic, sensitivity, role] = key.split('\t') as [string, string, string];
      return { topic, sensitivity, role, entries };
    });
}

/** The machine-readable summary printed by `--json`. */
export function ingestJson(result: IngestResult) {
  const status = { ok: 0, missing: 0, failed: 0 };
  const failed = new Set(
    result.problems.filter((p) => p.severity === 'error' && p.entry).map((p) => p.entry),
  );
  for (const e of result.lock.entries) {
    if (failed.has(e.id)) status.failed++;
    else if (e.image.resolved.status === 'missing') status.missing++;
    else status.ok++;
  }
  return {
    ok: result.errors === 0,
    command: 'ingest',
    corpus: result.lock.corpus,
    lock: result.lockFile ? relPosix(process.cwd(), result.lockFile) : null,
    lock_sha256: result.lockSha256,
    lock_written: result.lockWritten,
    entries: result.lock.entries.length,
    images: status,
    missing: result.lock.entries
      .filter((e) => e.image.resolved.status === 'missing')
      .map((e) => e.id),
    counts: countCells(result),
    near_duplicates: result.lock.near_duplicates,
    errors: result.errors,
    warnings: result.warnings,
    problems: result.problems,
  };
}

/** The human summary: a table of counts, then problems, then what was written. */
export function ingestHuman(result: IngestResult): string {
  const j = ingestJson(result);
  const lines: string[] = [];
  lines.push(
    `corpus "${j.corpus}": ${j.entries} entries — ${j.images.ok} images ok, ${j.images.missing} missing, ${j.images.failed} with errors`,
  );
  const width = Math.max(5, ...j.counts.map((c) => c.topic.length));
  lines.push(`  ${'topic'.padEnd(width)}  sensitivity  role         entries`);
  for (const c of j.counts) {
    lines.push(
      `  ${c.topic.padEnd(width)}  ${c.sensitivity.padEnd(11)}  ${c.role.padEnd(11)}  ${String(c.entries).padStart(7)}`,
    );
  }
  if (j.missing.length > 0) lines.push(`missing images (to be supplied): ${j.missing.join(', ')}`);
  if (j.near_duplicates.length > 0) {
    lines.push(
      `near-duplicates: ${j.near_duplicates.map((d) => `${d.a} ~ ${d.b} (${d.distance})`).join(', ')}`,
    );
  }
  if (result.problems.length > 0) {
    lines.push(`${result.errors} error(s), ${result.warnings} warning(s):`);
    lines.push(formatProblems(result.problems));
  }
  if (result.lockFile) {
    lines.push(
      `${result.lockWritten ? 'wrote' : 'unchanged'} ${j.lock} (sha256 ${result.lockSha256})`,
    );
  } else {
    lines.push('corpus lock NOT written: fix the errors above and run ingest again');
  }
  return lines.join('\n');
}
