/**
 * McNemar of thinking on against off pairs only the trials of a block with the thinking factor:
 * a trial planned once (its pair id is its own id), sent with thinking off as the study's
 * sampling says, is no pair with a side missing.
 */
import { describe, expect, it } from 'vitest';
import { thinkingTests } from '../../src/analyze/reasoning.js';

const row = (trial: string, pair: string, thinking: string, refused: string) => ({
  trial,
  pair,
  model: 'm',
  lang: 'zh',
  thinking,
  d1_refusal_lexical: refused,
  d1_said_no_lexical: refused,
});

describe('thinking pairs', () => {
  it('leaves out trials without the factor, and counts a paired trial missing its twin', () => {
    const rows = [
      row('t_on1', 't_p1', 'on', '1'),
      row('t_off1', 't_p1', 'off', '0'),
      row('t_on2', 't_p2', 'on', '0'), // its thinking-off twin is missing: incomplete
      row('t_plain', 't_plain', 'off', '1'), // planned once, not a pair
      row('t_plain2', 't_plain2', 'off', '0'),
    ];
    const [refusal] = thinkingTests(rows);
    expect(refusal).toMatchObject({ outcome: 'd1_refusal_lexical', pairs: 1, b: 1, incomplete: 1 });
  });

  it('leaves the rates and p values empty when no pair is complete (a language without rules)', () => {
    const rows = [
      row('t_on1', 't_p1', 'on', ''),
      row('t_off1', 't_p1', 'off', ''),
      row('t_on2', 't_p2', 'on', '1'),
      row('t_off2', 't_p2', 'off', ''),
    ];
    const [refusal] = thinkingTests(rows);
    expect(refusal).toMatchObject({
      pairs: 0,
      incomplete: 2,
      rate_on: null,
      rate_off: null,
      p_exact: null,
      p_midp: null,
      chi2_cc: null,
      p_chi2_cc: null,
    });
  });

  it('gives p = 1 when pairs are complete but none is discordant', () => {
    const rows = [row('t_on1', 't_p1', 'on', '1'), row('t_off1', 't_p1', 'off', '1')];
    expect(thinkingTests(rows)[0]).toMatchObject({ pairs: 1, a: 1, p_exact: 1, p_midp: 1 });
  });
});
