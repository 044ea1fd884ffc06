/**
 * The list's search compares NFC-normalised, lower-cased text as substrings: a query typed in
 * decomposed form finds the composed text (and back), Chinese is matched inside a run of
 * characters, and sorting keeps ties in order with rows lacking the field last.
 */
import { describe, expect, it } from 'vitest';
import type { Trial } from '../../src/bundle/format.js';
import type { ListRow } from '../../src/view/list.js';
import { matchesQuery, searchForm, sortRows } from '../../src/view/search.js';

const trial = { id: 't_000000000000000000000001', entry: 'e', item: null } as unknown as Trial;
const row = (response: string, labels: Record<string, string> = {}): ListRow => ({
  trial,
  score: { trial_id: trial.id, model: 'm', response, labels, source: 's' },
});

describe('view search', () => {
  it('matches across Unicode normal forms and case, inside words and runs of Han', () => {
    const composed = row('Le café de la Défense');
    expect(matchesQuery(composed, searchForm('CAFE\u0301'))).toBe(true);
    expect(matchesQuery(row('Le cafe\u0301'), searchForm('café'))).toBe(true);
    expect(matchesQuery(composed, searchForm('cafe'))).toBe(false);
    expect(matchesQuery(row('抱歉，我无法回答这个问题。'), searchForm('无法回答'))).toBe(true);
    expect(matchesQuery(row('the background'), searchForm('ackgroun'))).toBe(true);
  });

  it('sorts numbers by value, rows without the field last, ties in order', () => {
    const rows = [row('a', { n: '10' }), row('b'), row('c', { n: '9' }), row('d', { n: '9' })];
    expect(sortRows(rows, 'n').map((r) => r.score!.response)).toEqual(['c', 'd', 'a', 'b']);
  });

  it('sorts a true/false label with the rows it holds for first', () => {
    const rows = [
      row('a', { d4: 'false' }),
      row('b', { d4: 'true' }),
      row('c'),
      row('d', { d4: 'true' }),
    ];
    expect(sortRows(rows, 'd4').map((r) => r.score!.response)).toEqual(['b', 'd', 'a', 'c']);
  });
});
