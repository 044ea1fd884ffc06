/**
 * An error as it crosses the worker-thread boundary (structured clone keeps plain data only): a
 * StimkitError keeps its code, message, fix, problems and exit code, so that an entry failing in a
 * worker prints and exits as it would on the main thread (`--jobs 1`); anything else stays an
 * internal error and keeps the worker's stack.
 */
import { errorMessage, EXIT, StimkitError, type Problem } from '../../core/errors.js';

/** An error in plain data. */
export interface WireError {
  /** true for anything but a StimkitError: a bug, printed with its stack. */
  internal: boolean;
  code: string;
  message: string;
  fix?: string;
  problems: Problem[];
  exitCode: number;
  stack?: string;
}

/** The plain-data form of anything thrown. */
function errorToWire(err: unknown): WireError {
  if (err instanceof StimkitError)
    return {
      internal: false,
      code: err.code,
      message: err.message,
      ...(err.fix === undefined ? {} : { fix: err.fix }),
      problems: err.problems,
      exitCode: err.exitCode,
    };
  return {
    internal: true,
    code: 'E_VARIANTS_INTERNAL',
    message: errorMessage(err),
    problems: [],
    exitCode: EXIT.rejected,
    ...(err instanceof Error && err.stack ? { stack: err.stack } : {}),
  };
}

/** The error again, on this side of the boundary. */
export function errorFromWire(w: WireError): Error {
  if (!w.internal)
    return new StimkitError(w.code, w.message, {
      problems: w.problems,
      exitCode: w.exitCode,
      fix: w.fix,
    });
  const err = new Error(w.message);
  if (w.stack) err.stack = w.stack;
  return err;
}

/** Worker → parent: entry `id` failed. */
export type FailedMessage = { type: 'failed'; id: number } & WireError;

/** The message that reports entry `id` failed with `err`. */
export function failedMessage(id: number, err: unknown): FailedMessage {
  return { type: 'failed', id, ...errorToWire(err) };
}
