/** D6 medians per model × language, excluding refusals. */
import { describe, expect, it } from 'vitest';
import { median, medianLengths } from '../../src/audit/length.js';

describe('median ex-refusal length', () => {
  it('median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });
  it('groups by model × language and excludes refusals', () => {
    const L = (n: number) => ({ raw: n, markdown: n - 1, clean: n - 2 });
    const cells = medianLengths([
      { model: 'b', lang: 'zh', lengths: L(100), refused: false },
      { model: 'a', lang: 'en', lengths: L(10), refused: false },
      { model: 'a', lang: 'en', lengths: L(30), refused: null },
      { model: 'a', lang: 'en', lengths: L(5), refused: true },
      { model: 'a', lang: 'en', lengths: L(20), refused: false },
    ]);
    expect(cells).toEqual([
      {
        model: 'a',
        lang: 'en',
        n: 3,
        refusals_excluded: 1,
        median_raw: 20,
        median_markdown: 19,
        median_clean: 18,
      },
      {
        model: 'b',
        lang: 'zh',
        n: 1,
        refusals_excluded: 0,
        median_raw: 100,
        median_markdown: 99,
        median_clean: 98,
      },
    ]);
  });
});
