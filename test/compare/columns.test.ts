/**
 * compare's audit columns on hand-made rows: a judge's D1 that flips, a D4 strategy that changes,
 * an empty D3 (text-only) that stays empty, and a reply that became a provider block, whose labels
 * go to the outcome rather than to 0.
 */
import { describe, expect, it } from 'vitest';
import type { CompareRow } from '../../src/compare/columns.js';
import { compareSides } from '../../src/compare/compare.js';
import type { ScoresSide } from '../../src/compare/read.js';

const DIGEST = 'a'.repeat(64);

function row(trial: string, outcome: string, cells: Record<string, string>): CompareRow {
  return {
    trial,
    model: 'm',
    paradigm: 'comment-text',
    language: 'en',
    route: null,
    outcome,
    reason: null,
    score: null,
    label: null,
    cells: { judge_status: 'ok', ...cells },
  };
}

function side(dir: string, rows: CompareRow[], digest = DIGEST): ScoresSide {
  return {
    dir,
    headerSha256: 'b'.repeat(64),
    header: { bundle: { digest, study: 's' }, params: { run: null } } as ScoresSide['header'],
    rows,
  };
}

const base = {
  d1_refusal: '0',
  d2_integrity: '1',
  d4_state_aligned: '0',
  d5_language_consistent: '1',
};

describe('compare: audit columns', () => {
  const a = side('A', [
    row('t1', 'answer', { ...base }),
    row('t2', 'answer', { ...base, d4_strategy: 'DT1', d4_state_aligned: '1' }),
    row('t3', 'answer', { ...base }),
    row('t4', 'answer', { ...base }),
  ]);
  const b = side('B', [
    row('t1', 'answer', { ...base, d1_refusal: '1' }),
    row('t2', 'answer', { ...base, d4_strategy: 'DT2', d4_state_aligned: '1' }),
    row('t3', 'provider_block', { judge_status: '' }),
    row('t4', 'answer', { ...base, judge_status: 'failed', d1_refusal: '' }),
  ]);
  const r = compareSides(a, b);
  const of = (t: string) => r.changed.find((c) => c.trial === t)?.columns;

  it('finds the changed label columns and only those', () => {
    expect(of('t1')).toEqual({ d1_refusal: { a: '0', b: '1' } });
    expect(of('t2')).toEqual({ d4_strategy: { a: 'DT1', b: 'DT2' } });
    expect(r.counts.changed).toBe(4);
  });

  it('an empty cell reads as the outcome or the judge status, never 0', () => {
    expect(of('t3')).toMatchObject({
      outcome: { a: 'answer', b: 'provider_block' },
      d1_refusal: { a: '0', b: 'outcome:provider_block' },
      d2_integrity: { a: '1', b: 'outcome:provider_block' },
    });
    // d3 is empty in A (text-only) and reads as `empty`, not 0
    expect(of('t3')!.d3_grounded).toEqual({ a: 'empty', b: 'outcome:provider_block' });
    expect(of('t4')!.d1_refusal).toEqual({ a: '0', b: 'judge:failed' });
    expect(of('t4')!.d3_grounded).toEqual({ a: 'empty', b: 'judge:failed' });
    expect(of('t4')).not.toHaveProperty('outcome');
  });

  it('McNemar of D1 counts the flip and leaves the rows without a binary value out', () => {
    const d1 = r.mcnemar.find((m) => m.column === 'd1_refusal')!;
    expect(d1).toMatchObject({ n: 2, excluded: 2, a: 0, b: 0, c: 1, d: 1, p_exact: 1 });
    expect(r.mcnemar.find((m) => m.column === 'd4_strategy')).toBeUndefined();
    const d3 = r.mcnemar.find((m) => m.column === 'd3_grounded')!;
    expect(d3).toMatchObject({ n: 0, p_exact: null, p_holm: null });
    expect(d3.reason).toContain('no pair');
  });

  it('refuses two bundles', () => {
    expect(() => compareSides(a, side('B', [], 'c'.repeat(64)))).toThrow(/E_COMPARE_BUNDLE|bundle/);
  });
});

describe('compare: pressure turns', () => {
  const turn = (trial: string, label: string, score: number): CompareRow => ({
    ...row(trial, 'answer', {}),
    paradigm: 'pressure',
    label,
    score,
    cells: { judge_status: '' },
  });
  it('compares each turn by its label, and no audit column of the VLM paradigms', () => {
    const a = side('A', [turn('p1', 'Strongly agree', 2), turn('p2', 'Agree', 1)]);
    const b = side('B', [turn('p1', 'Strongly disagree', -2), turn('p2', 'Agree', 1)]);
    const r = compareSides(a, b);
    expect(r.changed.map((c) => [c.trial, c.columns])).toEqual([
      ['p1', { label: { a: 'Strongly agree', b: 'Strongly disagree' } }],
    ]);
    const columns = new Set(r.mcnemar.map((m) => m.column));
    expect([...columns].sort()).toEqual(['label', 'outcome']);
  });
});
