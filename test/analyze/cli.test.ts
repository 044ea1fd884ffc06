/** `stimkit analyze`: output shape, and bad input as coded errors naming file, line and column (exit 1); bad usage exit 2. */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const dir = await tempDir('stimkit-analyze-');
const SMALL = new URL('../stats/vectors/logit_small_600x30.csv', import.meta.url).pathname;
const write = (name: string, text: string) => {
  const f = path.join(dir, name);
  writeFileSync(f, text);
  return f;
};

describe('analyze logit', () => {
  it('prints term, estimate, SE, OR, CI, p and the JSON report with input sha256 and params', async () => {
    const r = await runCli([
      'analyze',
      'logit',
      SMALL,
      '--outcome',
      'y',
      '--predictors',
      'zh,cn,paradigm',
      '--reference',
      'paradigm=direct',
      '--cluster',
      'cluster',
      '--correction',
      'G',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/term\s+estimate\s+SE\s+OR\s+OR 95% CI\s+p/);
    const j = r.json();
    expect(j.format).toBe('stimkit.analyze.logit');
    expect(j.input.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(j.params).toMatchObject({
      outcome: 'y',
      cluster: 'cluster',
      correction: 'G',
      reference: { paradigm: 'direct' },
    });
    expect(j.result.terms.map((t: any) => t.term)).toEqual([
      'Intercept',
      'zh',
      'cn',
      'paradigm[T.abstraction]',
      'paradigm[T.indirect]',
    ]);
    expect(j.result.nClusters).toBe(30);
    expect(j.warnings).toEqual([]);
  });
  it('warns (text and --json warnings) when there are fewer than 30 clusters, the numbers unchanged', async () => {
    const [head, ...rows] = readFileSync(SMALL, 'utf8').trim().split('\n');
    const cols = head!.split(',');
    const g = cols.indexOf('cluster');
    const three = write(
      'three.csv',
      [
        head,
        ...rows.map((r, i) =>
          r
            .split(',')
            .map((c, k) => (k === g ? `c${i % 3}` : c))
            .join(','),
        ),
      ].join('\n') + '\n',
    );
    for (const kind of ['ols', 'logit']) {
      const args = [
        'analyze',
        kind,
        three,
        '--outcome',
        'y',
        '--predictors',
        'zh,cn',
        '--cluster',
        'cluster',
      ];
      const r = await runCli([...args, '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.json().result.nClusters).toBe(3);
      expect(r.json().warnings).toHaveLength(1);
      expect(r.json().warnings[0]).toMatch(
        /^only 3 clusters of cluster \(cluster-robust standard errors want 30 or more\).*Fix: /,
      );
      const h = await runCli(args);
      expect(h.stderr + h.stdout).toContain('warning: only 3 clusters of cluster');
      // the remedy fits the fit: a bootstrap for OLS, the corpus entry for a logit
      expect(r.json().warnings[0]).toContain(
        kind === 'ols'
          ? 'Fix: add --wild-bootstrap for p values and intervals that hold with few clusters'
          : 'Fix: cluster by a column with more groups (e.g. --cluster entry, the corpus entry)',
      );
    }
    // clustered by entry already: the remedy is more entries, never "cluster by the corpus entry"
    const entry = write(
      'entry.csv',
      readFileSync(three, 'utf8').replace(/^(.*)\bcluster\b/, '$1entry'),
    );
    const e = await runCli([
      'analyze',
      'logit',
      entry,
      '--outcome',
      'y',
      '--predictors',
      'zh,cn',
      '--cluster',
      'entry',
      '--json',
    ]);
    expect(e.code, e.stderr).toBe(0);
    expect(e.json().warnings[0]).toContain(
      'Fix: add entries to the corpus, or read these SEs as a demonstration',
    );
    expect(e.json().warnings[0]).not.toContain('cluster by');
  });
  it('text columns default to the first level in sorted order', async () => {
    const r = await runCli([
      'analyze',
      'ols',
      SMALL,
      '--outcome',
      'y',
      '--predictors',
      'paradigm',
      '--json',
    ]);
    expect(r.json().result.names).toEqual([
      'Intercept',
      'paradigm[T.direct]',
      'paradigm[T.indirect]',
    ]);
  });
  it('a non-0/1 outcome names file, line, column, expected and got (exit 1)', async () => {
    const f = write('bad.csv', 'y,x,g\n0,1,a\n2,0,b\n1,1,a\n');
    const r = await runCli([
      'analyze',
      'logit',
      f,
      '--outcome',
      'y',
      '--predictors',
      'x',
      '--json',
    ]);
    expect(r.code).toBe(1);
    const p = r.json().error.problems[0];
    expect(p).toMatchObject({
      code: 'E_ANALYZE_VALUE',
      file: f,
      line: 3,
      field: 'y',
      expected: '0 or 1',
      got: '"2"',
    });
    expect(p.fix).toBeTruthy();
  });
  it('a ragged CSV row is rejected with its line', async () => {
    const f = write('ragged.csv', 'y,x\n0,1\n1,0,7\n');
    const r = await runCli([
      'analyze',
      'logit',
      f,
      '--outcome',
      'y',
      '--predictors',
      'x',
      '--json',
    ]);
    expect(r.code).toBe(1);
    expect(r.json().error).toMatchObject({
      code: 'E_ANALYZE_CSV',
      problems: [expect.objectContaining({ file: f, line: 3 })],
    });
  });
  it('a missing column lists the header', async () => {
    const r = await runCli([
      'analyze',
      'logit',
      SMALL,
      '--outcome',
      'nope',
      '--predictors',
      'zh',
      '--json',
    ]);
    expect(r.code).toBe(1);
    expect(r.json().error.problems[0]).toMatchObject({
      code: 'E_ANALYZE_COLUMN',
      field: 'nope',
      got: 'y, zh, cn, paradigm, cluster',
    });
  });
  it('separation is a named error, not NaN', async () => {
    const f = write(
      'sep.csv',
      `y,g\n${Array.from({ length: 40 }, (_, i) => `${i % 2},${i % 2 ? 'a' : 'b'}`).join('\n')}\n`,
    );
    const r = await runCli([
      'analyze',
      'logit',
      f,
      '--outcome',
      'y',
      '--predictors',
      'g',
      '--json',
    ]);
    expect(r.code).toBe(1);
    expect(r.json().error).toMatchObject({
      code: 'E_STATS_SEPARATION',
      problems: [expect.objectContaining({ field: expect.stringContaining('g[T.b]') })],
    });
  });
  it('a long-tailed continuous term is fitted, not called separated (statsmodels 0.13.5 values)', async () => {
    // x on a grid plus one far value: the fit exists (no separating direction), and |β| times the
    // range of x is 134 log-odds, which the Newton check alone took for separation
    const rows = Array.from({ length: 60 }, (_, i) => {
      const x = (i % 20) * 0.5 + (i === 59 ? 200 : 0);
      const y = i === 59 ? 0 : (i % 20 < 8 && i % 3 !== 0) || i % 7 === 0 ? 1 : 0;
      return `${y},${x}`;
    });
    const f = write('tail.csv', `y,x\n${rows.join('\n')}\n`);
    const r = await runCli([
      'analyze',
      'logit',
      f,
      ...['--outcome', 'y', '--predictors', 'x'],
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    // sm.Logit(y, sm.add_constant(x)).fit(method='newton', tol=1e-12), Debian python3-statsmodels
    const want: Record<string, [number, number, number]> = {
      Intercept: [2.34513352, 0.71938011, 1.11437127e-3],
      x: [-0.64022248, 0.16032346, 6.51552253e-5],
    };
    for (const t of r.json().result.terms) {
      const [b, se, p] = want[t.term]!;
      expect(t.estimate).toBeCloseTo(b, 7);
      expect(t.se).toBeCloseTo(se, 7);
      expect(t.p / p).toBeCloseTo(1, 6);
    }
  });
  it('the said-no unions leave out a reply cut at the token limit by default (the scorer leaves them empty)', async () => {
    const rows = [
      'm,answer,0,0',
      'm,answer,1,1',
      'm,provider_block,1,1',
      'm,suppressed,1,1',
      'm,length,,0',
      'm,failed,,',
    ];
    const f = write(
      'said-no.csv',
      `model,outcome,d1_said_no,d1_provider_block\n${rows.join('\n')}\n`,
    );
    for (const [column, left] of [
      ['d1_said_no', { length: 1, failed: 1 }],
      ['d1_provider_block', { failed: 1 }],
    ] as const) {
      const r = await runCli([
        'analyze',
        'rates',
        f,
        '--outcome',
        column,
        '--by',
        'model',
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.json().outcomes.left_out).toEqual(left);
    }
    // asked to keep the cut reply, the empty cell is named with the remedy that fits it
    const kept = await runCli([
      ...['analyze', 'rates', f, '--outcome', 'd1_said_no', '--by', 'model'],
      ...['--outcomes', 'answer,length', '--json'],
    ]);
    expect(kept.code).toBe(1);
    expect(kept.json().error.problems[0].fix).toBe(
      'this row\'s outcome is length, which leaves "d1_said_no" empty: choose the rows with --outcomes (e.g. --outcomes answer), or --complete',
    );
  });
  it('usage errors exit 2', async () => {
    expect((await runCli(['analyze', 'logit', SMALL, '--predictors', 'zh'])).code).toBe(2);
    expect((await runCli(['analyze', 'nonsense', SMALL])).code).toBe(2);
    for (const args of [
      ['analyze', 'foo'],
      ['analyze', 'foo', SMALL],
    ]) {
      const k = await runCli([...args, '--json']);
      expect(k.code).toBe(2);
      expect(k.json().error.code).toBe('E_ANALYZE_KIND');
      expect(k.json().error.message).toContain(
        'expected one of logit, ols, rates, agreement, instrument, reasoning, pressure, power',
      );
    }
    expect(
      (
        await runCli([
          'analyze',
          'logit',
          SMALL,
          '--outcome',
          'y',
          '--predictors',
          'zh',
          '--correction',
          'HC3',
        ])
      ).code,
    ).toBe(2);
    const r = await runCli([
      'analyze',
      'ols',
      SMALL,
      '--outcome',
      'y',
      '--predictors',
      'zh',
      '--correction',
      'G',
      '--json',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /--correction applies to cluster-robust standard errors: add --cluster/,
    );
  });
});

describe('analyze agreement and instrument', () => {
  it('agreement reports pairwise kappa, Fleiss, AC1', async () => {
    const f = write('labels.csv', 'a,b,c\n1,1,1\n0,0,1\n1,0,1\n0,0,0\n1,1,0\n');
    const r = await runCli(['analyze', 'agreement', f, '--raters', 'a,b,c', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const j = r.json();
    expect(j.pairs).toHaveLength(3);
    expect(j.pairs[0]).toMatchObject({ raters: ['a', 'b'], n: 5, rawAgreement: 0.8 });
    expect(j.fleiss.kappa).toBeTypeOf('number');
    expect(j.allAgree).toBeCloseTo(0.4, 12);
  });
  it('instrument --shift between languages the table lacks is refused, naming the languages present', async () => {
    const f = new URL('./fixtures/instrument_small.csv', import.meta.url).pathname;
    const r = await runCli(['analyze', 'instrument', f, '--shift', 'en:pt', '--json']);
    expect(r.code).toBe(1);
    expect(r.json().error.problems[0]).toMatchObject({
      code: 'E_ANALYZE_SHIFT',
      file: f,
      field: 'lang',
      expected: 'scored rows in en and pt',
      got: 'scored rows in en, zh',
    });
    const ok = await runCli(['analyze', 'instrument', f, '--shift', 'en:zh', '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json().languageShift).not.toBeNull();
  });
  it('instrument --shift to a language whose scores are all empty (no rules) is refused, not null in silence', async () => {
    const f = new URL('./fixtures/instrument_small.csv', import.meta.url).pathname;
    const [header, ...rows] = readFileSync(f, 'utf8').trim().split('\n');
    const cols = header!.split(',');
    const [li, si] = [cols.indexOf('lang'), cols.indexOf('score')];
    // the zh rows as a language without instrument rules leaves them: no score
    const blanked = rows.map((r) => {
      const c = r.split(',');
      if (c[li] === 'zh') c[si] = '';
      return c.join(',');
    });
    const g = write('no-rules.csv', `${[header, ...blanked].join('\n')}\n`);
    const r = await runCli(['analyze', 'instrument', g, '--shift', 'en:zh', '--json']);
    expect(r.code).toBe(1);
    expect(r.json().error.problems[0]).toMatchObject({
      code: 'E_ANALYZE_SHIFT',
      got: 'scored rows in en',
    });
    expect(r.json().error.problems[0].message).toContain('no scored rows in zh');
  });
  it('instrument names a model with no scored answer (it refused everything) and why, never drops it in silence', async () => {
    const f = new URL('./fixtures/instrument_small.csv', import.meta.url).pathname;
    const [header, ...rows] = readFileSync(f, 'utf8').trim().split('\n');
    const refuser = rows
      .filter((r) => r.startsWith('cn-a,'))
      .map((r) => `${r.replace(/^cn-a,/, 'refuser,').replace(/,[^,]*$/, ',')},model_refusal`);
    const g = write(
      'refuser.csv',
      `${[`${header},outcome`, ...rows.map((r) => `${r},answer`), ...refuser].join('\n')}\n`,
    );
    const r = await runCli(['analyze', 'instrument', g, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().models.map((m: any) => m.model)).not.toContain('refuser');
    expect(r.json().absent).toEqual([
      { model: 'refuser', reason: `no scored answer (model_refusal ${refuser.length})` },
    ]);
    expect(r.stderr).toContain(
      `no estimate for refuser: no scored answer (model_refusal ${refuser.length})`,
    );
  });
  it('instrument rejects a bad framing and score with their lines', async () => {
    const f = write(
      'inst.csv',
      'model,origin,topic,lang,framing,key,score\nm,US,t,en,affirmative,plus,1\nm,US,t,en,sideways,plus,5\n',
    );
    const r = await runCli(['analyze', 'instrument', f, '--json']);
    expect(r.code).toBe(1);
    const fields = r.json().error.problems.map((p: any) => [p.line, p.field]);
    expect(fields).toEqual([
      [3, 'framing'],
      [3, 'score'],
    ]);
  });
});
