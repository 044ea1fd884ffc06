/**
 * The wild cluster bootstrap against the published example of Stata's boottest (help file:
 * `regress hasinsurance selfemployed post post_self, cluster(year)`; `boottest post_self=.04`).
 * Provenance: vectors/boottest/PROVENANCE.md.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { buildDesign, ols } from '../../src/stats/index.js';
import { wildClusterBootstrap, type WildWeights } from '../../src/stats/wildboot.js';

const DIR = new URL('./vectors/boottest/', import.meta.url);
const ref = JSON.parse(readFileSync(new URL('boottest.json', DIR), 'utf8'));
const rows: Record<string, string>[] = parse(readFileSync(new URL(ref.input.data, DIR), 'utf8'), {
  columns: true,
});
const y = rows.map((r) => Number(r[ref.input.outcome]));
const design = buildDesign(rows, { predictors: ref.input.predictors });
const years = rows.map((r) => r[ref.input.cluster]!);
const G = new Set(years).size;

function run(c: any, extra: { conf?: number | null; r?: number } = {}) {
  return wildClusterBootstrap(y, design, years, {
    term: design.names.indexOf(c.test.term),
    r: c.test.r,
    weights: c.test.weights as WildWeights,
    reps: c.test.reps,
    ...extra,
  });
}

describe("wild cluster bootstrap: boottest's help-file example", () => {
  const [rademacher, webb, post] = ref.cases;
  it('reproduces the t statistic (the clustered t of regress) and the enumerated Rademacher p', () => {
    const r = run(rademacher);
    expect(G).toBe(8);
    expect(r.enumerated).toBe(true);
    expect(r.draws).toBe(rademacher.expected.draws);
    expect(r.t!.toFixed(4)).toBe(rademacher.expected.t.toFixed(4));
    expect(r.p!.toFixed(4)).toBe(rademacher.expected.p.toFixed(4)); // 19/256
    const fit = ols(y, design, { cluster: years });
    const j = design.names.indexOf('post_self');
    expect(r.t!).toBeCloseTo((fit.coef[j]! - 0.04) / fit.se[j]!, 10);
  });
  it('finds the exact steps of p(r) across 0.05, near the bounds boottest prints', () => {
    const r = run(rademacher);
    for (const [i, b] of rademacher.expected.ci.entries()) {
      // boottest stops its search on the step function p(r) early (see PROVENANCE.md)
      expect(Math.abs(run(rademacher, { r: b, conf: null }).p! - 0.05)).toBeLessThanOrEqual(
        3 / 256,
      );
      expect(Math.abs(r.ci![i]! - b)).toBeLessThan(0.02 * Math.abs(b));
      // stimkit's bound is the exact step of p(r) across 0.05, on the same side of the estimate
      expect(Math.sign(r.ci![i]! - r.estimate)).toBe(Math.sign(b - r.estimate));
      expect(
        run(rademacher, { r: r.ci![i]! + (i === 0 ? 1e-7 : -1e-7), conf: null }).p,
      ).toBeGreaterThan(0.05);
      expect(
        run(rademacher, { r: r.ci![i]! + (i === 0 ? -1e-7 : 1e-7), conf: null }).p,
      ).toBeLessThanOrEqual(0.05);
    }
  });
  it('gives the separate test of post within 1/2^G of boottest (ties are rounding there)', () => {
    const r = run(post);
    expect(r.t!.toFixed(4)).toBe(post.expected.t.toFixed(4));
    expect(Math.abs(r.p! - post.expected.p)).toBeLessThanOrEqual(1 / 2 ** G);
    for (const [i, b] of post.expected.ci.entries()) {
      expect(Math.abs(run(post, { r: b, conf: null }).p! - 0.05)).toBeLessThanOrEqual(3 / 256);
      expect(Math.abs(r.ci![i]! - b)).toBeLessThan(0.02 * Math.abs(b));
    }
  });
  it("enumerates all 6^8 Webb vectors: the exact p that boottest's 9,999,999 draws estimate", () => {
    const r = run(webb, { conf: null });
    expect(r.enumerated).toBe(true);
    expect(r.draws).toBe(6 ** 8);
    expect(Math.abs(r.p! - webb.expected.p)).toBeLessThan(0.0003); // 3.5 Monte Carlo SEs of boottest's p
  });
  it('draws from a seeded stream when the weights cannot be enumerated', () => {
    const a = run({ test: { ...webb.test, reps: 999 } }, { conf: null });
    const b = run({ test: { ...webb.test, reps: 999 } }, { conf: null });
    expect(a.enumerated).toBe(false);
    expect(a.draws).toBe(999);
    expect(a.p).toBe(b.p);
    expect(Math.abs(a.p! - webb.expected.p)).toBeLessThan(0.03);
  });
  it('gives no test for a coefficient the clusters fit exactly, and no interval no p can reach', () => {
    // 3 clusters, the cluster itself as a factor (2 dummies, fitted exactly) and a within-cluster regressor z
    const rowsX = Array.from({ length: 30 }, (_, i) => ({
      g: 'abc'[i % 3]!,
      b: i % 3 === 1 ? '1' : '0',
      z: i % 2 ? '1' : '-1', // balanced within each cluster, as lang and framing in the instrument
    }));
    const yy = rowsX.map((r, i) => Number(r.b) + 0.3 * Number(r.z) + (((i * 13) % 7) - 3) / 10);
    const dd = buildDesign(rowsX, { predictors: ['g', 'z'] });
    const labels = rowsX.map((r) => r.g);
    const b = wildClusterBootstrap(yy, dd, labels, { term: 1 });
    expect([b.t, b.p, b.ci]).toEqual([null, null, null]);
    expect(b.note).toMatch(/cluster-robust variance of g\[T.b\] is 0/);
    const z = wildClusterBootstrap(yy, dd, labels, { term: 3 });
    expect(z.draws).toBe(8);
    expect(z.p).toBeGreaterThanOrEqual(1 / 8);
    expect(z.ci).toBeNull();
    expect(z.note).toMatch(/smallest attainable p is 0.125/);
  });
});
