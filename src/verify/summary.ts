/** The human and JSON summaries of `stimkit verify`. */
import { formatProblems } from '../cli/output.js';
import { relPosix } from '../core/fsio.js';
import type { VerifyResult } from './verify.js';

/** The machine-readable summary printed by `--json`. */
export function verifyJson(result: VerifyResult) {
  return {
    ok: result.ok,
    command: 'verify',
    bundle: relPosix(process.cwd(), result.dir),
    digest: result.digest,
    payload: result.payload,
    trials: result.trials,
    images: result.images,
    changed: result.changed,
    missing: result.missing,
    extra: result.extra,
    problems: result.problems,
  };
}

/** The human summary: the verdict and digest, then every problem, one per line. */
export function verifyHuman(result: VerifyResult): string {
  const where = relPosix(process.cwd(), result.dir);
  const counts = `${result.payload.files} payload files, ${result.payload.octets} bytes${result.trials === null ? '' : `, ${result.trials} trials, ${result.images} images`}`;
  if (result.ok) return `bundle ${where} verifies: ${counts}\ndigest ${result.digest}`;
  const lines = [`bundle ${where} does NOT verify: ${result.problems.length} problem(s) (${counts})`];
  for (const [label, list] of [['changed', result.changed], ['missing', result.missing], ['extra', result.extra]] as const) {
    if (list.length) lines.push(`${label}: ${list.join(', ')}`);
  }
  lines.push(formatProblems(result.problems));
  if (result.digest) lines.push(`digest as found: ${result.digest}`);
  return lines.join('\n');
}
