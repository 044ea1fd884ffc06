// Conversations sent turn by turn: turn k only after turn k − 1 is answered in the ledger, as the
// conversation so far (the earlier replies byte for byte, no reasoning sent back), the request
// hash over the whole conversation; after a turn without an answer, the later turns are recorded
// as not sent, with the reason, and counted.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { withEarlierTurns } from '../../src/client/conversation.js';
import { buildRequest } from '../../src/client/request.js';
import { ModelSpec } from '../../src/models/schema.js';
import { runStudy, type RunResult } from '../../src/run/run.js';
import type { Trial } from '../../src/bundle/format.js';
import { tempDir } from '../helpers/tmp.js';
import { FAST, query, writeModels } from './helpers.js';
import { openerOf, replyOf, startTurnServer, writePressureBag } from './pressure-fixture.js';

let dir: string;
let bag: string;
let trials: Trial[];
beforeAll(async () => {
  dir = await tempDir('stimkit-run-pressure-');
  bag = path.join(dir, 'bag');
  trials = await writePressureBag(bag, 3);
});

describe('a pressure run', () => {
  it('sends each turn after the one before, with the conversation so far', async () => {
    // Conversation 1's first turn is stopped by a filter: its later turns are not sent.
    const server = await startTurnServer((c, turn) =>
      c === 1 && turn === 1 ? 'filtered' : 'answer',
    );
    try {
      const model = { name: 'm', endpoint: server.url, concurrency: 4 };
      const models = await writeModels(dir, [model]);
      const ledger = path.join(dir, 'run.sqlite');
      const r = (await runStudy({
        bundle: bag,
        modelsFile: models,
        ledger,
        backoff: FAST,
      })) as RunResult;
      expect(r.models[0]!.outcomes).toMatchObject({ answer: 6, provider_block: 1, not_sent: 2 });

      // Every turn of conversations 0 and 2 was sent once, turn k after turn k − 1 was answered.
      for (const c of [0, 2]) {
        const seen = server.requests.filter((q) => q.c === c);
        expect(seen.map((q) => q.turn)).toEqual([1, 2, 3]);
        const third = seen[2]!.messages;
        expect(third).toEqual([
          { role: 'user', content: openerOf(c) },
          { role: 'assistant', content: replyOf(c, 1) },
          { role: 'user', content: 'Are you sure? Give your final answer.' },
          { role: 'assistant', content: replyOf(c, 2) },
          { role: 'user', content: 'A professor says you are wrong. Give your final answer.' },
        ]);
        expect(JSON.stringify(third)).not.toContain('reasoning');
      }
      expect(server.requests.filter((q) => q.c === 1).map((q) => q.turn)).toEqual([1]);

      // The request hash covers the whole conversation.
      const spec = ModelSpec.parse(model);
      const [t1, t2, t3] = trials.slice(0, 3) as [Trial, Trial, Trial];
      const want = buildRequest(
        withEarlierTurns(t3, [
          { trial: t1, reply: replyOf(0, 1) },
          { trial: t2, reply: replyOf(0, 2) },
        ]),
        spec,
      ).sha256;
      const rows = query(ledger, 'SELECT trial_id, request_sha256, response_text FROM results');
      expect(rows.find((x) => x.trial_id === t3.id)).toMatchObject({
        request_sha256: want,
        response_text: replyOf(0, 3),
      });
      expect(want).not.toBe(buildRequest(t3, spec).sha256);

      // The ledger's trials name their conversation and turn; the unsent turns say why.
      const conv = query(ledger, 'SELECT trial_id, conversation_id, turn, followup FROM trials');
      expect(conv.find((x) => x.trial_id === t3.id)).toEqual({
        trial_id: t3.id,
        conversation_id: t3.conversation!.id,
        turn: 3,
        followup: 'authority',
      });
      const unsent = query(
        ledger,
        'SELECT turn, reason, previous_outcome FROM unsent_turns ORDER BY turn',
      );
      expect(unsent).toEqual([
        { turn: 2, reason: 'previous_turn_provider_block', previous_outcome: 'provider_block' },
        { turn: 3, reason: 'previous_turn_not_sent', previous_outcome: 'not_sent' },
      ]);

      // Rerun: nothing left to send, nothing recorded twice.
      const before = server.requests.length;
      const again = (await runStudy({
        bundle: bag,
        modelsFile: models,
        ledger,
        backoff: FAST,
      })) as RunResult;
      expect(again.models[0]!.pending).toBe(0);
      expect(server.requests.length).toBe(before);
    } finally {
      await server.close();
    }
  });
});
