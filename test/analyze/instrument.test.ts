/**
 * analyzeInstrument against values computed independently with scipy/statsmodels
 * (fixtures/make_instrument_fixture.py → instrument_small.expected.json), to 1e-6 relative.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeInstrument } from '../../src/analyze/instrument/index.js';
import { stanceOf } from '../../src/analyze/instrument/types.js';
import { readInstrumentTable } from '../../src/analyze/instrument-csv.js';
import { close } from '../stats/helpers.js';

const FIX = new URL('./fixtures/', import.meta.url);
const csv = new URL('instrument_small.csv', FIX).pathname;
const e = JSON.parse(readFileSync(new URL('instrument_small.expected.json', FIX), 'utf8'));
const a = analyzeInstrument(readInstrumentTable(csv).rows);

describe('keying (Methods 4.4)', () => {
  it('flips once for a minus-keyed affirmative pole and once for reverse framing', () => {
    expect(stanceOf({ key: 'plus', framing: 'affirmative', score: 2 })).toBe(2);
    expect(stanceOf({ key: 'minus', framing: 'affirmative', score: 2 })).toBe(-2);
    expect(stanceOf({ key: 'plus', framing: 'reverse', score: 2 })).toBe(-2);
    expect(stanceOf({ key: 'minus', framing: 'reverse', score: 2 })).toBe(2);
    expect(Object.is(stanceOf({ key: 'minus', framing: 'affirmative', score: 0 }), 0)).toBe(true);
  });
});

describe('analyzeInstrument vs scipy/statsmodels', () => {
  it('cells: mean, sd, n', () => {
    expect(a.cells.length).toBe(e.cells.length);
    for (const c of e.cells) {
      const g = a.cells.find(
        (x) =>
          x.model === c.model &&
          x.topic === c.topic &&
          x.lang === c.lang &&
          x.framing === c.framing,
      )!;
      expect(g.n).toBe(c.n);
      close(g.mean, c.mean, 'mean');
      close(g.sd, c.sd, 'sd');
    }
  });
  it('per model: net, swing, raw, t and Wilcoxon on cells and collapsed values, Holm', () => {
    for (const [model, x] of Object.entries<any>(e.models)) {
      const m = a.models.find((v) => v.model === model)!;
      close(m.net, x.net, `${model} net`);
      close(m.swing, x.swing, `${model} swing`);
      close(m.raw, x.raw, `${model} raw`);
      close(m.cellTest!.t, x.t, `${model} t`);
      close(m.cellTest!.pT, x.pT, `${model} pT`);
      close(m.cellTest!.pWilcoxon, x.pW, `${model} pW`);
      close(m.collapsedTest!.pT, x.pTCollapsed, `${model} pT collapsed`);
      close(m.collapsedTest!.pWilcoxon, x.pWCollapsed, `${model} pW collapsed`);
      close(m.cellTest!.pTHolm, x.pTHolm, `${model} Holm`);
      // cell-level swing averaged over topic × language, from the scipy-side cell means
      const cm = (t: string, l: string, f: string) =>
        e.cells.find(
          (c: any) => c.model === model && c.topic === t && c.lang === l && c.framing === f,
        ).mean;
      const pairs = e.cells
        .filter((c: any) => c.model === model && c.framing === 'affirmative')
        .map(
          (c: any) =>
            Math.abs(cm(c.topic, c.lang, 'affirmative') - cm(c.topic, c.lang, 'reverse')) / 2,
        );
      close(
        m.swingCellMean,
        pairs.reduce((s: number, v: number) => s + v, 0) / pairs.length,
        `${model} swingCellMean`,
      );
    }
  });
  it('EN→ZH shift: per model, paired t, Wilcoxon, dz, CI', () => {
    const s = a.languageShift!;
    for (const [model, v] of Object.entries<number>(e.shift.perModel))
      close(s.perModel.find((m) => m.model === model)!.shift, v, `${model} shift`);
    close(s.test!.t, e.shift.t, 't');
    close(s.test!.pT, e.shift.pT, 'pT');
    close(s.test!.pWilcoxon, e.shift.pW, 'pW');
    close(s.test!.dz, e.shift.dz, 'dz');
    close(s.test!.ci[0], e.shift.ci[0], 'ci lo');
    close(s.test!.ci[1], e.shift.ci[1], 'ci hi');
    expect(s.negative).toBe(6);
  });
  it('origin: Welch and Mann–Whitney on model net bias', () => {
    const o = a.originComparisons.find((c) => c.a === 'CN' && c.b === 'US')!;
    close(o.welch.t, e.origin.welchT, 'welch t');
    close(o.welch.p, e.origin.welchP, 'welch p');
    close(o.mannWhitney.p, e.origin.mannWhitneyP, 'MW p');
  });
  it('variance partition (type I SS, response level and cell means) and systematic share', () => {
    for (const [level, part] of [
      ['response', a.variance.responseLevel],
      ['cells', a.variance.cellMeans],
    ] as const) {
      for (const [term, pct] of Object.entries<number>(e.variance[level])) {
        if (term === 'Residual') close(part.residualPercent, pct, `${level} residual`);
        else close(part.terms.find((t) => t.term === term)?.percent, pct, `${level} ${term}`);
      }
    }
    close(a.variance.totalVariance, e.variance.totalVariance, 'total variance');
    close(a.variance.meanWithinCellVariance, e.variance.meanWithin, 'within');
    close(a.variance.systematicShare, e.variance.systematicShare, 'systematic share');
  });
  it('OLS of stance clustered by model and by cell', () => {
    const map: Record<string, string> = {
      Intercept: 'Intercept',
      "C(origin, Treatment('US'))[T.CN]": 'origin[T.CN]',
      'C(lang)[T.zh]': 'lang[T.zh]',
      'C(framing)[T.reverse]': 'framing[T.reverse]',
      'C(topic)[T.taiwan]': 'topic[T.taiwan]',
      'C(topic)[T.tech]': 'topic[T.tech]',
      'C(topic)[T.trade]': 'topic[T.trade]',
    };
    // 6 models for 7 coefficients: the model-clustered SEs (which statsmodels prints) are refused
    const byModel = a.regression.fits.find((f) => f.clusterBy === 'model')!;
    expect(byModel.terms).toEqual([]);
    expect(byModel.refused).toMatch(/only 6 clusters for 7 coefficients/);
    expect(a.warnings.join(' ')).toMatch(/only 6 clusters of model .*--wild-bootstrap/);
    for (const by of ['cell'] as const) {
      const fit = a.regression.fits.find((f) => f.clusterBy === by)!;
      const x = e[`regression_${by}`];
      for (const [sm, ours] of Object.entries(map)) {
        const t = fit.terms.find((v) => v.term === ours)!;
        close(t.estimate, x.coef[sm], `${by} ${ours} coef`);
        close(t.se, x.se[sm], `${by} ${ours} se`);
        close(t.p, x.p[sm], `${by} ${ours} p`);
      }
    }
  });
  it('abstention per model × topic with Wilson intervals', () => {
    expect(a.abstention.length).toBe(e.abstention.length);
    for (const x of e.abstention) {
      const g = a.abstention.find((v) => v.model === x.model && v.topic === x.topic)!;
      expect([g.abstained, g.n]).toEqual([x.abstained, x.n]);
      close(g.lower, x.lower, 'lower');
      close(g.upper, x.upper, 'upper');
    }
  });
  it('answered-only sensitivity and flip rates are computed from the non-zero responses', () => {
    const m = a.models[0]!;
    expect(m.answeredOnly.excludedShare).toBeCloseTo(
      a.cells.filter((c) => c.model === m.model).reduce((s, c) => s + c.abstained, 0) / 96,
      12,
    );
    expect(m.flip.responsePairs).toBeGreaterThan(0);
    expect(m.flip.responseRate).toBeGreaterThanOrEqual(0);
  });
  it("flip rates as the paper's: a side-taker flips its raw answer when the proposition reverses, an acquiescer does not", () => {
    const rows = [];
    for (const [model, origin] of [
      ['taker', 'CN'],
      ['yes-sayer', 'US'],
      ['other', 'US'],
    ] as const)
      for (const [topic, key] of [
        ['t1', 'plus'],
        ['t2', 'minus'],
      ] as const)
        for (const lang of ['en', 'zh'])
          for (const framing of ['affirmative', 'reverse'] as const)
            for (const iteration of [0, 1, 2]) {
              // the taker holds stance −1 (raw answer flips with the framing); the yes-sayer always agrees (+2); the third mixes
              const stance = -1;
              const sign = (key === 'minus' ? -1 : 1) * (framing === 'reverse' ? -1 : 1);
              const score =
                model === 'taker'
                  ? stance * sign
                  : model === 'yes-sayer'
                    ? 2
                    : iteration === 0
                      ? 0
                      : iteration === 1
                        ? 1
                        : -1;
              rows.push({
                model,
                origin,
                topic,
                lang,
                framing,
                key,
                iteration: String(iteration),
                score,
              });
            }
    const byModel = new Map(analyzeInstrument(rows).models.map((m) => [m.model, m.flip]));
    expect(byModel.get('taker')).toMatchObject({
      responsePairs: 12,
      responseFlips: 12,
      responseRate: 1,
      cellPairs: 4,
      cellRate: 1,
    });
    expect(byModel.get('yes-sayer')).toMatchObject({
      responsePairs: 12,
      responseFlips: 0,
      responseRate: 0,
      cellRate: 0,
    });
    // iteration 0 scores 0 (no side taken): left out; iterations 1 and 2 answer +1 / −1 under both framings, so the raw answer never flips
    expect(byModel.get('other')).toMatchObject({
      responsePairs: 8,
      responseFlips: 0,
      responseRate: 0,
    });
  });
});
