/**
 * `compare` uses src/stats/mcnemar.ts's `pExact`. It must be statsmodels'
 * `statsmodels.stats.contingency_tables.mcnemar(table, exact=True)`, which computes (statsmodels
 * source, `mcnemar`): `statistic = min(b, c); pvalue = min(1, 2 * binom.cdf(statistic, b + c, 0.5))`
 * with b = table[0][1], c = table[1][0]. The expected values below were computed by hand from
 * that definition in exact rational arithmetic (Python `fractions.Fraction`, Σ C(n, i) / 2ⁿ for
 * i ≤ min(b, c), doubled and capped at 1), then written as the nearest double:
 *   [[4, 2], [1, 3]]       → 1            (2 · 4/8, capped)
 *   [[10, 5], [0, 10]]     → 1/16         (2 · 1/32)
 *   [[3, 12], [3, 8]]      → 9/256        (2 · 576/32768)
 *   [[101, 121], [59, 33]] → 4.434449263755176e-06 (statsmodels' own test table f_obs1)
 *   [[0, 1], [9, 0]]       → 11/512
 *   [[5, 7], [7, 5]]       → 1            (b = c)
 *   [[9, 0], [0, 9]]       → 1            (b + c = 0: binom.cdf(0, 0, ½) = 1, doubled, capped)
 */
import { describe, expect, it } from 'vitest';
import { mcnemar } from '../../src/stats/mcnemar.js';

const CASES: Array<[number[][], number]> = [
  [
    [
      [4, 2],
      [1, 3],
    ],
    1,
  ],
  [
    [
      [10, 5],
      [0, 10],
    ],
    1 / 16,
  ],
  [
    [
      [3, 12],
      [3, 8],
    ],
    9 / 256,
  ],
  [
    [
      [101, 121],
      [59, 33],
    ],
    4.434449263755176e-6,
  ],
  [
    [
      [0, 1],
      [9, 0],
    ],
    11 / 512,
  ],
  [
    [
      [5, 7],
      [7, 5],
    ],
    1,
  ],
  [
    [
      [9, 0],
      [0, 9],
    ],
    1,
  ],
];

describe('exact McNemar as statsmodels mcnemar(exact=True)', () => {
  for (const [table, p] of CASES)
    it(`${JSON.stringify(table)} → ${p}`, () => {
      expect(mcnemar(table).pExact).toBeCloseTo(p, 14);
      expect(Math.abs(mcnemar(table).pExact - p) / p).toBeLessThan(1e-12);
    });
});
