/** The stratified sampler: deterministic, independent of input order, covering every stratum. */
import { describe, expect, it } from 'vitest';
import { StimkitError } from '../../src/core/errors.js';
import { sampleForValidation, type SampleRow } from '../../src/label/sampler.js';

/** 9 models × 2 languages × 4 paradigms × 2 sensitivities, with uneven cell sizes. */
function population(): SampleRow[] {
  const rows: SampleRow[] = [];
  let n = 0;
  for (let m = 0; m < 9; m++)
    for (const lang of ['en', 'zh'])
      for (const [p, paradigm] of [
        'describe',
        'comment-image',
        'comment-text',
        'abstraction',
      ].entries())
        for (const sensitivity of ['high', 'low'])
          for (let k = 0; k < (paradigm === 'abstraction' ? 40 : 5 + p + m); k++) {
            rows.push({
              trial_id: `t_${(n++).toString(16).padStart(24, '0')}`,
              model: `m${m}`,
              lang,
              paradigm,
              sensitivity,
              variant: 'A0',
              entry: `e${k % 7}`,
            });
          }
  return rows;
}
const STRATA = ['model', 'lang', 'paradigm', 'sensitivity'] as const;
const key = (r: SampleRow) => `${r.trial_id}|${r.model}`;

describe('sampleForValidation', () => {
  const rows = population();

  it('draws n rows, one from every cell, the rest in proportion to cell size', () => {
    const { rows: got, cells } = sampleForValidation(rows, { n: 200, strata: STRATA, seed: 42 });
    expect(got).toHaveLength(200);
    expect(new Set(got.map(key)).size).toBe(200);
    expect(cells).toHaveLength(9 * 2 * 4 * 2);
    expect(cells.every((c) => c.sampled >= 1)).toBe(true);
    expect(cells.reduce((s, c) => s + c.sampled, 0)).toBe(200);
    // Abstraction cells hold 40 of ~60-80 rows per model × lang × sensitivity: they get the most.
    const abstraction = cells.filter((c) => c.key.paradigm === 'abstraction');
    const describe_ = cells.filter((c) => c.key.paradigm === 'describe');
    const sum = (cs: typeof cells) => cs.reduce((s, c) => s + c.sampled, 0);
    expect(sum(abstraction)).toBeGreaterThan(2 * sum(describe_));
    // No cell is more than one row off its proportional share beyond the floor of one.
    const total = rows.length;
    for (const c of cells)
      expect(c.sampled).toBeLessThanOrEqual(
        Math.max(1, Math.ceil((200 * c.population) / total)) + 1,
      );
  });

  it('is deterministic and independent of the input order, and the seed changes it', () => {
    const a = sampleForValidation(rows, { n: 150, strata: STRATA, seed: 7 }).rows.map(key);
    const reversed = sampleForValidation([...rows].reverse(), {
      n: 150,
      strata: STRATA,
      seed: 7,
    }).rows.map(key);
    expect(reversed).toEqual(a);
    const other = sampleForValidation(rows, { n: 150, strata: STRATA, seed: 8 }).rows.map(key);
    expect(other).not.toEqual(a);
  });

  it('covers every level of every variable when n is below the number of cells', () => {
    const { rows: got } = sampleForValidation(rows, { n: 12, strata: STRATA, seed: 1 });
    expect(got).toHaveLength(12);
    for (const s of STRATA)
      expect(new Set(got.map((r) => r[s])).size).toBe(new Set(rows.map((r) => r[s])).size);
  });

  it('refuses a sample too small to cover a variable, naming it', () => {
    try {
      sampleForValidation(rows, { n: 5, strata: STRATA, seed: 1 });
      expect.unreachable();
    } catch (err) {
      expect((err as StimkitError).code).toBe('E_LABEL_SAMPLE_TOO_SMALL');
      expect((err as Error).message).toContain('"model"');
    }
  });

  it('takes every row when there are no more than n, and rejects duplicates', () => {
    const few = rows.slice(0, 30);
    expect(sampleForValidation(few, { n: 200, strata: STRATA, seed: 1 }).rows).toHaveLength(30);
    expect(() =>
      sampleForValidation([rows[0]!, rows[0]!], { n: 1, strata: STRATA, seed: 1 }),
    ).toThrow(/appears twice/);
  });

  it('interleaves strata in the output order (not grouped by cell)', () => {
    const got = sampleForValidation(rows, { n: 200, strata: STRATA, seed: 42 }).rows;
    const firstTen = new Set(got.slice(0, 10).map((r) => r.model));
    expect(firstTen.size).toBeGreaterThan(3);
  });
});
