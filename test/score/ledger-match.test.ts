// Scores are of the responses a ledger run holds: each scored response is the run's result for its
// model and trial; a turn the run never sent (a `run export` responses file lists it) needs none.
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/core/fsio.js';
import type { ScoreLine } from '../../src/score/format.js';
import { checkScoresOfRun } from '../../src/score/ledger-match.js';

const line = (trial: string, outcome: string, text: string | null) =>
  ({
    model: 'm',
    trial,
    outcome,
    response_sha256: text === null ? null : sha256(text),
  }) as ScoreLine;
const result = (trial_id: string, outcome: string, text: string | null) => ({
  model: 'm',
  trial_id,
  outcome,
  text,
});
const where = { code: 'E_X', scores: 'score.json', ledger: 'l.sqlite', run: 'main' };

describe('checkScoresOfRun', () => {
  const results = [result('t1', 'answer', 'Agree'), result('t2', 'provider_block', null)];
  it('accepts the scores of the run, and a turn the run never sent', () => {
    const lines = [
      line('t1', 'answer', 'Agree'),
      line('t2', 'provider_block', null),
      line('t3', 'not_sent', null),
    ];
    expect(() => checkScoresOfRun(lines, results, where)).not.toThrow();
  });
  it('refuses another text, another outcome, or a response the run has no result for', () => {
    for (const [lines, got] of [
      [[line('t1', 'answer', 'Disagree')], 'trial t1: the ledger holds another text'],
      [[line('t2', 'answer', 'x')], 'trial t2: outcome answer in the scores, provider_block'],
      [[line('t9', 'answer', 'x')], 'no result in the run (first: m, trial t9)'],
    ] as const)
      expect(() => checkScoresOfRun(lines, results, where)).toThrow(
        expect.objectContaining({
          code: 'E_X',
          problems: [expect.objectContaining({ got: expect.stringContaining(got) })],
        }),
      );
  });
});
