/** The human and JSON summaries of `stimkit verify`. */
import { formatProblems, type Problem } from '../core/errors.js';
import { relPosix } from '../core/fsio.js';
import { VERIFY_FIX_LINE } from './fixes.js';
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

/** Items of a list (or problems of one code) shown in the human output; the JSON keeps every one. */
const SHOWN = 20;

/** `a, b, …` with at most SHOWN items, then `and N more`. */
function capped(list: readonly string[]): string {
  const head = list.slice(0, SHOWN).join(', ');
  return list.length > SHOWN ? `${head}, and ${list.length - SHOWN} more` : head;
}

/** At most SHOWN problems of each code, in order, and a count of the rest per code. */
function cappedProblems(problems: readonly Problem[]): { shown: Problem[]; more: string[] } {
  const seen = new Map<string, number>();
  const shown: Problem[] = [];
  for (const p of problems) {
    const n = (seen.get(p.code) ?? 0) + 1;
    seen.set(p.code, n);
    if (n <= SHOWN) shown.push(p);
  }
  const more = [...seen]
    .filter(([, n]) => n > SHOWN)
    .map(([code, n]) => `  … and ${n - SHOWN} more ${code} problem(s) (--json lists every one)`);
  return { shown, more };
}

/**
 * The human summary: the verdict and digest, the changed, missing and extra files, then the
 * problems. Long lists are cut at 20 items (20 problems per code) with a count of the rest.
 */
export function verifyHuman(result: VerifyResult): string {
  const where = relPosix(process.cwd(), result.dir);
  const counts = `${result.payload.files} payload files, ${result.payload.octets} bytes${result.trials === null ? '' : `, ${result.trials} trials, ${result.images} images`}`;
  if (result.ok) return `bundle ${where} verifies: ${counts}\ndigest ${result.digest}`;
  const lines = [
    `bundle ${where} does NOT verify: ${result.problems.length} problem(s) (${counts})`,
  ];
  for (const [label, list] of [
    ['changed', result.changed],
    ['missing', result.missing],
    ['extra', result.extra],
  ] as const) {
    if (list.length) lines.push(`${label}: ${capped(list)}`);
  }
  const { shown, more } = cappedProblems(result.problems);
  lines.push(formatProblems(shown), ...more);
  if (result.digest) lines.push(`digest as found: ${result.digest}`);
  lines.push(VERIFY_FIX_LINE);
  return lines.join('\n');
}
