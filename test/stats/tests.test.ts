/** The classical tests against the reference vectors (scipy/statsmodels/R conventions), to 1e-6 relative. */
import { describe, expect, it } from 'vitest';
import {
  holm,
  jonckheere,
  mannWhitney,
  oneSampleT,
  pairedT,
  spearman,
  welchT,
  wilcoxonSignedRank,
  wilson,
} from '../../src/stats/index.js';
import { mcnemar } from '../../src/stats/mcnemar.js';
import { close, closeAll, loadVectors } from './helpers.js';

describe('wilson', () => {
  for (const c of loadVectors('wilson').cases) {
    it(c.name, () => {
      const r = wilson(c.input.x, c.input.n, c.input.conf);
      close(r.pHat, c.expected.p_hat, 'p_hat');
      close(r.lower, c.expected.lower, 'lower');
      close(r.upper, c.expected.upper, 'upper');
      close(r.z, c.expected.z, 'z', 1e-12);
    });
  }
  it('rejects x > n with a coded error', () => {
    expect(() => wilson(5, 3)).toThrow(expect.objectContaining({ code: 'E_STATS_BAD_COUNT' }));
  });
});

describe('holm', () => {
  for (const c of loadVectors('holm').cases) {
    it(c.name, () => closeAll(holm(c.input.p), c.expected.p_adjusted, 'p_adjusted'));
  }
});

describe('mcnemar', () => {
  for (const c of loadVectors('mcnemar').cases) {
    it(c.name, () => {
      const r = mcnemar(c.input.table);
      expect([r.b, r.c]).toEqual([c.expected.b, c.expected.c]);
      close(r.pExact, c.expected.p_exact, 'p_exact');
      close(r.pMidp, c.expected.p_midp, 'p_midp');
      close(r.chi2, c.expected.chi2, 'chi2');
      close(r.pChi2, c.expected.p_chi2, 'p_chi2');
      close(r.chi2Cc, c.expected.chi2_cc, 'chi2_cc');
      close(r.pChi2Cc, c.expected.p_chi2_cc, 'p_chi2_cc');
    });
  }
});

describe('wilcoxon signed-rank', () => {
  for (const c of loadVectors('wilcoxon').cases) {
    it(c.name, () => {
      const r = wilcoxonSignedRank(c.input.x, c.input.y);
      const e = c.expected;
      expect({ n: r.n, nZero: r.nZero, method: r.method, ties: [...r.ties].sort() }).toEqual({
        n: e.n,
        nZero: e.n_zero,
        method: e.method,
        ties: [...e.ties].sort(),
      });
      close(r.wPlus, e.W_plus, 'W+');
      close(r.wMinus, e.W_minus, 'W-');
      close(r.T, e.T, 'T');
      close(r.p, e.p, 'p');
      close(r.z, e.z, 'z');
    });
  }
  it('has no p when no difference is non-zero (nothing to rank; scipy refuses it)', () => {
    expect(wilcoxonSignedRank([0, 0, 0])).toMatchObject({
      n: 0,
      nZero: 3,
      method: 'none',
      p: null,
    });
    expect(wilcoxonSignedRank([1, 2], [1, 2])).toMatchObject({ n: 0, method: 'none', p: null });
  });
});

describe('t tests', () => {
  for (const c of loadVectors('ttests').cases) {
    it(c.name, () => {
      const e = c.expected;
      if (c.input.mu0 !== undefined) {
        const r = oneSampleT(c.input.x, c.input.mu0);
        expect([r.n, r.df]).toEqual([e.n, e.df]);
        close(r.mean, e.mean, 'mean');
        close(r.sd, e.sd, 'sd');
        close(r.t, e.t, 't');
        close(r.p, e.p, 'p');
        closeAll(r.ci, e.ci95, 'ci95');
        // paired = one-sample of the differences
        const paired = pairedT(
          c.input.x.map((v: number) => v + 3),
          c.input.x.map(() => 3 + c.input.mu0),
        );
        close(paired.t, e.t, 'paired t', 1e-9);
      } else {
        const r = welchT(c.input.x, c.input.y);
        close(r.t, e.t, 't');
        close(r.df, e.df, 'df');
        close(r.p, e.p, 'p');
        close(r.meanDiff, e.mean_diff, 'mean_diff');
        closeAll(r.ci, e.ci95, 'ci95');
      }
    });
  }
});

describe('mann-whitney', () => {
  for (const c of loadVectors('mannwhitney').cases) {
    it(c.name, () => {
      const r = mannWhitney(c.input.x, c.input.y);
      const e = c.expected;
      expect({ n1: r.n1, n2: r.n2, method: r.method }).toEqual({
        n1: e.n1,
        n2: e.n2,
        method: e.method,
      });
      expect([...r.ties].sort()).toEqual([...e.ties].sort());
      close(r.U1, e.U1, 'U1');
      close(r.U2, e.U2, 'U2');
      close(r.p, e.p, 'p');
      close(r.z, e.z, 'z');
    });
  }
});

describe('spearman', () => {
  for (const c of loadVectors('spearman').cases) {
    it(c.name, () => {
      const r = spearman(c.input.x, c.input.y);
      close(r.rho, c.expected.rho, 'rho');
      close(r.t, c.expected.t, 't');
      close(r.p, c.expected.p, 'p');
      expect(r.n).toBe(c.expected.n);
    });
  }
});

describe('jonckheere-terpstra', () => {
  for (const c of loadVectors('jonckheere').cases) {
    it(c.name, () => {
      const r = jonckheere(c.input.groups);
      const e = c.expected;
      expect(r.n).toEqual(e.n);
      expect([...r.ties].sort()).toEqual([...e.ties].sort());
      close(r.J, e.J, 'J');
      close(r.mean, e.mean, 'mean');
      close(r.var, e.var, 'var');
      close(r.z, e.z, 'z');
      close(r.pTwoSidedNormal, e.p_two_sided_normal, 'p two-sided');
      close(r.pIncreasingNormal, e.p_increasing_normal, 'p increasing');
      close(r.pIncreasingExact, e.p_increasing_exact, 'p increasing exact');
      close(r.pTwoSidedExact, e.p_two_sided_exact, 'p two-sided exact');
    });
  }
});

describe('t tests on constant samples', () => {
  it('p is 0 when the mean differs from the null value and 1 when it equals it, CI collapsed to the value', () => {
    expect(oneSampleT([1, 1, 1, 1])).toMatchObject({ t: Infinity, p: 0, ci: [1, 1] });
    expect(oneSampleT([0, 0, 0])).toMatchObject({ p: 1, ci: [0, 0] });
    expect(welchT([1, 1, 1], [2, 2, 2])).toMatchObject({
      meanDiff: -1,
      t: -Infinity,
      p: 0,
      ci: [-1, -1],
    });
    expect(welchT([2, 2], [2, 2, 2])).toMatchObject({ meanDiff: 0, p: 1, ci: [0, 0] });
  });
});
