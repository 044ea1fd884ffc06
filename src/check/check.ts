/**
 * `stimkit check <file…>`: validate stimkit data files by their `format` field (or, without one,
 * by their name), each with its stage's own loader, following `extends`, and report every problem
 * of every file at once. A bundle folder is checked with `verify`.
 */
import { stat } from 'node:fs/promises';
import { parseDataText } from '../core/datafile.js';
import { errorMessage, StimkitError, type Problem } from '../core/errors.js';
import { readTextFile } from '../core/fsio.js';
import { closest } from '../core/suggest.js';
import { FORMATS, formatCheck, guessFormat, type CheckSummary } from './registry.js';

/** The outcome for one file. */
interface FileCheck {
  file: string;
  format: string | null;
  ok: boolean;
  summary: Omit<CheckSummary, 'warnings'> | null;
  problems: Problem[];
}

/** The outcome for every file. */
export interface CheckResult {
  ok: boolean;
  files: FileCheck[];
}

const problemOf = (
  file: string,
  code: string,
  message: string,
  fix: string,
  more: Partial<Problem> = {},
): Problem => ({ code, severity: 'error', file, message, fix, ...more });

async function detectFormat(file: string): Promise<{ format: string | null; problem?: Problem }> {
  const text = await readTextFile(file, 'E_CHECK_READ');
  const { value } = parseDataText(file, text, 'E_CHECK_SYNTAX');
  const declared =
    value !== null && typeof value === 'object'
      ? (value as { format?: unknown }).format
      : undefined;
  const known = FORMATS.map((f) => f.format);
  if (typeof declared === 'string') {
    if (formatCheck(declared)) return { format: declared };
    const guess = closest(declared, known);
    return {
      format: declared,
      problem: problemOf(
        file,
        'E_CHECK_UNKNOWN_FORMAT',
        `unknown format "${declared}"`,
        guess ? `did you mean "${guess}"?` : `use one of ${known.join(', ')}`,
        { field: 'format', expected: `one of ${known.join(', ')}`, got: declared },
      ),
    };
  }
  const byName = guessFormat(file);
  if (byName) return { format: byName.format };
  return {
    format: null,
    problem: problemOf(
      file,
      'E_CHECK_UNKNOWN_FORMAT',
      'the file has no format field and its name does not say what it is',
      `add format: <one of ${known.join(', ')}>`,
      { field: 'format', expected: `one of ${known.join(', ')}`, got: 'nothing' },
    ),
  };
}

async function checkOne(file: string): Promise<FileCheck> {
  const fail = (format: string | null, problems: Problem[]): FileCheck => ({
    file,
    format,
    ok: false,
    summary: null,
    problems,
  });
  try {
    if ((await stat(file).catch(() => null))?.isDirectory()) {
      const { verifyBundle } = await import('../verify/verify.js');
      const v = await verifyBundle(file);
      return {
        file,
        format: 'stimkit.bundle',
        ok: v.ok,
        summary: v.ok ? { digest: v.digest, trials: v.trials, images: v.images } : null,
        problems: v.problems,
      };
    }
    const { format, problem } = await detectFormat(file);
    if (problem) return fail(format, [problem]);
    const { warnings = [], ...summary } = await formatCheck(format!)!.check(file);
    return { file, format, ok: true, summary, problems: warnings };
  } catch (err) {
    if (err instanceof StimkitError)
      return fail(
        null,
        err.problems.length > 0
          ? err.problems
          : [problemOf(file, err.code, err.message, err.fix ?? 'see the message')],
      );
    return fail(null, [
      problemOf(
        file,
        'E_CHECK_INTERNAL',
        errorMessage(err),
        'report this as a bug in stimkit, with the file',
      ),
    ]);
  }
}

/**
 * Check each file (in order; one at a time, so the output reads in order). Never throws for a
 * bad file: its problems are in the result.
 *
 * @example
 * const r = await checkFiles(['manifests/geopolitics.pt.topics.yaml', 'manifests/demo.study.yaml']);
 * r.ok; // true when every file is valid
 */
export async function checkFiles(files: readonly string[]): Promise<CheckResult> {
  const out: FileCheck[] = [];
  for (const f of files) {
    const r = await checkOne(f);
    // A loader's error does not say the format; fill it in from the detection.
    if (r.format === null)
      r.format = await detectFormat(f)
        .then((d) => d.format)
        .catch(() => null);
    out.push(r);
  }
  return { ok: out.every((r) => r.ok), files: out };
}
