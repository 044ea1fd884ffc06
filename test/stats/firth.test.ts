/**
 * Firth's penalised logistic regression against R logistf's published numbers (sex2 and the
 * endometrial data of Heinze & Schemper 2002; provenance in vectors/logistf/PROVENANCE.md).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { buildDesign, detectSeparation, firth, firthTest, logit } from '../../src/stats/index.js';
import { close, closeAll } from './helpers.js';

const DIR = new URL('./vectors/logistf/', import.meta.url);
const vectors = JSON.parse(readFileSync(new URL('logistf.json', DIR), 'utf8')) as {
  cases: { name: string; input: any; expected: any }[];
};
const get = (name: string) => vectors.cases.find((c) => c.name === name)!;

function load(input: { data: string; outcome: string; predictors: string[] }) {
  const rows: Record<string, string>[] = parse(readFileSync(new URL(input.data, DIR), 'utf8'), {
    columns: true,
  });
  const y = rows.map((r) => Number(r[input.outcome]));
  return { y, design: buildDesign(rows, { predictors: input.predictors }) };
}

describe('firth on logistf sex2', () => {
  const { y, design } = load(get('sex2_logistf_tests').input);
  const fit = firth(y, design);
  it("matches logistf's own test expectations", () => {
    const e = get('sex2_logistf_tests').expected;
    expect(fit.names).toEqual(e.names);
    closeAll(fit.coef, e.coef, 'coef');
  });
  it('matches the profile intervals of logistf', () => {
    const e = get('sex2_logistf_profile').expected;
    closeAll(fit.coef, e.coef, 'coef');
    closeAll(
      fit.terms.map((t) => t.ciLower),
      e.ci_lower,
      'ci lower',
    );
    closeAll(
      fit.terms.map((t) => t.ciUpper),
      e.ci_upper,
      'ci upper',
    );
    closeAll(
      fit.terms.map((t) => t.orLower!),
      e.ci_lower.map(Math.exp),
      'OR lower',
    );
  });
  it('matches the penalised LR tests printed in the logistf 1.01 manual', () => {
    const e = get('sex2_logistf_1.01_manual').expected;
    closeAll(
      fit.terms.map((t) => t.stat),
      e.chisq,
      'chisq',
    );
    closeAll(
      fit.terms.map((t) => t.p),
      e.p,
      'p',
    );
    closeAll(fit.se, e.se, 'se', 1e-5);
    close(fit.llf, e.loglik, 'penalised loglik', 1e-6);
    const all = firthTest(y, design, fit.llf, new Map(fit.names.map((_, j) => [j, 0])));
    close(all.statistic, e.test_all_zero.statistic, 'LR all = 0');
    expect(all.df).toBe(7);
    close(all.llfReduced, e.test_all_zero.llf_restricted, 'restricted loglik', 1e-6);
    const vv = firthTest(
      y,
      design,
      fit.llf,
      new Map([
        [3, 2],
        [4, 0],
      ]),
    );
    close(vv.statistic, e.test_vic_2_vicl_0.statistic, 'LR vic = 2, vicl = 0');
    close(vv.llfReduced, e.test_vic_2_vicl_0.llf_restricted, 'restricted loglik', 1e-6);
  });
  it('gives the model-wide penalised LR test with the intercept free', () => {
    expect(fit.lr!.df).toBe(6);
    expect(fit.lr!.statistic).toBeCloseTo(2 * (fit.llf - fit.llfNull!), 12);
    expect(fit.method).toBe('firth');
    expect(fit.inference).toBe('profile');
  });
});

describe('firth on the endometrial data (quasi-separation by NV)', () => {
  const { y, design } = load(get('endometrial_logistf').input);
  it('maximum likelihood refuses the data, naming NV', () => {
    expect(() => logit(y, design)).toThrow(/separated by term "NV"/);
  });
  it("matches logistf's estimates and profile intervals", () => {
    const e = get('endometrial_logistf').expected;
    const fit = firth(y, design);
    closeAll(fit.coef, e.coef, 'coef');
    closeAll(
      fit.terms.map((t) => t.ciLower),
      e.ci_lower,
      'ci lower',
    );
    closeAll(
      fit.terms.map((t) => t.ciUpper),
      e.ci_upper,
      'ci upper',
    );
  });
});

describe('detectSeparation (linear programming)', () => {
  it('names the quasi-separating term of each logistf example, and its sign', async () => {
    const sex2 = load(get('sex2_logistf_tests').input);
    // no woman with dia = 1 is a control: dia's ML estimate is +∞ (why logistf's example needs Firth)
    expect(await detectSeparation(sex2.design, sex2.y)).toEqual({
      kind: 'quasi-complete',
      terms: [{ term: 'dia', direction: '+∞' }],
    });
    const endo = load(get('endometrial_logistf').input);
    expect(await detectSeparation(endo.design, endo.y)).toEqual({
      kind: 'quasi-complete',
      terms: [{ term: 'NV', direction: '+∞' }],
    });
  });
  it('tells complete separation and none', async () => {
    const rows = [1, 2, 3, 4, 5, 6].map((x) => ({ x: String(x) }));
    const d = buildDesign(rows, { predictors: ['x'] });
    const complete = await detectSeparation(d, [0, 0, 0, 1, 1, 1]);
    expect(complete.kind).toBe('complete');
    expect(complete.terms.find((t) => t.term === 'x')).toEqual({ term: 'x', direction: '+∞' });
    expect(await detectSeparation(d, [0, 1, 0, 1, 1, 0])).toEqual({ kind: 'none', terms: [] });
  });
  it('tells complete separation whatever the scale of the covariate (1e-7 … 6e-7 and 1e6 … 6e6)', async () => {
    for (const scale of [1e-7, 1, 1e6]) {
      const rows = [1, 2, 3, 4, 5, 6].map((x) => ({ x: x * scale }));
      const d = buildDesign(rows, { predictors: ['x'] });
      const r = await detectSeparation(d, [0, 0, 0, 1, 1, 1]);
      expect(r.kind, `scale ${scale}`).toBe('complete');
      expect(r.terms.find((t) => t.term === 'x')).toEqual({ term: 'x', direction: '+∞' });
    }
  });
});
