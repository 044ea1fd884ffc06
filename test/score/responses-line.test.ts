// Responses-file lines read as a run records them: a reply that opens with its reasoning inline
// (<think>…</think>) is split as `run` splits a server's reply (D1–D6 read the answer alone, the
// reasoning goes to its channel), and an "answer" of white space alone is suppressed.
import { describe, expect, it } from 'vitest';
import { parseResponseLine } from '../../src/score/responses.js';

const row = (extra: Record<string, unknown>) => {
  const r = parseResponseLine({ trial_id: `t_${'0'.repeat(24)}`, model: 'm', ...extra });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.row;
};

describe('responses file: inline reasoning', () => {
  it('splits a leading <think> block off the answer', () => {
    const r = row({ response: '<think>The user asks about a photo.</think>\nA rocket launch.' });
    expect(r).toMatchObject({
      response: '\nA rocket launch.',
      reasoning: 'The user asks about a photo.',
      reasoning_visibility: 'full',
    });
    expect(row({ response: '<think>\n\n</think>Agree' })).toMatchObject({
      response: 'Agree',
      reasoning_visibility: 'empty',
    });
  });
  it('keeps a reply as it is when the file gives the reasoning, or the reply opens otherwise', () => {
    expect(row({ response: '<think>x</think>Agree', reasoning_text: 'y' })).toMatchObject({
      response: '<think>x</think>Agree',
      reasoning: 'y',
    });
    expect(row({ response: 'Agree <think>x</think>' })).toMatchObject({
      response: 'Agree <think>x</think>',
      reasoning: null,
    });
  });
  it('reads an "answer" of white space alone as suppressed, as run records it', () => {
    expect(row({ response: ' \n ', outcome: 'answer' })).toMatchObject({
      outcome: 'suppressed',
      error: 'suppressed',
    });
    expect(row({ response: 'Agree', outcome: 'answer' })).toMatchObject({ outcome: 'answer' });
  });
});
