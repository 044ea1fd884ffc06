/**
 * Every `stimkit analyze` kind that reads a table says how many of its rows are simulated (the
 * table's `simulated` column): `simulated: {rows, of}` in --json (null without the column), a flag
 * per group or model, and a SIMULATED line in the human output.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const dir = await tempDir('stimkit-analyze-sim-');
const write = (name: string, text: string) => {
  const f = path.join(dir, name);
  writeFileSync(f, text);
  return f;
};

/** 120 rows: model simA (simulated) and real (not), lang, a noisy 0/1 outcome, a numeric one. */
function audit(sim: (model: string) => string): string {
  let s = 3;
  const rand = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const rows = Array.from({ length: 120 }, (_, i) => {
    const model = i % 2 ? 'simA' : 'real';
    const lang = Math.floor(i / 2) % 2 ? 'zh' : 'en';
    return [model, lang, rand() < 0.4 ? 1 : 0, (rand() * 4).toFixed(3), sim(model)].join(',');
  });
  return `model,lang,y,z,simulated\n${rows.join('\n')}\n`;
}

const SIM = write(
  'sim.csv',
  audit((m) => (m === 'simA' ? '1' : '0')),
);
const REAL = write(
  'real.csv',
  audit(() => '0'),
);
const NONE = write(
  'none.csv',
  audit(() => '')
    .replace(/,simulated\n/, '\n')
    .replace(/,\n/g, '\n'),
);
const LINE = /^SIMULATED: 60 of 120 rows are simulated/;

describe('analyze marks simulated rows', () => {
  it('logit and ols: simulated {rows, of} and the SIMULATED line; none on real rows, null without the column', async () => {
    for (const [kind, outcome] of [
      ['logit', 'y'],
      ['ols', 'z'],
    ]) {
      const args = [
        'analyze',
        kind!,
        '--outcome',
        outcome!,
        '--predictors',
        'model,lang',
        '--json',
      ];
      const sim = await runCli([...args.slice(0, 2), SIM, ...args.slice(2)]);
      expect(sim.code, sim.stderr).toBe(0);
      expect(sim.json().simulated).toEqual({ rows: 60, of: 120 });
      expect(sim.stderr).toMatch(LINE);
      const real = await runCli([...args.slice(0, 2), REAL, ...args.slice(2)]);
      expect(real.json().simulated).toEqual({ rows: 0, of: 120 });
      expect(real.stderr).not.toContain('SIMULATED');
      const none = await runCli([...args.slice(0, 2), NONE, ...args.slice(2)]);
      expect(none.json().simulated).toBeNull();
    }
  });

  it('rates: the count, and a flag per group (a column in the table)', async () => {
    const r = await runCli(['analyze', 'rates', SIM, '--outcome', 'y', '--by', 'model', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().simulated).toEqual({ rows: 60, of: 120 });
    expect(r.json().rows.map((g: any) => [g.group.model, g.simulated])).toEqual([
      ['real', false],
      ['simA', true],
    ]);
    expect(r.stderr).toMatch(LINE);
    expect(r.stderr).toMatch(/simulated\n.*real.*no\n.*simA.*yes/);
    const none = await runCli([
      'analyze',
      'rates',
      NONE,
      '--outcome',
      'y',
      '--by',
      'model',
      '--json',
    ]);
    expect(none.json().rows[0].simulated).toBeNull();
  });

  it('agreement, wide and long: the count of the rows read', async () => {
    const wide = write('wide.csv', 'a,b,simulated\n1,1,1\n0,0,1\n1,0,1\n0,0,1\n1,1,0\n');
    const r = await runCli(['analyze', 'agreement', wide, '--raters', 'a,b', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().simulated).toEqual({ rows: 4, of: 5 });
    expect(r.stderr).toMatch(/^SIMULATED: 4 of 5 rows/);
    const long = write(
      'long.csv',
      'sample_item,rater,d1_refusal,simulated\n' +
        ['i1', 'i2', 'i3', 'i4']
          .flatMap((item, i) =>
            ['r1', 'r2'].map((rater, k) => `${item},${rater},${(i + k) % 2 ? 'true' : 'false'},1`),
          )
          .join('\n') +
        '\n',
    );
    const l = await runCli(['analyze', 'agreement', long, '--json']);
    expect(l.code, l.stderr).toBe(0);
    expect(l.json().simulated).toEqual({ rows: 8, of: 8 });
    expect(l.stderr).toMatch(/^SIMULATED: 8 of 8 rows/);
  });

  it('instrument: the count and a flag per model', async () => {
    const text = readFileSync(
      new URL('./fixtures/instrument_small.csv', import.meta.url).pathname,
      'utf8',
    );
    const [head, ...rows] = text.trim().split('\n');
    const f = write(
      'inst.csv',
      `${head},simulated\n${rows.map((r) => `${r},${r.startsWith('cn-') ? 1 : 0}`).join('\n')}\n`,
    );
    const r = await runCli(['analyze', 'instrument', f, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const j = r.json();
    const cn = rows.filter((x) => x.startsWith('cn-')).length;
    expect(j.simulated).toEqual({ rows: cn, of: rows.length });
    for (const m of j.models) expect(m.simulated, m.model).toBe(m.model.startsWith('cn-'));
    expect(r.stderr).toMatch(new RegExp(`^SIMULATED: ${cn} of ${rows.length} rows`));
  });

  it('a simulated cell that is neither 1/0 nor true/false is refused with its line', async () => {
    const f = write('bad.csv', audit(() => '0').replace(/,0\n/, ',yes\n'));
    const r = await runCli(['analyze', 'rates', f, '--outcome', 'y', '--json']);
    expect(r.code).toBe(1);
    expect(r.json().error.problems[0]).toMatchObject({ line: 2, field: 'simulated', got: '"yes"' });
  });
});
