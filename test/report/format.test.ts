// One number format on the report page, and the data dictionary's look-up.
import { describe, expect, it } from 'vitest';
import { describeColumn } from '../../src/report/dictionary.js';
import { fmt } from '../../src/report/format.js';
import type { ReportTable } from '../../src/report/types.js';

describe('fmt', () => {
  it('writes each unit one way', () => {
    expect(fmt(1056, 'count')).toBe('1056');
    expect(fmt(0.0417, 'proportion')).toBe('4.2\u00a0%');
    expect(fmt(1, 'proportion')).toBe('100.0\u00a0%');
    expect(fmt(70.13, 'percent')).toBe('70.1\u00a0%');
    expect(fmt(-0.0268, 'stance')).toBe('\u22120.027');
    expect(fmt(1, 'statistic')).toBe('1.000');
    expect(fmt(-0.0004, 'statistic')).toBe('0.000');
    expect(fmt(0.0034, 'p')).toBe('0.0034');
    expect(fmt(0.5, 'p')).toBe('0.50');
    expect(fmt(5.3e-7, 'p')).toBe('< 0.001');
    expect(fmt(60.5, 'characters')).toBe('60.5');
    expect(fmt(0.01234, 'usd')).toBe('$0.0123');
    expect(fmt(1, 'flag')).toBe('yes');
    expect(fmt(0, 'flag')).toBe('no');
    expect(fmt(null, 'stance')).toBe('');
    expect(fmt('sim-a', 'text')).toBe('sim-a');
    // a count in a column without a unit prints as an integer, never "9.000"
    expect(fmt(9, 'text')).toBe('9');
    expect(fmt(-3, 'text')).toBe('\u22123');
    expect(fmt(0.12345, 'text')).toBe('0.123');
  });
});

describe('describeColumn', () => {
  const table = (id: string): ReportTable => ({
    id,
    title: 't',
    columns: [],
    rows: [],
    n: 'n',
    interval: 'i',
  });

  it('takes a table’s own entry, then a table it extends, then the common one', () => {
    expect(describeColumn(table('model-tests'), 'p_t_collapsed').label).toBe(
      'p (t, framing-collapsed)',
    );
    expect(describeColumn(table('model-tests-pt-control'), 'p_t_collapsed')).toMatchObject({
      label: 'p (t, framing-collapsed)',
      unit: 'p',
      described: true,
    });
    expect(describeColumn(table('anything'), 'model').label).toBe('Model');
    const own = { ...table('model-tests'), columnInfo: { net: ['Net', 'stance', 'own'] as const } };
    expect(describeColumn(own as unknown as ReportTable, 'net').meaning).toBe('own');
  });

  it('says when nobody described a column, with its name in words', () => {
    expect(describeColumn(table('x'), 'new_thing')).toMatchObject({
      label: 'New thing',
      meaning: '(not described)',
      described: false,
    });
  });
});
