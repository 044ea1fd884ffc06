/** Cohen's kappa (three weightings), Fleiss' kappa and Gwet's AC1 against the reference vectors. */
import { describe, expect, it } from 'vitest';
import { cohenKappa, fleissKappa, gwetAc1, ratingCounts } from '../../src/stats/index.js';
import { close, closeAll, loadVectors } from './helpers.js';

const cohenFields = (r: ReturnType<typeof cohenKappa>, e: any, what: string) => {
  close(r.kappa, e.kappa, `${what} kappa`);
  close(r.po, e.po, `${what} po`);
  close(r.pe, e.pe, `${what} pe`);
  close(r.weightedDisagreementObserved, e.weighted_disagreement_observed, `${what} dObs`);
  close(r.weightedDisagreementExpected, e.weighted_disagreement_expected, `${what} dExp`);
};

type Check = (key: string, fn: (value: any) => void) => void;

/** Gwet's AC1 and Fleiss' kappa of rating counts against the vector (`perCategory`: also π_k, p_k). */
function chanceCorrected(counts: number[][], check: Check, perCategory: boolean): void {
  check('gwet_ac1', (x) => {
    const g = gwetAc1(counts);
    close(g.ac1, x.ac1, 'ac1');
    close(g.pa, x.pa, 'pa');
    close(g.pe, x.pe, 'pe');
    if (perCategory) closeAll(g.piK, x.pi_k, 'pi_k');
  });
  check('fleiss', (x) => {
    const f = fleissKappa(counts);
    close(f.kappa, x.kappa, 'fleiss');
    close(f.pBar, x.P_bar, 'P_bar');
    close(f.pE, x.P_e, 'P_e');
    if (perCategory) closeAll(f.pK, x.p_k, 'p_k');
  });
}

/**
 * The expected keys a case of each kind must carry, all of them checked below: a vector that
 * loses one (or gains one no test reads) fails instead of being skipped.
 */
const SHAPES = [
  ['cohen', 'fleiss', 'gwet_ac1'],
  ['linear', 'quadratic', 'unweighted'],
  ['fleiss', 'gwet_ac1', 'mean_pairwise_cohen_kappa', 'pairwise_cohen_kappa'],
];

describe('agreement', () => {
  for (const c of loadVectors('agreement').cases) {
    it(c.name, () => {
      const { input: i, expected: e } = c;
      expect(SHAPES, `${c.name}: expected keys ${Object.keys(e).sort().join(', ')}`).toContainEqual(
        Object.keys(e).sort(),
      );
      const checked = new Set<string>();
      const check: Check = (key, fn) => {
        if (!(key in e)) return;
        fn(e[key]);
        checked.add(key);
      };
      if (i.rater1) {
        const opts = { categories: i.categories };
        check('cohen', (x) => cohenFields(cohenKappa(i.rater1, i.rater2, opts), x, 'cohen'));
        for (const w of ['unweighted', 'linear', 'quadratic'] as const)
          check(w, (x) =>
            cohenFields(
              cohenKappa(i.rater1, i.rater2, { ...opts, weights: w === 'unweighted' ? 'none' : w }),
              x,
              w,
            ),
          );
        const { counts } = ratingCounts(
          i.rater1.map((v: number, k: number) => [v, i.rater2[k]]),
          i.categories,
        );
        chanceCorrected(counts, check, true);
      } else {
        const { counts } = ratingCounts(i.ratings, i.categories);
        expect(counts).toEqual(i.counts);
        chanceCorrected(counts, check, false);
        const pairwise: number[] = [];
        check('pairwise_cohen_kappa', (x: Record<string, number>) => {
          for (const [pair, kappa] of Object.entries(x)) {
            const [a, b] = [Number(pair[0]), Number(pair[1])];
            const k = cohenKappa(
              i.ratings.map((r: number[]) => r[a]),
              i.ratings.map((r: number[]) => r[b]),
              { categories: i.categories },
            ).kappa;
            close(k, kappa, `kappa ${pair}`);
            pairwise.push(k);
          }
        });
        check('mean_pairwise_cohen_kappa', (x: number) =>
          close(pairwise.reduce((s, k) => s + k, 0) / pairwise.length, x, 'mean pairwise kappa'),
        );
      }
      expect([...checked].sort(), `${c.name}: every expected key checked`).toEqual(
        Object.keys(e).sort(),
      );
    });
  }
  it('an unused category changes the weighted kappas only through q (vector uses the fixed list)', () => {
    expect(() => cohenKappa([1, 2], [1, 9], { categories: [1, 2, 3] })).toThrow(
      expect.objectContaining({ code: 'E_STATS_UNKNOWN_LABEL' }),
    );
  });
});
