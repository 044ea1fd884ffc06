// D6's medians in the report when a language has no pass 2 rules: its cleaned lengths are empty
// cells in audit.csv, and so is its cleaned median (it was the median of Number('') = 0).
import { describe, expect, it } from 'vitest';
import { auditLengthSection } from '../../src/report/sections/audit-more.js';
import type { ReportContext } from '../../src/report/types.js';

const ctx = (rows: Array<Record<string, string>>): ReportContext =>
  ({
    memo: (_k: string, make: () => unknown) => Promise.resolve(make()),
    table: (file: string) =>
      Promise.resolve(file === 'audit.csv' ? { header: Object.keys(rows[0]!), rows } : null),
  }) as unknown as ReportContext;

const row = (lang: string, raw: number, clean: string, refused = '0') => ({
  model: 'm',
  origin: 'US',
  lang,
  d1_refusal: '',
  d1_refusal_lexical: refused,
  d6_length_raw: String(raw),
  d6_length_markdown: String(raw - 1),
  d6_length_clean: clean,
});

describe('report: D6 medians of a language without pass 2 rules', () => {
  it('leaves the cleaned median empty, keeps the raw and markdown medians', async () => {
    const c = ctx([
      row('en', 100, '90'),
      row('en', 200, '180'),
      row('en', 999, '999', '1'), // a refusal: left out
      row('ug', 50, ''),
      row('ug', 70, ''),
    ]);
    const content = await auditLengthSection.build(c);
    const rows = content.charts[0]!.data.rows;
    expect(rows).toEqual([
      ['m', 'US', 'en', 2, 1, 150, 149, 135],
      ['m', 'US', 'ug', 2, 0, 60, 59, null],
    ]);
    // The chart draws no bar for it: the text and the chart's subtitle say so.
    const said =
      'Cleaned median not computed (no pass 2 rules for the language), not drawn: m (US) ug';
    expect(content.paragraphs).toContain(`${said}.`);
    expect((content.charts[0]!.spec.title as { subtitle: string[] }).subtitle).toContain(said);
  });
});
