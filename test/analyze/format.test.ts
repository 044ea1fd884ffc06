/** The p-value format of the human tables. */
import { describe, expect, it } from 'vitest';
import { fp } from '../../src/analyze/format.js';

describe('fp', () => {
  it('3 significant digits, scientific below 0.001, "< 1e-300" for a p that underflowed to 0, a dash for none', () => {
    expect(fp(0.04567)).toBe('0.0457');
    expect(fp(1.234e-5)).toBe('1.23e-5');
    expect(fp(0)).toBe('< 1e-300');
    expect(fp(null)).toBe('—');
    expect(fp(Number.NaN)).toBe('—');
  });
});
