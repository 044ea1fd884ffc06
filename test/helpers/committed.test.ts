/** Tests that need a committed fixture fail, saying how to make it, when it is missing. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './cli.js';
import {
  DEMO_VARIANTS_LOCK,
  requireCommitted,
  requirePresent,
  skippedOnRequest,
} from './committed.js';

describe('committed fixtures', () => {
  it('the demo variants are committed (the demo, audit, sim and run tests need them)', () => {
    expect(() => requireCommitted(DEMO_VARIANTS_LOCK)).not.toThrow();
  });

  it('a missing one fails with the command that makes it', () => {
    expect(() =>
      requireCommitted(path.join(ROOT, 'variants', 'gone', 'variants.lock.json')),
    ).toThrow(
      /variants\/gone\/variants\.lock\.json is missing, so these tests cannot run: restore it from git/,
    );
  });

  it('a missing dependency skips only on request, and otherwise fails naming the variable', () => {
    expect(skippedOnRequest(false, 'STIMKIT_TEST_UNSET_VARIABLE', 'x')).toBe(false);
    expect(skippedOnRequest(true, 'PATH', 'x')).toBe(false);
    expect(() => requirePresent(false, 'python3', 'STIMKIT_NO_PYTHON')).toThrow(
      /python3 is missing, so these tests cannot run: install it, or set STIMKIT_NO_PYTHON=1/,
    );
  });
});
