// Conversations through batch files, turn by turn: each export holds only the turns whose
// previous turn is answered in the ledger (turn 1, then 2, then 3), each as the conversation so
// far; each import records them once; a line of a turn whose previous turn is not answered is
// refused and nothing is recorded.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { batchExport } from '../../src/batch/export.js';
import { batchImport } from '../../src/batch/import.js';
import type { Trial } from '../../src/bundle/format.js';
import { withEarlierTurns } from '../../src/client/conversation.js';
import { buildRequest } from '../../src/client/request.js';
import { ModelSpec } from '../../src/models/schema.js';
import { tempDir } from '../helpers/tmp.js';
import { query, writeModels } from '../run/helpers.js';
import { openerOf, replyOf, writePressureBag } from '../run/pressure-fixture.js';

let dir: string;
let bag: string;
let models: string;
let trials: Trial[];
const MODEL = { name: 'm', endpoint: 'http://127.0.0.1:9/v1' };
beforeAll(async () => {
  dir = await tempDir('stimkit-pressure-batch-');
  bag = path.join(dir, 'bag');
  trials = await writePressureBag(bag, 2);
  models = await writeModels(dir, [MODEL]);
});

type Reply = 'answer' | 'refuse' | 'fail';

/**
 * Answer an OpenAI Batch input file as a batch API would; returns the turns it held. `reply(c,
 * turn)`: `answer` (default), `refuse` (a structured refusal, `message.refusal`: outcome
 * model_refusal) or `fail` (a 400 error: outcome failed).
 */
async function answer(
  input: string,
  output: string,
  reply: (c: number, turn: number) => Reply = () => 'answer',
): Promise<Array<[number, number]>> {
  const lines = (await readFile(input, 'utf8')).split('\n').filter((l) => l.trim() !== '');
  const seen: Array<[number, number]> = [];
  const out = lines.map((raw, i) => {
    const line = JSON.parse(raw);
    const messages = line.body.messages as Array<{ content: string }>;
    const c = Number(/^conversation (\d+):/.exec(messages[0]!.content)![1]);
    const turn = (messages.length + 1) / 2;
    seen.push([c, turn]);
    const kind = reply(c, turn);
    const body =
      kind === 'fail'
        ? { error: { message: 'invalid request', type: 'invalid_request_error' } }
        : {
            id: `cmpl-${i}`,
            object: 'chat.completion',
            model: line.body.model,
            choices: [
              {
                index: 0,
                message:
                  kind === 'refuse'
                    ? { role: 'assistant', content: null, refusal: "I can't help with that." }
                    : { role: 'assistant', content: replyOf(c, turn) },
                finish_reason: 'stop',
              },
            ],
            usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
          };
    return JSON.stringify({
      id: `b-${i}`,
      custom_id: line.custom_id,
      response: { status_code: kind === 'fail' ? 400 : 200, request_id: `r-${i}`, body },
      error: null,
    });
  });
  await writeFile(output, out.map((l) => `${l}\n`).join(''));
  return seen;
}

describe('batch, turn by turn', () => {
  it('exports turn 1, then 2, then 3, each after the import of the one before', async () => {
    const ledger = path.join(dir, 'batch.sqlite');
    for (const turn of [1, 2, 3]) {
      const input = path.join(dir, `in-${turn}.jsonl`);
      const r = await batchExport({
        bundle: bag,
        modelsFile: models,
        modelNames: ['m'],
        out: input,
        ledger,
      });
      expect(r.requests, `round ${turn}`).toBe(2);
      expect(r.held).toEqual({ waiting: 2 * (3 - turn), after_no_answer: 0, after_failed: 0 });
      const output = path.join(dir, `out-${turn}.jsonl`);
      expect((await answer(input, output)).sort()).toEqual([
        [0, turn],
        [1, turn],
      ]);
      const imported = await batchImport({
        files: [output],
        bundle: bag,
        model: 'm',
        ledger,
        modelsFile: models,
      });
      expect(imported.recorded, `round ${turn}`).toBe(2);
      // Importing the same file again records nothing.
      const again = await batchImport({
        files: [output],
        bundle: bag,
        model: 'm',
        ledger,
        modelsFile: models,
      });
      expect(again.recorded).toBe(0);
    }
    const done = await batchExport({
      bundle: bag,
      modelsFile: models,
      modelNames: ['m'],
      out: path.join(dir, 'in-4.jsonl'),
      ledger,
    });
    expect(done.requests).toBe(0);
    const rows = query(ledger, 'SELECT trial_id, request_sha256, response_text FROM results');
    expect(rows).toHaveLength(6);
    // The third turn's request (and its recorded hash) is the whole conversation, as a live run makes it.
    const [t1, t2, t3] = trials as [Trial, Trial, Trial];
    const conv = withEarlierTurns(t3, [
      { trial: t1, reply: replyOf(0, 1) },
      { trial: t2, reply: replyOf(0, 2) },
    ]);
    expect(conv.messages[0]!.content[0]).toEqual({ type: 'text', text: openerOf(0) });
    expect(rows.find((x) => x.trial_id === t3.id)?.request_sha256).toBe(
      buildRequest(conv, ModelSpec.parse(MODEL)).sha256,
    );
  });

  it('records the turns after a refused turn as not sent, as a live run does, once', async () => {
    const ledger = path.join(dir, 'refused.sqlite');
    const round = (n: number) => ({
      bundle: bag,
      modelsFile: models,
      modelNames: ['m'],
      out: path.join(dir, `r-in-${n}.jsonl`),
      ledger,
    });
    expect((await batchExport(round(1))).requests).toBe(2);
    // Conversation 0's first turn is refused; conversation 1's is answered.
    const output = path.join(dir, 'r-out-1.jsonl');
    await answer(round(1).out, output, (c, turn) => (c === 0 && turn === 1 ? 'refuse' : 'answer'));
    const opts = { files: [output], bundle: bag, model: 'm', ledger, modelsFile: models };
    const imported = await batchImport(opts);
    expect(imported.outcomes).toEqual({ answer: 1, model_refusal: 1 });
    expect(imported.not_sent).toBe(2);
    const unsent = () =>
      query(
        ledger,
        'SELECT trial_id, conversation_id, turn, reason, previous_trial_id, previous_outcome, recorded_at FROM unsent_turns ORDER BY turn',
      );
    const [t1, t2, t3] = trials as [Trial, Trial, Trial];
    const rows = unsent();
    // The same rows and reasons as the live run writes (test/run/pressure.test.ts).
    expect(rows.map(({ recorded_at: _, ...r }) => r)).toEqual([
      {
        trial_id: t2.id,
        conversation_id: t1.conversation!.id,
        turn: 2,
        reason: 'previous_turn_model_refusal',
        previous_trial_id: t1.id,
        previous_outcome: 'model_refusal',
      },
      {
        trial_id: t3.id,
        conversation_id: t1.conversation!.id,
        turn: 3,
        reason: 'previous_turn_not_sent',
        previous_trial_id: t2.id,
        previous_outcome: 'not_sent',
      },
    ]);
    // Neither the import's missing list nor the next export holds them.
    expect(imported.missing).toEqual([trials[4]!.id, trials[5]!.id]);
    const next = await batchExport(round(2));
    expect(next.requests).toBe(1);
    expect(next.held).toEqual({ waiting: 1, after_no_answer: 0, after_failed: 0 });
    expect(await answer(round(2).out, path.join(dir, 'r-out-2.jsonl'))).toEqual([[1, 2]]);
    // Importing the first round again changes nothing.
    const again = await batchImport(opts);
    expect({ recorded: again.recorded, not_sent: again.not_sent }).toEqual({
      recorded: 0,
      not_sent: 0,
    });
    expect(unsent()).toEqual(rows);
  });

  it('leaves the turns after a failed turn waiting, as a live run does, and says why', async () => {
    const ledger = path.join(dir, 'failed.sqlite');
    const round = (n: number) => ({
      bundle: bag,
      modelsFile: models,
      modelNames: ['m'],
      out: path.join(dir, `f-in-${n}.jsonl`),
      ledger,
    });
    await batchExport(round(1));
    const output = path.join(dir, 'f-out-1.jsonl');
    await answer(round(1).out, output, (c, turn) => (c === 0 && turn === 1 ? 'fail' : 'answer'));
    const opts = { files: [output], bundle: bag, model: 'm', ledger, modelsFile: models };
    const imported = await batchImport(opts);
    expect(imported.outcomes).toEqual({ answer: 1, failed: 1 });
    // `run --retry-failed` may send the failed turn again: its later turns are not given up.
    expect(imported.not_sent).toBe(0);
    expect(query(ledger, 'SELECT COUNT(*) AS n FROM unsent_turns')).toEqual([{ n: 0 }]);
    const next = await batchExport(round(2));
    expect(next.requests).toBe(1);
    // Conversation 0's turn 2 follows the failed turn; both turns 3 wait for their turn 2.
    expect(next.held).toEqual({ waiting: 2, after_no_answer: 0, after_failed: 1 });
  });

  it('refuses a line of a turn whose previous turn is not answered; nothing recorded', async () => {
    const ledger = path.join(dir, 'order.sqlite');
    const t2 = trials[1]!;
    const output = path.join(dir, 'early.jsonl');
    const body = {
      id: 'x',
      object: 'chat.completion',
      model: 'm',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'Agree' }, finish_reason: 'stop' },
      ],
    };
    await writeFile(
      output,
      `${JSON.stringify({ id: 'b', custom_id: `${t2.id}-0000000000000000`, response: { status_code: 200, body }, error: null })}\n`,
    );
    await expect(
      batchImport({ files: [output], bundle: bag, model: 'm', ledger, modelsFile: models }),
    ).rejects.toMatchObject({ code: 'E_BATCH_TURN_ORDER' });
  });
});
