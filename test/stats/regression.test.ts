/** Logit (IRLS) and OLS with cluster-robust SEs against statsmodels/R vectors; errors for separation and singular designs. */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { buildDesign, buildDesignFromColumns, logit, lrTest, ols } from '../../src/stats/index.js';
import { close, closeAll, loadVectors, VECTORS } from './helpers.js';

const rows: Record<string, string>[] = parse(
  readFileSync(new URL('logit_small_600x30.csv', VECTORS), 'utf8'),
  { columns: true },
);
const y = rows.map((r) => Number(r.y));
const design = buildDesign(rows, {
  predictors: ['zh', 'cn', 'paradigm'],
  reference: { paradigm: 'direct' },
});
const cluster = rows.map((r) => r.cluster!);
const small = loadVectors('logit_cluster').cases.find((c) => c.name === 'small_600x30')!;

describe('logit with cluster-robust SEs (small_600x30)', () => {
  it('names the terms as statsmodels does', () => {
    expect(design.names).toEqual(small.expected.names);
  });
  const e = small.expected;
  for (const correction of ['none', 'G', 'statsmodels'] as const) {
    it(`correction ${correction}`, () => {
      const r = logit(y, design, { cluster, correction });
      closeAll(r.coef, e.coef, 'coef');
      close(r.llf, e.llf, 'llf');
      closeAll(r.seNonrobust, e.se_nonrobust, 'se_nonrobust');
      expect(r.nClusters).toBe(e.n_clusters);
      const x = e[`cluster_${correction}`];
      closeAll(r.se, x.se, 'se');
      closeAll(
        r.terms.map((t) => t.stat),
        x.z,
        'z',
      );
      closeAll(
        r.terms.map((t) => t.p),
        x.p,
        'p',
      );
      closeAll(
        r.terms.map((t) => t.oddsRatio!),
        x.odds_ratio,
        'OR',
      );
      closeAll(
        r.terms.map((t) => t.orLower!),
        x.or_ci_lower,
        'OR lower',
      );
      closeAll(
        r.terms.map((t) => t.orUpper!),
        x.or_ci_upper,
        'OR upper',
      );
    });
  }
  it('defaults to the statsmodels correction', () => {
    closeAll(logit(y, design, { cluster }).se, e.cluster_statsmodels.se, 'se');
  });
});

describe('separation and singular designs are named errors', () => {
  it('quasi-complete separation names the term', () => {
    const sep = rows.map((r) => ({
      ...r,
      flag: r.paradigm === 'indirect' && r.y === '1' ? 'a' : 'b',
    }));
    const d = buildDesign(sep, { predictors: ['zh', 'flag'] });
    expect(() => logit(y, d)).toThrow(
      expect.objectContaining({
        code: 'E_STATS_SEPARATION',
        problems: [expect.objectContaining({ field: 'flag[T.b]' })],
      }),
    );
  });
  it('complete separation by a continuous term names it', () => {
    const xs = y.map((v, i) => (v === 1 ? 1 + (i % 7) : -1 - (i % 5)));
    const d = buildDesign(
      rows.map((r, i) => ({ ...r, score: xs[i]! })),
      { predictors: ['zh', 'score'] },
    );
    expect(() => logit(y, d)).toThrow(
      expect.objectContaining({
        code: 'E_STATS_SEPARATION',
        problems: [expect.objectContaining({ field: 'score' })],
      }),
    );
  });
  it('a large coefficient on a finely scaled predictor is not mistaken for separation', () => {
    const scaled = buildDesign(
      rows.map((r) => ({ ...r, zh: Number(r.zh) / 1000 })),
      { predictors: ['zh', 'cn', 'paradigm'], reference: { paradigm: 'direct' } },
    );
    const r = logit(y, scaled, { cluster });
    close(r.coef[1], small.expected.coef[1] * 1000, 'coef of zh/1000', 1e-6);
    close(r.se[1], small.expected.cluster_statsmodels.se[1] * 1000, 'se of zh/1000', 1e-6);
  });
  it('a duplicated column names the redundant term', () => {
    const d = buildDesign(
      rows.map((r) => ({ ...r, zh2: r.zh })),
      { predictors: ['zh', 'cn', 'zh2'] },
    );
    expect(() => logit(y, d)).toThrow(
      expect.objectContaining({
        code: 'E_STATS_SINGULAR',
        problems: [expect.objectContaining({ field: 'zh2' })],
      }),
    );
    expect(() => ols(y, d)).toThrow(expect.objectContaining({ code: 'E_STATS_SINGULAR' }));
  });
});

describe('ols', () => {
  it('refuses an exact linear relation (no residual variance: every SE would be 0), recovers a near one', () => {
    const d = buildDesign(rows, { predictors: ['zh', 'cn'] });
    const yy = rows.map((r) => 1 + 2 * Number(r.zh) - 0.5 * Number(r.cn));
    expect(() => ols(yy, d)).toThrow(expect.objectContaining({ code: 'E_STATS_PERFECT_FIT' }));
    const noisy = yy.map((v, i) => v + ((i % 3) - 1) * 1e-6);
    const r = ols(noisy, d);
    closeAll(r.coef, [1, 2, -0.5], 'coef', 1e-5);
    close(r.rSquared, 1, 'R2', 1e-9);
  });
  it('refuses a constant outcome and as many rows as coefficients', () => {
    const d = buildDesign(rows, { predictors: ['zh', 'cn'] });
    expect(() =>
      ols(
        rows.map(() => 2),
        d,
      ),
    ).toThrow(expect.objectContaining({ code: 'E_STATS_OUTCOME' }));
    const two = buildDesign(rows.slice(0, 2), { predictors: ['zh'] });
    expect(() => ols([0, 1], two)).toThrow(expect.objectContaining({ code: 'E_STATS_NO_DF' }));
  });
  it('classical SEs equal σ̂²(XᵀX)⁻¹ for a single mean (the one-sample t SE)', () => {
    const yy = y.map((v, i) => v + (i % 3));
    const d = buildDesign(rows, { predictors: [] });
    const r = ols(yy, d);
    const m = yy.reduce((s, v) => s + v, 0) / yy.length;
    const sd = Math.sqrt(yy.reduce((s, v) => s + (v - m) ** 2, 0) / (yy.length - 1));
    close(r.se[0], sd / Math.sqrt(yy.length), 'se', 1e-9);
    expect(r.inference).toBe('t');
  });
});

describe('likelihood-ratio test for an added interaction', () => {
  it('is 2·Δllf on the number of added terms', () => {
    const reduced = logit(y, design);
    const fullD = buildDesign(rows, {
      predictors: ['zh', 'cn', 'paradigm'],
      reference: { paradigm: 'direct' },
      interactions: [['zh', 'paradigm']],
    });
    expect(fullD.names.slice(-2)).toEqual([
      'zh:paradigm[T.abstraction]',
      'zh:paradigm[T.indirect]',
    ]);
    const full = logit(y, fullD);
    const lr = lrTest(reduced, full);
    expect(lr.df).toBe(2);
    close(lr.statistic, 2 * (full.llf - reduced.llf), 'LR', 1e-12);
    close(lr.p, Math.exp(-lr.statistic / 2), 'p (χ²₂ survival = e^(−x/2))', 1e-9);
    expect(() => lrTest(full, reduced)).toThrow(
      expect.objectContaining({ code: 'E_STATS_NOT_NESTED' }),
    );
  });
});

describe('ols with cluster-robust SEs against statsmodels (vectors/ols_cluster.json)', () => {
  const e = loadVectors('ols_cluster').cases[0]!.expected;
  it('classical', () => {
    const r = ols(y, design);
    expect(r.names).toEqual(e.names);
    closeAll(r.coef, e.coef, 'coef');
    closeAll(r.se, e.se_nonrobust, 'se');
    closeAll(
      r.terms.map((t) => t.p),
      e.p_nonrobust,
      'p',
    );
    close(r.rSquared, e.rsquared, 'R2');
    close(r.llf, e.llf, 'llf');
  });
  it('cluster, statsmodels correction, normal inference (the default)', () => {
    const r = ols(y, design, { cluster });
    closeAll(r.se, e.cluster_statsmodels.se, 'se');
    closeAll(
      r.terms.map((t) => t.p),
      e.cluster_statsmodels.p,
      'p',
    );
    closeAll(
      r.terms.map((t) => t.ciLower),
      e.cluster_statsmodels.ci_lower,
      'ci lower',
    );
    closeAll(
      r.terms.map((t) => t.ciUpper),
      e.cluster_statsmodels.ci_upper,
      'ci upper',
    );
  });
  it('cluster, no correction', () => {
    closeAll(ols(y, design, { cluster, correction: 'none' }).se, e.cluster_none.se, 'se');
  });
  it('cluster with use_t: t(G − 1)', () => {
    const r = ols(y, design, { cluster, useT: true });
    expect(r.df).toBe(e.cluster_statsmodels_use_t.df);
    closeAll(
      r.terms.map((t) => t.p),
      e.cluster_statsmodels_use_t.p,
      'p',
    );
    closeAll(
      r.terms.map((t) => t.ciLower),
      e.cluster_statsmodels_use_t.ci_lower,
      'ci lower',
    );
  });
});

describe('design matrix', () => {
  it('from columns equals from rows, factors, numbers and interactions alike', () => {
    const spec = {
      predictors: ['zh', 'paradigm'],
      reference: { paradigm: 'direct' },
      interactions: [['zh', 'paradigm']] as [string, string][],
    };
    const byRows = buildDesign(rows, spec);
    const byCols = buildDesignFromColumns(rows.length, (c) => rows.map((r) => r[c]), spec);
    expect(byCols).toEqual(byRows);
    expect(byRows.names).toEqual([
      'Intercept',
      'zh',
      'paradigm[T.abstraction]',
      'paradigm[T.indirect]',
      'zh:paradigm[T.abstraction]',
      'zh:paradigm[T.indirect]',
    ]);
    const i = rows.findIndex((r) => r.zh === '1' && r.paradigm === 'indirect');
    expect(Array.from(byRows.x.subarray(i * 6, i * 6 + 6))).toEqual([1, 1, 0, 1, 0, 1]);
  });
  it('a column is numeric only when every value is a finite number; else its levels are sorted', () => {
    const d = buildDesign(
      [
        { a: ' 2', b: '1' },
        { a: '1e1', b: 'x' },
        { a: '0', b: ' ' },
      ],
      { predictors: ['a', 'b'] },
    );
    expect(d.names).toEqual(['Intercept', 'a', 'b[T.1]', 'b[T.x]']);
    expect(Array.from(d.x)).toEqual([1, 2, 1, 0, 1, 10, 0, 1, 1, 0, 0, 0]);
  });
});

describe('a numeric column with a reference level', () => {
  it('is a factor whose levels are in numeric order, as patsy C(x)', () => {
    const d = buildDesign([{ w: '10' }, { w: '2' }, { w: '1' }, { w: '2' }], {
      predictors: ['w'],
      reference: { w: '1' },
    });
    expect(d.names).toEqual(['Intercept', 'w[T.2]', 'w[T.10]']);
    expect(d.codings[0]).toMatchObject({
      kind: 'factor',
      levels: ['1', '2', '10'],
      reference: '1',
    });
    expect(Array.from(d.x)).toEqual([1, 0, 1, 1, 1, 0, 1, 0, 0, 1, 1, 0]);
  });
});
