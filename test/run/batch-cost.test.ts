// Batch files and the two blocks: batch export sends the image block's bytes, as run does, and
// batch import records each result's sent images and its cost at the batch price.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/core/fsio.js';
import { tempDir } from '../helpers/tmp.js';
import { writeFixtureBag } from '../verify/fixture.js';
import { exportBatch, importBatch, query, writeModels } from './helpers.js';
import { imageTrials, patternPng } from './pattern.js';

describe('batch export and import with image and price blocks', () => {
  it('exports the made bytes and imports their record with the discounted cost', async () => {
    const dir = await tempDir('stimkit-batch-cost-');
    const bag = path.join(dir, 'bag');
    const pngs = [await patternPng(640, 480), await patternPng(200, 100)];
    await writeFixtureBag(bag, imageTrials(pngs), pngs);
    const models = await writeModels(dir, [
      {
        name: 'm',
        endpoint: 'http://127.0.0.1:9/v1',
        image: { max_side: 160, format: 'jpeg' },
        price: { input_per_mtok: 2, output_per_mtok: 8, batch_discount: 0.5 },
      },
    ]);
    const input = path.join(dir, 'in.jsonl');
    const exp = await exportBatch(bag, models, 'm', input);
    expect(exp.code, exp.stderr).toBe(0);
    const lines = (await readFile(input, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const sentSha = new Map<string, string>();
    for (const l of lines) {
      const url = l.body.messages[0].content[0].image_url.url as string;
      expect(url.startsWith('data:image/jpeg;base64,')).toBe(true);
      // custom_ids are `<trial id>-<request hash>`
      sentSha.set(l.custom_id.split('-')[0], sha256(Buffer.from(url.split(',')[1]!, 'base64')));
    }
    const output = path.join(dir, 'out.jsonl');
    const reply = (id: string) => ({
      id: `b-${id}`,
      custom_id: id,
      response: {
        status_code: 200,
        body: {
          model: 'm',
          choices: [{ message: { content: 'ok' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1000, completion_tokens: 100 },
        },
      },
      error: null,
    });
    await writeFile(output, lines.map((l) => JSON.stringify(reply(l.custom_id))).join('\n') + '\n');
    const ledger = path.join(dir, 'b.sqlite');
    const imp = await importBatch([output], bag, models, 'm', ledger);
    expect(imp.code, imp.stderr).toBe(0);
    const rows = query(ledger, 'SELECT trial_id, sent_images, cost_usd FROM results');
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r.cost_usd).toBeCloseTo(((1000 * 2 + 100 * 8) / 1e6) * 0.5, 12);
      const [img] = JSON.parse(r.sent_images);
      expect(img.sha256).toBe(sentSha.get(r.trial_id));
      expect(img.mime).toBe('image/jpeg');
    }
  });
});
