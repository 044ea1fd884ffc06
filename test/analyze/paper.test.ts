/**
 * Reproduce the papers' printed numbers from their counts through `stimkit analyze` (or its
 * functions): Tables A8 and A10 (Wilson intervals), Figure A1 (judge vs human-majority raw
 * agreement and confusion matrices) of the audit paper, and Table S4's Holm column of the
 * instrument paper. Fixtures in fixtures/paper/ are transcribed from the papers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pNormal2, pStudent2 } from '../../src/stats/dist.js';
import { holm, wilson } from '../../src/stats/index.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`./fixtures/paper/${name}.json`, import.meta.url), 'utf8'));
const round = (v: number, d: number) =>
  Number((Math.round(v * 10 ** d + 1e-9) / 10 ** d).toFixed(d));
const dir = await tempDir('stimkit-paper-');

/** The unique success count whose rate prints as `rate` (% with `d` decimals). */
function countFor(rate: number, n: number, d: number): number {
  const xs = Array.from({ length: n + 1 }, (_, x) => x).filter(
    (x) => round((100 * x) / n, d) === rate,
  );
  expect(xs, `counts printing as ${rate}% of ${n}`).toHaveLength(1);
  return xs[0]!;
}

/** Write a 0/1 table with the given groups and run `analyze rates --json`. */
async function rates(name: string, groups: { group: string; x: number; n: number }[]) {
  const file = path.join(dir, `${name}.csv`);
  const lines = ['group,y'];
  for (const g of groups) for (let i = 0; i < g.n; i++) lines.push(`${g.group},${i < g.x ? 1 : 0}`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  const r = await runCli(['analyze', 'rates', file, '--outcome', 'y', '--by', 'group', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return new Map<string, any>(r.json().rows.map((row: any) => [row.group.group, row]));
}

describe('audit paper, Table A8: Wilson intervals across abstraction variants', () => {
  const t = fixture('table_a8');
  const printedAs = (x: number, n: number) => {
    const w = wilson(x, n);
    return [round((100 * x) / n, 1), round(w.lower * 100, 1), round(w.upper * 100, 1)];
  };
  it('every rate and 95% CI with n = 756, to the printed 0.1% (Visual-grounded: see below)', async () => {
    const groups = t.rows.flatMap((row: any) =>
      row.cells
        .map((c: number[], j: number) => ({
          group: `${row.level}|${t.measures[j]}`,
          measure: t.measures[j],
          x: countFor(c[0]!, t.n, 1),
          n: t.n,
          printed: c,
          level: row.level,
        }))
        .filter(
          (g: any) =>
            !(g.measure === 'Visual-grounded' && t.visual_grounded_n_not_756.includes(g.level)),
        ),
    );
    expect(groups).toHaveLength(25);
    const got = await rates('a8', groups);
    for (const g of groups) {
      const r = got.get(g.group);
      expect(r.n).toBe(t.n);
      expect(
        [round(r.rate * 100, 1), round(r.lower * 100, 1), round(r.upper * 100, 1)],
        g.group,
      ).toEqual(g.printed);
    }
  });
  it('Visual-grounded at A0, A1, A6: no count of 756 reproduces the print, a slightly smaller n (N/A excluded) does', () => {
    for (const row of t.rows.filter((r: any) => t.visual_grounded_n_not_756.includes(r.level))) {
      const printed = row.cells[3];
      expect(
        Array.from({ length: 757 }, (_, x) => printedAs(x, 756)).some(
          (v) => v.join() === printed.join(),
        ),
        row.level,
      ).toBe(false);
      let found = false;
      for (let n = 700; n < 756 && !found; n++)
        for (let x = 0; x <= n && !found; x++) found = printedAs(x, n).join() === printed.join();
      expect(found, row.level).toBe(true);
    }
  });
});

describe('audit paper, Table A10: origin × sensitivity Wilson intervals', () => {
  const t = fixture('table_a10');
  it('every rate and 95% CI, to the printed 0.01%, and the gaps from unrounded rates', async () => {
    const groups = t.rows.map((row: any) => ({
      group: `${row.origin}|${row.sensitivity}`,
      x: countFor(row.rate, row.n, 2),
      n: row.n,
      row,
    }));
    const got = await rates('a10', groups);
    for (const g of groups) {
      const r = got.get(g.group);
      expect(
        [r.n, round(r.rate * 100, 2), round(r.lower * 100, 2), round(r.upper * 100, 2)],
        g.group,
      ).toEqual([g.row.n, g.row.rate, g.row.lower, g.row.upper]);
    }
    const rate = (o: string, s: string) => got.get(`${o}|${s}`).rate * 100;
    expect(round(rate('China-origin', 'high') - rate('non-China', 'high'), 2)).toBe(t.gaps.high);
    expect(round(rate('China-origin', 'low') - rate('non-China', 'low'), 2)).toBe(t.gaps.low);
  });
});

describe('audit paper, Figure A1: judge vs human majority', () => {
  for (const m of fixture('figure_a1').matrices) {
    it(`${m.judge} × ${m.dimension}: n and raw agreement`, async () => {
      // three human raters whose majority is the truth (every third item has one dissenting rater)
      const lines = ['h1,h2,h3,judge'];
      let i = 0;
      const add = (truth: number, judge: number, count: number) => {
        for (let k = 0; k < count; k++, i++) {
          const dissent = i % 3 === 0 ? 1 - truth : truth;
          lines.push(`${truth},${i % 2 ? dissent : truth},${i % 2 ? truth : dissent},${judge}`);
        }
      };
      add(1, 1, m.TP);
      add(1, 0, m.FN);
      add(0, 1, m.FP);
      add(0, 0, m.TN);
      const file = path.join(dir, `a1-${m.judge}-${m.dimension}.csv`.replace(/[^\w.-]+/g, '_'));
      writeFileSync(file, `${lines.join('\n')}\n`);
      const r = await runCli([
        'analyze',
        'agreement',
        file,
        '--raters',
        'h1,h2,h3',
        '--vs',
        'judge',
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(0);
      const vs = r.json().vs;
      expect(vs.n).toBe(m.n);
      expect(vs.categories).toEqual([0, 1]);
      // matrix[judge][majority]
      expect({
        TN: vs.matrix[0][0],
        FN: vs.matrix[0][1],
        FP: vs.matrix[1][0],
        TP: vs.matrix[1][1],
      }).toEqual({ TN: m.TN, FN: m.FN, FP: m.FP, TP: m.TP });
      expect(round(vs.rawAgreement * 100, 1)).toBe(m.agree);
    });
  }
});

/** Half a unit of the last printed digit of a number string. */
const halfUnit = (s: string) => {
  const [mant, exp] = s.toLowerCase().split('e');
  const decimals = mant!.includes('.') ? mant!.split('.')[1]!.length : 0;
  return 0.5 * 10 ** -decimals * 10 ** Number(exp ?? 0);
};

describe('instrument paper, Table S3: the p values of cluster-robust OLS are normal (use_t=False), as stimkit defaults', () => {
  const t = fixture('table_s3');
  /** [min, max] of a two-sided p over the rounding of β and SE. */
  const bracket = (beta: string, se: string, p: (z: number) => number) => {
    const zs = [-1, 1].flatMap((db) =>
      [-1, 1].map(
        (ds) => Math.abs(Number(beta) + db * halfUnit(beta)) / (Number(se) + ds * halfUnit(se)),
      ),
    );
    return [p(Math.max(...zs)), p(Math.min(...zs))] as const;
  };
  const within = (printed: string, [lo, hi]: readonly [number, number]) =>
    hi >= Number(printed) - halfUnit(printed) && lo <= Number(printed) + halfUnit(printed);
  it('every printed p follows from β/SE with the normal distribution', () => {
    for (const r of t.rows) {
      expect(within(r.p_cell, bracket(r.beta, r.se_cell, pNormal2)), `${r.term} (cell)`).toBe(true);
      expect(within(r.p_model, bracket(r.beta, r.se_model, pNormal2)), `${r.term} (model)`).toBe(
        true,
      );
    }
  });
  it('t with G − 1 = 10 df would not give the model-clustered p values', () => {
    const china = t.rows[0];
    expect(
      within(
        china.p_model,
        bracket(china.beta, china.se_model, (z) => pStudent2(z, t.clusters.model - 1)),
      ),
    ).toBe(false);
  });
});

describe('instrument paper, Table S4: Holm column from the t (28) p values', () => {
  const t = fixture('table_s4');
  it('every printed Holm value lies within the rounding of the printed p values', () => {
    const p = t.rows.map((r: any) => Number(r.t28));
    const lo = holm(t.rows.map((r: any, i: number) => p[i] - halfUnit(r.t28)));
    const hi = holm(t.rows.map((r: any, i: number) => p[i] + halfUnit(r.t28)));
    const mid = holm(p);
    t.rows.forEach((r: any, i: number) => {
      const printed = Number(r.holm);
      const u = halfUnit(r.holm);
      expect(
        hi[i]! >= printed - u && lo[i]! <= printed + u,
        `${r.model}: Holm in [${lo[i]}, ${hi[i]}] (from printed p ${mid[i]}), printed ${r.holm}`,
      ).toBe(true);
    });
    // the four Chinese models remain significant at 0.05, GLM and Gemini do not
    const sig = t.rows.filter((_: any, i: number) => mid[i]! < 0.05).map((r: any) => r.model);
    expect(sig.sort()).toEqual([
      'deepseek-v4-flash',
      'minimax-m2.7',
      'qwen3.6-plus',
      'seed-2.0-lite',
    ]);
  });
});
