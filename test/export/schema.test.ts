/** inspectValidator compiles each validator once (a test that checks 1,056 samples asks 1,056 times). */
import { describe, expect, it } from 'vitest';
import { inspectValidator } from './schema.js';

describe('inspectValidator', () => {
  it('returns the one compiled validator of a schema, and another for a list of it', () => {
    const sample = inspectValidator('EvalSample');
    expect(inspectValidator('EvalSample')).toBe(sample);
    const list = inspectValidator('EvalSample', true);
    expect(list).not.toBe(sample);
    expect(inspectValidator('EvalSample', true)).toBe(list);
    // still a validator: a list of one invalid sample fails, the empty list passes
    expect(list([{}])).toBe(false);
    expect(list([])).toBe(true);
  });
});
