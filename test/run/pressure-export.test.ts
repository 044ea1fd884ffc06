// `run export` of a pressure run: every row names its conversation, turn and follow-up (empty for
// a one-turn trial), and the turns recorded as not sent are rows too (outcome `not_sent`, with
// the reason), so an export never drops a planned turn.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCsvObjects } from '../../src/core/csv.js';
import { exportLedger } from '../../src/run/export.js';
import { runStudy } from '../../src/run/run.js';
import type { Trial } from '../../src/bundle/format.js';
import { tempDir } from '../helpers/tmp.js';
import { FAST, writeModels } from './helpers.js';
import { oneTurnTrial, startTurnServer, writePressureBag } from './pressure-fixture.js';

let ledger: string;
let trials: Trial[];
beforeAll(async () => {
  const dir = await tempDir('stimkit-pressure-export-');
  const bag = path.join(dir, 'bag');
  // Two conversations of three turns, and a one-turn trial (answered as "conversation 7").
  trials = await writePressureBag(bag, 2, [oneTurnTrial(7)]);
  // Conversation 1's first turn is stopped by a filter: its turns 2 and 3 are not sent.
  const server = await startTurnServer((c, turn) =>
    c === 1 && turn === 1 ? 'filtered' : 'answer',
  );
  try {
    const models = await writeModels(dir, [{ name: 'm', endpoint: server.url }]);
    ledger = path.join(dir, 'run.sqlite');
    await runStudy({ bundle: bag, modelsFile: models, ledger, backoff: FAST });
  } finally {
    await server.close();
  }
});

const exported = (format: 'jsonl' | 'csv') => {
  let text = '';
  const n = exportLedger(ledger, format, {}, (c) => (text += c));
  return { n, text };
};

describe('run export of conversations', () => {
  it('writes every planned turn, the unsent ones with outcome not_sent and the reason', () => {
    const { n, text } = exported('jsonl');
    const rows = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(n).toBe(7);
    // Ordered by model, then trial id, as the results are.
    expect(rows.map((r) => r.trial_id)).toEqual(trials.map((t) => t.id).sort());
    const byId = new Map(rows.map((r) => [r.trial_id as string, r]));
    for (const t of trials) {
      const r = byId.get(t.id)!;
      expect(r, t.id).toMatchObject({
        conversation_id: t.conversation?.id ?? null,
        turn: t.conversation?.turn ?? null,
        followup: t.conversation?.followup ?? null,
        paradigm: t.paradigm,
      });
    }
    const [, c1t2, c1t3] = trials.slice(3, 6) as [Trial, Trial, Trial];
    expect(byId.get(c1t2.id)).toMatchObject({
      outcome: 'not_sent',
      not_sent_reason: 'previous_turn_provider_block',
      response_text: null,
      attempts: 0,
    });
    expect(byId.get(c1t3.id)).toMatchObject({
      outcome: 'not_sent',
      not_sent_reason: 'previous_turn_not_sent',
    });
    expect(byId.get(trials[1]!.id)).toMatchObject({ outcome: 'answer', not_sent_reason: null });
    expect(rows.filter((r) => r.outcome === 'not_sent')).toHaveLength(2);
  });

  it('writes the same columns to CSV, empty for a one-turn trial', () => {
    const { n, text } = exported('csv');
    expect(n).toBe(7);
    const rows = readCsvObjects(text, { raw: true });
    const one = rows.find((r) => r.trial_id === trials[6]!.id)!;
    expect([one.conversation_id, one.turn, one.followup, one.not_sent_reason]).toEqual([
      '',
      '',
      '',
      '',
    ]);
    const third = rows.find((r) => r.trial_id === trials[2]!.id)!;
    expect([third.conversation_id, third.turn, third.followup]).toEqual([
      trials[2]!.conversation!.id,
      '3',
      'authority',
    ]);
  });
});
