/** The StimkitError a promise rejects with (the test fails when it resolves or throws another). */
import { expect } from 'vitest';
import { StimkitError } from '../../src/core/errors.js';

export async function stimkitRejection(p: Promise<unknown>): Promise<StimkitError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StimkitError);
  return err as StimkitError;
}
