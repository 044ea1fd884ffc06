// Judge calls count too: each judged response's result in the judge ledger records its cost
// from the reply's usage at the judge's price (run/cost.ts).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJudgeCalls } from '../../src/audit/judge-calls.js';
import { sha256 } from '../../src/core/fsio.js';
import { ModelSpec } from '../../src/models/schema.js';
import { tempDir } from '../helpers/tmp.js';
import { FAST, query } from '../run/helpers.js';
import { startServer, type TestServer } from '../run/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer(); // usage: 10 prompt + 5 completion tokens per reply
});
afterAll(() => server.close());

describe('judge calls', () => {
  it('record each result’s cost at the judge’s price', async () => {
    const ledger = path.join(await tempDir('stimkit-judge-cost-'), 'j.sqlite');
    const judge = ModelSpec.parse({
      name: 'judge',
      role: 'judge',
      endpoint: server.url,
      price: { input_per_mtok: 3, output_per_mtok: 15 },
    });
    const r = await runJudgeCalls({
      ledger,
      digest: 'd'.repeat(64),
      studyId: null,
      runLabel: 'main/rubric-x',
      judge,
      profile: { provider: 'openai' },
      targets: ['a', 'b'],
      targetIdOf: (t) => t,
      request: (t) => {
        const body = {
          model: 'judge',
          messages: [{ role: 'user', content: `trial 0: judge ${t}` }],
        };
        return { body, sha256: sha256(JSON.stringify(body)) };
      },
      backoff: FAST,
    });
    expect(r.judged).toBe(2);
    const rows = query(ledger, 'SELECT trial_id, cost_usd FROM results ORDER BY trial_id');
    expect(rows.map((x: any) => x.trial_id)).toEqual(['a', 'b']);
    for (const x of rows) expect(x.cost_usd).toBeCloseTo((10 * 3 + 5 * 15) / 1e6, 12);
  });
});
