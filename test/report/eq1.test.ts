/**
 * The report's Eq. 1 section (src/report/sections/audit-eq1.ts): the audit paper's logit of D4
 * (and D1) on language, China origin and paradigm, clustered by entry, fitted from audit.csv by
 * the function `stimkit analyze logit` uses. Known coefficients are recovered from a simulated
 * table; a factor with one level is left out and said so; separation is a sentence naming the
 * term, never a NaN; the page states the formula, n, clusters and the correction.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { regressTable } from '../../src/analyze/regress.js';
import { tableFromRows, type Table } from '../../src/analyze/table.js';
import { auditEq1Section, fitEq1 } from '../../src/report/sections/audit-eq1.js';
import type { ReportContext } from '../../src/report/types.js';

const u = (...k: Array<string | number>) =>
  createHash('sha256').update(k.join('|')).digest().readUInt32BE(0) / 2 ** 32;
const PARADIGMS = ['describe', 'comment-image', 'comment-text', 'abstraction'];
const TRUE = {
  a: -2,
  zh: Math.log(3),
  cn: Math.log(2),
  para: { describe: 0, 'comment-image': 0.3, 'comment-text': 1, abstraction: -0.5 } as Record<
    string,
    number
  >,
};

/** An audit.csv-like table drawn from Eq. 1 with the TRUE coefficients (deterministic). */
function table(
  entries: number,
  perCell: number,
  edit: (r: Record<string, string>) => Record<string, string> = (r) => r,
): Table {
  const rows: Record<string, string>[] = [];
  let i = 0;
  for (let e = 0; e < entries; e++) {
    for (const lang of ['en', 'zh']) {
      for (const cn of [0, 1]) {
        for (const paradigm of PARADIGMS) {
          for (let k = 0; k < perCell; k++) {
            const eta =
              TRUE.a + (lang === 'zh' ? TRUE.zh : 0) + cn * TRUE.cn + TRUE.para[paradigm]!;
            const p = 1 / (1 + Math.exp(-eta));
            const y = (s: string) => (u(s, i) < p ? '1' : '0');
            rows.push(
              edit({
                entry: `e${e}`,
                lang,
                china_origin: String(cn),
                paradigm,
                model: cn ? 'm-cn' : 'm-us',
                d4_state_aligned: y('d4'),
                d1_refusal: y('d1'),
              }),
            );
            i++;
          }
        }
      }
    }
  }
  return tableFromRows('audit.csv', '0'.repeat(64), Object.keys(rows[0]!), rows);
}

describe('Eq. 1 in the report', () => {
  it('recovers the odds ratios of a simulated table, exactly as analyze logit fits it', () => {
    const t = table(40, 6);
    const [d4, d1] = fitEq1(t);
    expect(d4!.error).toBeNull();
    expect(d4!.left_out).toEqual([]);
    const terms = Object.fromEntries(d4!.report!.result.terms.map((x) => [x.term, x]));
    expect(Object.keys(terms)).toEqual([
      'Intercept',
      'lang[T.zh]',
      'china_origin',
      'paradigm[T.abstraction]',
      'paradigm[T.comment-image]',
      'paradigm[T.comment-text]',
    ]);
    // 7,680 rows: each coefficient within about three standard errors of the truth.
    for (const [term, truth] of [
      ['lang[T.zh]', TRUE.zh],
      ['china_origin', TRUE.cn],
      ['paradigm[T.comment-text]', 1],
      ['paradigm[T.abstraction]', -0.5],
    ] as const) {
      expect(Math.abs(terms[term]!.estimate - truth), term).toBeLessThan(3 * terms[term]!.se);
    }
    expect(d4!.report!.result.nClusters).toBe(40);
    expect(d4!.report!.result.correction).toBe('statsmodels');
    const cli = regressTable('logit', t, {
      outcome: 'd4_state_aligned',
      predictors: ['lang', 'china_origin', 'paradigm'],
      reference: { lang: 'en', paradigm: 'describe' },
      interactions: [],
      cluster: 'entry',
      correction: 'statsmodels',
      conf: 0.95,
      complete: true,
    });
    expect(d4!.report!.result.terms).toEqual(cli.result.terms);
    expect(d1!.outcome).toBe('d1_refusal');
    expect(d1!.report).not.toBeNull();
  });

  it('leaves out a factor with one level, and drops rows without a judge label', () => {
    const t = table(10, 4, (r) => ({
      ...r,
      china_origin: '1',
      d4_state_aligned: r.entry === 'e0' && r.paradigm === 'describe' ? '' : r.d4_state_aligned!,
    }));
    const [d4] = fitEq1(t);
    expect(d4!.left_out).toEqual(['china_origin']);
    expect(d4!.report!.result.terms.map((x) => x.term)).not.toContain('china_origin');
    expect(d4!.report!.input.dropped).toBe(2 * 2 * 4);
  });

  it('reports separation as a sentence naming the term', () => {
    const t = table(10, 4, (r) =>
      r.paradigm === 'comment-text' ? { ...r, d4_state_aligned: '0' } : r,
    );
    const [d4] = fitEq1(t);
    expect(d4!.report).toBeNull();
    expect(d4!.error).toMatch(/separated by term "paradigm\[T\.comment-text\]"/);
  });

  const ctxOf = (t: Table): ReportContext => ({
    scoresDir: '/nowhere',
    header: {
      files: [{ file: 'audit.csv', rows: t.rows.length, sha256: t.sha256 }],
    } as unknown as ReportContext['header'],
    records: () => Promise.resolve([]),
    table: () =>
      Promise.resolve({
        header: t.columns,
        rows: t.rows.map((r) => ({ ...r, judge: 'sim-judge', judge_simulated: '1' })),
      }),
    memo: async (_k, make) => make(),
    simulated: true,
    bundle: () => Promise.resolve({ bundle: null, note: null }),
  });

  it('states the model, n, clusters and correction, and warns when clusters are few', async () => {
    const many = await auditEq1Section.build(ctxOf(table(40, 2)));
    const text = many.paragraphs.join('\n');
    expect(text).toContain('logit Pr(Y = 1)');
    expect(text).toMatch(
      /D4 state-aligned framing \(d4_state_aligned\): n = 1280 responses, 40 entry clusters/,
    );
    expect(text).toContain('SIMULATED judge');
    expect(text).not.toContain('Only 40 clusters');
    const tab = many.tables[0]!;
    expect(tab.interval).toMatch(/cluster-robust.*statsmodels/);
    expect(tab.n).toContain('40 clusters');
    expect(tab.rows.flat().some((c) => typeof c === 'number' && Number.isNaN(c))).toBe(false);
    const few = await auditEq1Section.build(ctxOf(table(6, 8)));
    expect(few.paragraphs.join('\n')).toContain('Only 6 clusters');
    const separated = await auditEq1Section.build(
      ctxOf(table(10, 4, (r) => (r.paradigm === 'comment-text' ? { ...r, d1_refusal: '0' } : r))),
    );
    expect(separated.paragraphs.join('\n')).toMatch(
      /D1 explicit refusal: not fitted\. .*comment-text/,
    );
    expect(separated.tables[0]!.rows.every((r) => r[0] === 'd4_state_aligned')).toBe(true);
  });

  it('writes the formula from the design fitted: one γ per language, none for a level not in the run', async () => {
    // a run in en, bo and ug (no zh): the text must not say 1[lang = zh]
    const langs: Record<string, string> = { en: 'en', zh: 'bo' };
    const t = table(12, 2, (r) => ({
      ...r,
      lang: r.entry === 'e1' && r.lang === 'zh' ? 'ug' : langs[r.lang!]!,
    }));
    const text = (await auditEq1Section.build(ctxOf(t))).paragraphs.join('\n');
    expect(text).toContain(
      'logit Pr(Y = 1) = \u03b1 + \u03b3_bo\u00b71[lang = bo] + \u03b3_ug\u00b71[lang = ug] + \u03b4\u00b71[china_origin = 1] + \u03c4_abstraction\u00b71[paradigm = abstraction]',
    );
    expect(text).not.toContain('lang = zh');
    expect(text).toContain('references: lang en, paradigm describe');
  });
});
