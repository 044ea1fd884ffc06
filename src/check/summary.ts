/** The human and JSON summaries of `stimkit check`. */
import { formatProblems } from '../core/errors.js';
import { relPosix } from '../core/fsio.js';
import type { CheckResult } from './check.js';

/** The machine-readable summary printed by `--json`. */
export function checkJson(result: CheckResult) {
  return { ok: result.ok, command: 'check', files: result.files };
}

function short(value: unknown): string {
  if (Array.isArray(value))
    return value.length > 8
      ? `${value.slice(0, 8).join(', ')}, … (${value.length})`
      : value.join(', ');
  if (value !== null && typeof value === 'object')
    return Object.entries(value)
      .map(([k, v]) => `${k}: ${String(v)}`)
      .join('; ');
  return String(value);
}

/** One block per file: ok with its summary, or its problems. */
export function checkHuman(result: CheckResult): string {
  const lines: string[] = [];
  for (const f of result.files) {
    const name = relPosix(process.cwd(), f.file) || f.file;
    const what = f.format ?? 'unknown format';
    if (f.ok) {
      const facts = Object.entries(f.summary ?? {}).map(([k, v]) => `${k}: ${short(v)}`);
      lines.push(`ok ${name} (${what})${facts.length ? `\n  ${facts.join('\n  ')}` : ''}`);
      if (f.problems.length > 0) lines.push(formatProblems(f.problems));
    } else {
      const errors = f.problems.filter((p) => p.severity === 'error').length;
      lines.push(`FAILED ${name} (${what}): ${errors} problem(s)`, formatProblems(f.problems));
    }
  }
  const bad = result.files.filter((f) => !f.ok).length;
  lines.push(
    bad === 0
      ? `${result.files.length} file(s) valid`
      : `${bad} of ${result.files.length} file(s) have problems`,
  );
  return lines.join('\n');
}
