// The scores table of a release keeps fixed column types: ids of digits stay text, and a text
// column with no value in this study is text, not float.
import { describe, expect, it } from 'vitest';
import { csvTable, TRIALS_NUMERIC } from '../../src/release/tables.js';

describe('release: the scores table', () => {
  it('types by column, not by what the cells look like', () => {
    const csv =
      'trial,model,entry,topic,score,d5_share,block_detail\nt_1,m,0042,2024,-2,0.5,\nt_2,m,0043,2024,,1,\n';
    const t = csvTable('scores', 'd', csv, ['trial', 'model'], (c) => c, TRIALS_NUMERIC);
    expect(Object.fromEntries(t.columns.map((c) => [c.name, c.type]))).toEqual({
      trial: 'string',
      model: 'string',
      entry: 'string',
      topic: 'string',
      score: 'float',
      d5_share: 'float',
      block_detail: 'string',
    });
    expect(t.rows[0]).toEqual(['t_1', 'm', '0042', '2024', -2, 0.5, null]);
    expect(t.rows[1]).toEqual(['t_2', 'm', '0043', '2024', null, 1, null]);
  });
});
