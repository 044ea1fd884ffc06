/**
 * One error class with a `code`, and a `Problem` record for reporting many input problems at once.
 *
 * Every problem says where (file, line, field), what (expected vs got) and what to do next.
 * Codes look like `E_INGEST_DUPLICATE_ID`; tests assert on them.
 */

/** Where and what of one input problem. */
export interface Problem {
  /** Stable code, e.g. `E_INGEST_DUPLICATE_ID`. */
  code: string;
  /** `error` rejects the input; `warning` is reported but does not (unless `--strict`). */
  severity: 'error' | 'warning';
  /** File the problem is in (as the user gave it, or relative to the working directory). */
  file?: string;
  /** 1-based line in `file`, when the parser knows it. */
  line?: number;
  /** Field path, e.g. `entries[3].provenance.license`. */
  field?: string;
  /** Entry id, when the problem belongs to one entry. */
  entry?: string;
  /** What is wrong, in one sentence. */
  message: string;
  expected?: string;
  got?: string;
  /** What to do about it. */
  fix?: string;
}

/** Exit codes of the command line. */
export const EXIT = { ok: 0, rejected: 1, usage: 2 } as const;

/**
 * The one error class of stimkit. `problems` carries every problem found, so that a caller can
 * report all of them rather than only the first.
 */
export class StimkitError extends Error {
  readonly code: string;
  readonly problems: Problem[];
  /** Exit code the CLI should use: 1 for rejected input, 2 for usage. */
  readonly exitCode: number;
  /** What to do about it, when the message does not already say (each problem has its own). */
  readonly fix: string | undefined;

  constructor(code: string, message: string, options: StimkitErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StimkitError';
    this.code = code;
    this.problems = options.problems ?? [];
    this.exitCode = options.exitCode ?? EXIT.rejected;
    this.fix = options.fix;
  }

  /** An error that stands for exactly one problem. */
  static fromProblem(problem: Omit<Problem, 'severity'>, cause?: unknown): StimkitError {
    const p: Problem = { severity: 'error', ...problem };
    return new StimkitError(p.code, formatProblem(p), { problems: [p], cause });
  }

  /** A usage error (exit 2): a bad flag value rather than bad input data. */
  static usage(code: string, message: string, fix?: string): StimkitError {
    return new StimkitError(code, message, { exitCode: EXIT.usage, fix });
  }
}

/** The options of a StimkitError beyond its code and message. */
export interface StimkitErrorOptions {
  problems?: Problem[];
  cause?: unknown;
  exitCode?: number;
  fix?: string;
}

/** The message with its fix appended (`… Fix: …`), as formatProblem ends a problem's line. */
export function withFix(message: string, fix: string | undefined): string {
  if (!fix) return message;
  return `${message}. Fix: ${fix}`.replace(/\.\.(\s|$)/g, '.$1');
}

/** `file:line: field: message (expected X, got Y). Fix: …` on one line. */
export function formatProblem(p: Problem): string {
  const where = [
    p.file && (p.line ? `${p.file}:${p.line}` : p.file),
    p.field,
    p.entry && `entry ${p.entry}`,
  ]
    .filter(Boolean)
    .join(': ');
  const parts = [
    p.expected !== undefined && `expected ${p.expected}`,
    p.got !== undefined && `got ${p.got}`,
  ].filter(Boolean);
  const eg = parts.length > 0 ? ` (${parts.join(', ')})` : '';
  const fix = p.fix ? ` Fix: ${p.fix}` : '';
  return `${where ? `${where}: ` : ''}${p.message}${eg}.${fix}`.replace(/\.\.(\s|$)/g, '.$1');
}

/** Render problems as lines for a human, errors first. */
export function formatProblems(problems: Problem[]): string {
  const sorted = [...problems].sort((a, b) =>
    a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1,
  );
  return sorted
    .map((p) => `  ${p.severity === 'error' ? 'error' : 'warning'} ${p.code}: ${formatProblem(p)}`)
    .join('\n');
}

/** Describe a value for an "expected X, got Y" message: type and a short rendering. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') {
    const s = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    return JSON.stringify(s);
  }
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'function') return 'a function';
  const scalar = value as number | boolean | bigint | symbol;
  return `${String(scalar)} of type ${typeof value}`;
}

/** Turn anything thrown into a message; a StimkitError's fix, if any, ends it (`… Fix: …`). */
export function errorMessage(err: unknown): string {
  if (err instanceof StimkitError) return withFix(err.message, err.fix);
  if (err instanceof Error) return err.message;
  return String(err);
}
