/**
 * A stand-in worker for the entry pool: every entry fails with the StimkitError below, sent by the
 * pool's own `failedMessage`. Imported on the main thread too, for the same error.
 */
import { parentPort } from 'node:worker_threads';
import { StimkitError } from '../../../src/core/errors.js';
import { failedMessage } from '../../../src/variants/pool/wire.js';

/** A usage-style error (exit 2) with two problems and a fix: everything that must cross. */
export function entryError(): StimkitError {
  return new StimkitError('E_TEST_ENTRY', 'entry e1: 2 problem(s)', {
    exitCode: 2,
    fix: 'correct both problems',
    problems: [
      {
        code: 'E_TEST_ONE',
        severity: 'error',
        file: 'a.yaml',
        line: 3,
        field: 'x',
        message: 'x is wrong',
        expected: 'a number',
        got: '"y"',
        fix: 'write a number',
      },
      { code: 'E_TEST_TWO', severity: 'warning', entry: 'e1', message: 'z looks odd' },
    ],
  });
}

const port = parentPort;
port?.on('message', (m: { id: number }) => port.postMessage(failedMessage(m.id, entryError())));
