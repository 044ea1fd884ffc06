// The sentence under every instrument table counts the kept rows whose score is empty (a language
// without instrument rules), by reason, apart from the n the table uses.
import { describe, expect, it } from 'vitest';
import { outcomeSentence, selectRows } from '../../src/report/outcomes.js';

const header = ['model', 'lang', 'score', 'reason', 'outcome'];
const row = (lang: string, score: string, reason: string, outcome = 'answer') => ({
  model: 'm',
  lang,
  score,
  reason,
  outcome,
});

describe('report: the rows sentence of instrument.csv', () => {
  it('names the kept rows without a score, by reason, and the rows left out by outcome', () => {
    const rows = [
      row('en', '1', ''),
      row('en', '0', 'judged_neutral'),
      row('kk', '', 'no_rules_for_language'),
      row('kk', '', 'no_rules_for_language'),
      row('en', '', '', 'provider_block'),
    ];
    const { rows: kept, note } = selectRows('instrument.csv', header, rows);
    expect(kept).toHaveLength(4);
    expect(outcomeSentence(note!)).toBe(
      'Rows of instrument.csv: answers only, 4 rows (score empty in 2: no_rules_for_language 2); left out: provider_block 1 (counted in “Who said no”)',
    );
  });
  it('says nothing more when every kept row has its score', () => {
    const { note } = selectRows('instrument.csv', header, [
      row('en', '1', ''),
      row('en', '-1', ''),
    ]);
    expect(outcomeSentence(note!)).toBe(
      'Rows of instrument.csv: answers only, 2 rows; none left out by outcome',
    );
  });
});
