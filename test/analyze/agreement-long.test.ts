/**
 * `analyze agreement` on the long labels CSV (`label export`'s default layout): the same numbers
 * as on the wide layout of the same labels (written by `widenLabels`, what `label export --wide`
 * uses), per dimension or for one; `--raters` and `--vs` name raters.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LABEL_COLUMNS, widenLabels } from '../../src/label/export.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const RATERS = ['alice', 'bob', 'carol', 'judge'];
let long: string;
let wide: string;

beforeAll(async () => {
  const dir = await tempDir('stimkit-agreement-long-');
  // deterministic pseudo-random labels: raters agree most of the time, some cells empty, D3 'na' on a few items
  let s = 12345;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const records: string[][] = [];
  for (let i = 0; i < 40; i++) {
    const truth = LABEL_COLUMNS.map(() => (rnd() < 0.5 ? 'true' : 'false'));
    for (const rater of RATERS) {
      const row = LABEL_COLUMNS.map((c, j) => {
        if (c === 'sample_item') return `i_${i.toString(16).padStart(16, '0')}`;
        if (c === 'trial_id') return `t_${i.toString(16).padStart(24, '0')}`;
        if (c === 'model') return i % 2 ? 'm1' : 'm2';
        if (c === 'paradigm') return 'abstraction';
        if (c === 'lang') return i % 3 ? 'en' : 'zh';
        if (c === 'rater') return rater;
        if (c === 'mode') return 'label';
        if (/^dt?\d/.test(c)) {
          if (c === 'd3_grounding' && i % 7 === 0) return 'na';
          if (c.startsWith('dt') && truth[LABEL_COLUMNS.indexOf('d4_state_aligned')] !== 'true')
            return '';
          if (rnd() < 0.05) return '';
          return rnd() < 0.8 ? truth[j]! : truth[j] === 'true' ? 'false' : 'true';
        }
        if (c === 'complete') return 'true';
        return '';
      });
      records.push(row);
    }
  }
  records.sort((a, b) => (a[5]! < b[5]! ? -1 : a[5]! > b[5]! ? 1 : 0)); // raters in name order, as label export writes
  const csv = (rows: string[][]) => `${rows.map((r) => r.join(',')).join('\n')}\n`;
  long = path.join(dir, 'labels.csv');
  wide = path.join(dir, 'wide.csv');
  await writeFile(long, csv([[...LABEL_COLUMNS], ...records]));
  await writeFile(wide, csv(widenLabels(records)));
});

/** The numbers of a report, without what the run as a whole reports: the input read, its simulated rows, the outcomes used. */
const stats = (r: Record<string, unknown>) => ({
  ...r,
  input: undefined,
  simulated: undefined,
  outcomes: undefined,
});

describe('analyze agreement on the long labels layout', () => {
  it("gives the wide layout's numbers for one dimension, with --vs naming a rater", async () => {
    for (const d of ['d4_state_aligned', 'd3_grounding']) {
      const a = await runCli([
        'analyze',
        'agreement',
        long,
        '--dimension',
        d,
        '--raters',
        'alice,bob,carol',
        '--vs',
        'judge',
        '--json',
      ]);
      expect(a.code, a.stderr).toBe(0);
      const b = await runCli([
        'analyze',
        'agreement',
        wide,
        '--raters',
        `${d}.alice,${d}.bob,${d}.carol`,
        '--vs',
        `${d}.judge`,
        '--json',
      ]);
      expect(b.code, b.stderr).toBe(0);
      expect(a.json().pairs.length).toBe(3);
      expect(a.json().vs.n).toBeGreaterThan(20);
      expect(stats(a.json())).toEqual(stats(b.json()));
      expect(a.json().input.rows).toBe(40);
      // the wide layout with --dimension takes rater names too
      const c = await runCli([
        'analyze',
        'agreement',
        wide,
        '--dimension',
        d,
        '--raters',
        'alice,bob,carol',
        '--vs',
        'judge',
        '--json',
      ]);
      expect(stats(c.json())).toEqual(stats(b.json()));
    }
  });

  it('reports every dimension with two ratings when no --dimension is given', async () => {
    const r = await runCli(['analyze', 'agreement', long, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const j = r.json();
    expect(j.format).toBe('stimkit.analyze.agreement-by-dimension');
    expect(j.params.raters).toEqual(RATERS);
    expect(j.dimensions.map((d: { dimension: string }) => d.dimension)).toEqual(
      LABEL_COLUMNS.filter((c) => /^dt?\d/.test(c)),
    );
    const d2 = j.dimensions.find(
      (d: { dimension: string }) => d.dimension === 'd2_integrity',
    ).report;
    const w = await runCli([
      'analyze',
      'agreement',
      wide,
      '--raters',
      RATERS.map((x) => `d2_integrity.${x}`).join(','),
      '--json',
    ]);
    expect(stats(d2)).toEqual(stats(w.json()));
  });

  it('names unknown raters and dimensions, and refuses an item × rater given twice', async () => {
    const a = await runCli(['analyze', 'agreement', long, '--raters', 'alice,zed', '--json']);
    expect(a.code).toBe(1);
    expect(a.json().error.code).toBe('E_ANALYZE_RATERS');
    const b = await runCli(['analyze', 'agreement', long, '--dimension', 'd9_nothing', '--json']);
    expect(b.code).toBe(2);
    const dir = await tempDir('stimkit-agreement-dup-');
    const dup = path.join(dir, 'dup.csv');
    const text = (await import('node:fs/promises')).readFile(long, 'utf8');
    const lines = (await text).trim().split('\n');
    await writeFile(dup, `${[...lines, lines[1]!].join('\n')}\n`);
    const c = await runCli(['analyze', 'agreement', dup, '--dimension', 'd1_refusal', '--json']);
    expect(c.code).toBe(1);
    expect(c.json().error.code).toBe('E_ANALYZE_DUPLICATE');
    expect(c.json().error.problems[0].line).toBe(lines.length + 1);
  });
});

describe('agreement on a dimension where raters never disagree', () => {
  let file: string;
  beforeAll(async () => {
    const dir = await tempDir('stimkit-agreement-constant-');
    // the pilot's case: every rater says false on dt1_endorsement, and D3 uses na
    const records: string[][] = [];
    for (let i = 0; i < 6; i++)
      for (const rater of ['alice', 'bob'])
        records.push(
          LABEL_COLUMNS.map((c) => {
            if (c === 'sample_item') return `i_${i.toString(16).padStart(16, '0')}`;
            if (c === 'trial_id') return `t_${i.toString(16).padStart(24, '0')}`;
            if (c === 'model') return 'm1';
            if (c === 'rater') return rater;
            if (c === 'd4_state_aligned') return i % 2 ? 'true' : 'false';
            if (c === 'dt1_endorsement') return i % 2 ? 'false' : '';
            if (c === 'd3_grounding') return i === 0 && rater === 'bob' ? 'na' : 'true';
            if (/^dt?\d/.test(c)) return i < 3 ? 'true' : 'false';
            return '';
          }),
        );
    file = path.join(dir, 'labels.csv');
    await writeFile(
      file,
      [LABEL_COLUMNS.join(','), ...records.map((r) => r.join(','))].join('\n') + '\n',
    );
  });
  it('reports every dimension, taking the categories from the labels format', async () => {
    const r = await runCli(['analyze', 'agreement', file, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const dims = Object.fromEntries(
      r.json().dimensions.map((d: { dimension: string; report: any }) => [d.dimension, d.report]),
    );
    const dt1 = dims.dt1_endorsement;
    expect(dt1).toMatchObject({
      dimension: 'dt1_endorsement',
      categorySource: 'format',
      categories: ['false', 'true'],
      noDisagreement: true,
      constant: 'false',
    });
    expect(dt1.pairs[0].kappa).toBeNull(); // 0/0: chance agreement is 1
    expect(dt1.gwetAc1.ac1).toBe(1);
    expect(dims.d3_grounding.categories).toEqual(['false', 'true', 'na']);
    expect(dims.d4_state_aligned.noDisagreement).toBe(true);
    expect(dims.d4_state_aligned.constant).toBeNull();
    const h = await runCli(['analyze', 'agreement', file]);
    expect(h.stderr + h.stdout).toContain(
      'raters never disagree: every rating is false, so chance agreement is 1 and the kappas are undefined (—); AC1 counts it as full agreement',
    );
  });
  it('names the dimension of a label outside its categories', async () => {
    const bad = file.replace(/labels\.csv$/, 'bad.csv');
    const { readFile } = await import('node:fs/promises');
    await writeFile(bad, (await readFile(file, 'utf8')).replace(',na,', ',maybe,'));
    const r = await runCli(['analyze', 'agreement', bad, '--json']);
    expect(r.code).toBe(1);
    expect(r.json().error.message).toMatch(
      /^.*dimension d3_grounding: labels outside the categories/,
    );
    expect(r.json().error.problems[0]).toMatchObject({
      code: 'E_ANALYZE_CATEGORY',
      field: 'd3_grounding',
      expected: 'false, true, na',
      got: 'maybe',
    });
    const given = await runCli([
      'analyze',
      'agreement',
      bad,
      '--dimension',
      'd3_grounding',
      '--categories',
      'true,false,na,maybe',
      '--json',
    ]);
    expect(given.code, given.stderr).toBe(0);
    expect(given.json().categories).toEqual(['true', 'false', 'na', 'maybe']);
  });
});
