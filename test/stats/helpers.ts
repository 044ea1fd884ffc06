/** Shared helpers for the statistics tests: load a vector file, compare to 1e-6 relative. */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';

export const VECTORS = new URL('./vectors/', import.meta.url);

/** Load test/stats/vectors/<name>.json. */
export function loadVectors(name: string): {
  definition: unknown;
  cases: { name: string; input: any; expected: any }[];
} {
  return JSON.parse(readFileSync(new URL(`${name}.json`, VECTORS), 'utf8'));
}

/** |actual − expected| ≤ rel·|expected| (absolute `rel` when expected is 0); null expects null. */
export function close(
  actual: number | null | undefined,
  expected: number | null,
  what: string,
  rel = 1e-6,
): void {
  if (expected === null) {
    expect(actual ?? null, what).toBeNull();
    return;
  }
  expect(typeof actual, what).toBe('number');
  const tol = expected === 0 ? rel * 1e-3 : rel * Math.abs(expected);
  expect(
    Math.abs((actual as number) - expected),
    `${what}: got ${actual}, expected ${expected}`,
  ).toBeLessThanOrEqual(tol);
}

/** Element-wise `close`. */
export function closeAll(
  actual: readonly number[],
  expected: readonly number[],
  what: string,
  rel = 1e-6,
): void {
  expect(actual.length, what).toBe(expected.length);
  expected.forEach((e, i) => close(actual[i], e, `${what}[${i}]`, rel));
}
