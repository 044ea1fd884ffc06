/**
 * A small run for the export tests: the run fixture's bag (four text trials and two image trials)
 * run through a scripted chat-completions server on 127.0.0.1, one reply of each outcome the
 * server can give: an answer with reasoning, a reply cut at the token limit, a content filter
 * (provider_block), an empty reply (suppressed), an HTTP 400 (failed), a plain answer.
 */
import path from 'node:path';
import { expect } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { writeRunBag } from '../run/fixture.js';
import { writeModels } from '../run/helpers.js';
import { startServer, type Action } from '../run/server.js';

/** The reply of trial k (0–3 text, 4–5 image). */
const SCRIPT: Record<number, Action> = {
  0: { kind: 'ok', text: 'An answer.', reasoning: 'Thinking first.' },
  1: { kind: 'ok', text: 'Cut at the li', finish_reason: 'length' },
  2: { kind: 'ok', text: '', finish_reason: 'content_filter' },
  3: { kind: 'ok', text: '' },
  4: { kind: 'status', status: 400, body: '{"error":{"message":"bad image"}}' },
  5: { kind: 'ok', text: 'A picture of something.' },
};

/** The outcome the ledger records for trial k. */
export const OUTCOME_OF_K = [
  'answer',
  'length',
  'provider_block',
  'suppressed',
  'failed',
  'answer',
];

/** The model's name: not a file name as it is, so the log's name carries a hash. */
export const MODEL = 'acme/vl 1';

/** Write the bag and run it into a ledger in `dir`. */
export async function exportFixture(dir: string) {
  const bag = path.join(dir, 'bag');
  const { trials, digest } = await writeRunBag(bag, 4);
  const server = await startServer((r) => SCRIPT[r.k] ?? { kind: 'ok' });
  try {
    const models = await writeModels(dir, [
      { name: MODEL, endpoint: server.url, price: { input_per_mtok: 1, output_per_mtok: 2 } },
    ]);
    const ledger = path.join(dir, 'run.ledger.sqlite');
    const r = await runCli(['run', bag, '--models', models, '--ledger', ledger, '--json']);
    expect(r.code, r.stderr).toBe(0);
    return { bag, ledger, trials, digest };
  } finally {
    await server.close();
  }
}
