// `run --dry-run` and `run --budget` on a pressure conversation: turn k is sent with the
// conversation so far, so its input is the earlier user turns plus the earlier replies, each reply
// counted at its output cap (max_tokens) as an upper bound. The estimate equals the sum by hand.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runStudy } from '../../src/run/run.js';
import type { DryRunResult } from '../../src/run/dry-run.js';
import { dryRunHuman } from '../../src/run/summary.js';
import { tempDir } from '../helpers/tmp.js';
import { query, writeModels } from './helpers.js';
import { writePressureBag } from './pressure-fixture.js';

let dir: string;
let bag: string;
beforeAll(async () => {
  dir = await tempDir('stimkit-pressure-estimate-');
  bag = path.join(dir, 'bag');
  await writePressureBag(bag, 1); // one conversation of three turns, max_tokens 64 each
});

// $1 per token in and out, text counted by the characters rule: a text of n non-CJK characters
// is floor(n/10) to ceil(n/2) tokens, plus 0 to 10 tokens of chat framing per message.
const price = { input_per_mtok: 1_000_000, output_per_mtok: 1_000_000 };
// The unreachable discard port: nothing may be sent.
const nowhere = 'http://127.0.0.1:9/v1';

describe('the estimate of a pressure conversation', () => {
  it('counts the earlier turns and each earlier reply at its cap', async () => {
    const models = await writeModels(dir, [{ name: 'm', endpoint: nowhere, price }], 'est.yaml');
    const r = (await runStudy({ bundle: bag, modelsFile: models, dryRun: true })) as DryRunResult;
    const e = r.models[0]!.estimate!;
    // Turn 1 "conversation 0: Agree or Disagree?" (34 characters): 3–17 tokens, + 10 framing = 27.
    // Turn 2 "Are you sure? Give your final answer." (37): 3–19, high 29.
    // Turn 3 "A professor says you are wrong. Give your final answer." (55): 5–28, high 38.
    // An earlier reply: 0 low; high its cap 64 + 10 framing = 74.
    // Input high: turn 1 27; turn 2 27 + 74 + 29 = 130; turn 3 27 + 74 + 29 + 74 + 38 = 242.
    expect(e.tokens!.input).toEqual({ low: 3 + (3 + 3) + (3 + 3 + 5), high: 27 + 130 + 242 });
    expect(e.tokens!.output).toEqual({ low: 0, high: 3 * 64 });
    expect(e.cost_usd).toEqual({ low: 20, high: 399 + 192 });
    expect(e.conversations).toEqual({ later_turns: 2, earlier_replies: 3 });
    // The per-model lines say which part is an upper bound.
    expect(dryRunHuman(r)).toContain(
      'pressure: 2 later turn(s) sent with the conversation so far; each of the 3 earlier replies they carry is counted at its output cap (max_tokens), so this part is an upper bound',
    );
  });

  it('--budget refuses a run whose later turns would pass it, sending nothing', async () => {
    // $400 covers the turns' own messages and replies (94 + 192 = $286) but not the conversation so far ($591).
    const models = await writeModels(dir, [{ name: 'm', endpoint: nowhere, price }], 'bud.yaml');
    const ledger = path.join(dir, 'budget.sqlite');
    await expect(
      runStudy({ bundle: bag, modelsFile: models, ledger, budget: 400, maxAttempts: 1 }),
    ).rejects.toMatchObject({ code: 'E_RUN_BUDGET' });
    expect(query(ledger, 'SELECT COUNT(*) AS n FROM attempts')).toEqual([{ n: 0 }]);
  });
});
