/**
 * What commands print: human text on stderr, a machine-readable summary on stdout with `--json`.
 */
import {
  errorMessage,
  EXIT,
  formatProblem,
  formatProblems,
  StimkitError,
  withFix,
} from '../core/errors.js';

/** Where a command writes; tests pass their own sinks. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export const processIo: Io = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
};

/** What a command returns: its JSON summary, its human summary and its exit code. */
export interface CommandResult {
  summary: unknown;
  human: string;
  exitCode: number;
}

/** Print a command's result and return its exit code. */
export function emitResult(io: Io, json: boolean, result: CommandResult): number {
  if (result.human) io.stderr(result.human.endsWith('\n') ? result.human : `${result.human}\n`);
  if (json) io.stdout(`${JSON.stringify(result.summary, null, 2)}\n`);
  return result.exitCode;
}

/** Print an error (all its problems) and return the exit code it calls for. */
export function emitError(io: Io, json: boolean, err: unknown): number {
  if (err instanceof StimkitError) {
    const lines = [`stimkit: error ${err.code}: ${withFix(err.message, err.fix)}`];
    if (
      err.problems.length > 0 &&
      !(err.problems.length === 1 && formatProblem(err.problems[0]!) === err.message)
    ) {
      lines.push(formatProblems(err.problems));
    }
    io.stderr(`${lines.join('\n')}\n`);
    if (json) {
      io.stdout(
        `${JSON.stringify({ ok: false, error: { code: err.code, message: err.message, ...(err.fix ? { fix: err.fix } : {}), problems: err.problems } }, null, 2)}\n`,
      );
    }
    return err.exitCode;
  }
  const message = errorMessage(err);
  io.stderr(
    `stimkit: internal error: ${message}\n${err instanceof Error && err.stack ? err.stack : ''}\n`,
  );
  if (json)
    io.stdout(
      `${JSON.stringify({ ok: false, error: { code: 'E_INTERNAL', message } }, null, 2)}\n`,
    );
  return EXIT.rejected;
}
