// The abstraction ladder without a judge: the section is shown, says why it is empty and what to
// run (it was left out without a word).
import { describe, expect, it } from 'vitest';
import { auditLadderSection } from '../../src/report/sections/audit-ladder.js';
import type { ReportContext } from '../../src/report/types.js';

const ctx = (rows: Array<Record<string, string>>): ReportContext =>
  ({
    memo: (_k: string, make: () => unknown) => Promise.resolve(make()),
    table: (file: string) =>
      Promise.resolve(file === 'audit.csv' ? { header: Object.keys(rows[0]!), rows } : null),
  }) as unknown as ReportContext;

describe('report: the ladder without a judge', () => {
  it('is shown with the reason and the command to fill it', async () => {
    const c = ctx([
      { paradigm: 'abstraction', variant: 'A3', d4_state_aligned: '', d1_refusal: '' },
    ]);
    expect(await auditLadderSection.applies(c)).toBe(true);
    const content = await auditLadderSection.build(c);
    expect(content.tables).toEqual([]);
    expect(content.paragraphs[0]).toMatch(
      /^No judge labelled these scores, so the ladder is empty/,
    );
    expect(content.paragraphs[1]).toContain('npx stimkit score --bundle BUNDLE');
    expect(content.paragraphs[1]).toContain('--judge NAME');
  });

  it('is left out when the scores hold no abstraction trial', async () => {
    expect(await auditLadderSection.applies(ctx([{ paradigm: 'describe' }]))).toBe(false);
  });
});
