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

describe('agreement', () => {
  for (const c of loadVectors('agreement').cases) {
    it(c.name, () => {
      const { input: i, expected: e } = c;
      if (i.rater1) {
        const opts = { categories: i.categories };
        if (e.cohen) cohenFields(cohenKappa(i.rater1, i.rater2, opts), e.cohen, 'cohen');
        for (const w of ['unweighted', 'linear', 'quadratic'] as const) {
          if (e[w])
            cohenFields(
              cohenKappa(i.rater1, i.rater2, { ...opts, weights: w === 'unweighted' ? 'none' : w }),
              e[w],
              w,
            );
        }
        const { counts } = ratingCounts(
          i.rater1.map((v: number, k: number) => [v, i.rater2[k]]),
          i.categories,
        );
        if (e.gwet_ac1) {
          const g = gwetAc1(counts);
          close(g.ac1, e.gwet_ac1.ac1, 'ac1');
          close(g.pa, e.gwet_ac1.pa, 'pa');
          close(g.pe, e.gwet_ac1.pe, 'pe');
          closeAll(g.piK, e.gwet_ac1.pi_k, 'pi_k');
        }
        if (e.fleiss) {
          const f = fleissKappa(counts);
          close(f.kappa, e.fleiss.kappa, 'fleiss');
          close(f.pBar, e.fleiss.P_bar, 'P_bar');
          close(f.pE, e.fleiss.P_e, 'P_e');
          closeAll(f.pK, e.fleiss.p_k, 'p_k');
        }
      } else {
        const { counts } = ratingCounts(i.ratings, i.categories);
        expect(counts).toEqual(i.counts);
        const g = gwetAc1(counts);
        close(g.ac1, e.gwet_ac1.ac1, 'ac1');
        close(g.pa, e.gwet_ac1.pa, 'pa');
        close(g.pe, e.gwet_ac1.pe, 'pe');
        const f = fleissKappa(counts);
        close(f.kappa, e.fleiss.kappa, 'fleiss');
        close(f.pBar, e.fleiss.P_bar, 'P_bar');
        close(f.pE, e.fleiss.P_e, 'P_e');
        for (const [pair, kappa] of Object.entries(
          e.pairwise_cohen_kappa as Record<string, number>,
        )) {
          const [a, b] = [Number(pair[0]), Number(pair[1])];
          close(
            cohenKappa(
              i.ratings.map((r: number[]) => r[a]),
              i.ratings.map((r: number[]) => r[b]),
              { categories: i.categories },
            ).kappa,
            kappa,
            `kappa ${pair}`,
          );
        }
      }
    });
  }
  it('an unused category changes the weighted kappas only through q (vector uses the fixed list)', () => {
    expect(() => cohenKappa([1, 2], [1, 9], { categories: [1, 2, 3] })).toThrow(
      expect.objectContaining({ code: 'E_STATS_UNKNOWN_LABEL' }),
    );
  });
});
