// cost.csv: per model, what the scored run's results recorded (tokens from usage, cost_usd),
// respondents from the run ledger and judges from the judge ledger's runs of that respondent
// run; and the report's cost section built from it.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costSection } from '../../src/report/sections/cost.js';
import type { ReportContext } from '../../src/report/types.js';
import { runStudy } from '../../src/run/run.js';
import { costCsv } from '../../src/score/cost.js';
import { parseCsv } from '../../src/core/csv.js';
import { tempDir } from '../helpers/tmp.js';
import { writeRunBag } from '../run/fixture.js';
import { FAST, writeModels } from '../run/helpers.js';
import { startServer, type TestServer } from '../run/server.js';

let dir: string;
let server: TestServer;
beforeAll(async () => {
  dir = await tempDir('stimkit-score-cost-');
  server = await startServer(); // usage: 10 prompt + 5 completion tokens per reply
});
afterAll(() => server.close());

describe('cost.csv and the cost section', () => {
  it('sums each model’s recorded tokens and cost, judges included, and the report shows them', async () => {
    const bag = path.join(dir, 'bag');
    await writeRunBag(bag, 4);
    const models = await writeModels(dir, [
      { name: 'priced', endpoint: server.url, price: { input_per_mtok: 1, output_per_mtok: 4 } },
      { name: 'free', endpoint: server.url },
      {
        name: 'judge',
        endpoint: server.url,
        role: 'judge',
        price: { input_per_mtok: 2, output_per_mtok: 2 },
      },
    ]);
    const ledger = path.join(dir, 'run.sqlite');
    await runStudy({
      bundle: bag,
      modelsFile: models,
      modelNames: ['priced', 'free'],
      ledger,
      backoff: FAST,
    });
    // A judge run of respondent run "main", as the judges write it (label main/…), and another run's.
    const judges = path.join(dir, 'run.judges.sqlite');
    await runStudy({
      bundle: bag,
      modelsFile: models,
      modelNames: ['judge'],
      ledger: judges,
      newRun: 'main/rubric-x',
      limit: 3,
      backoff: FAST,
    });
    await runStudy({
      bundle: bag,
      modelsFile: models,
      modelNames: ['judge'],
      ledger: judges,
      newRun: 'other/rubric-x',
      limit: 1,
      backoff: FAST,
    });

    const text = costCsv(ledger, 'main', judges);
    expect(costCsv(ledger, 'main', judges)).toBe(text);
    const { header, rows } = parseCsv(text);
    expect(header).toEqual([
      'model',
      'role',
      'run',
      'results',
      'with_usage',
      'input_tokens',
      'cached_input_tokens',
      'output_tokens',
      'cost_usd',
      'unpriced',
    ]);
    expect(rows).toEqual([
      ['free', 'respondent', 'main', '6', '6', '60', '0', '30', '', '6'],
      [
        'priced',
        'respondent',
        'main',
        '6',
        '6',
        '60',
        '0',
        '30',
        String((60 * 1 + 30 * 4) / 1e6),
        '0',
      ],
      [
        'judge',
        'judge',
        'main/rubric-x',
        '3',
        '3',
        '30',
        '0',
        '15',
        String((30 * 2 + 15 * 2) / 1e6),
        '0',
      ],
    ]);

    const table = {
      header,
      rows: rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]!]))),
    };
    const ctx = {
      table: (f: string) => Promise.resolve(f === 'cost.csv' ? table : null),
    } as unknown as ReportContext;
    expect(await costSection.applies(ctx)).toBe(true);
    const built = await costSection.build(ctx);
    expect(built.tables[0]!.rows.map((r) => [r[0], r[6]])).toEqual([
      ['free', null],
      ['priced', 0.00018],
      ['judge', 0.00009],
    ]);
    expect(built.paragraphs.join(' ')).toContain('$0.0003');
    expect(built.paragraphs.join(' ')).toContain('not counted: free');
  });
});
