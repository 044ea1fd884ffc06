/**
 * Which models get pressure rows: a model the models file keeps out of the paradigm (a VLM or
 * instrument-only respondent) gets none — not a conversation of `unrecorded` turns for every
 * planned turn — and without a models file a model with no pressure turn at all gets none either.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreToFolder } from '../../src/score/score.js';
import { tempDir } from '../helpers/tmp.js';
import { handLedger, pressureBundle } from './pressure-fixture.js';

const modelsOf = (csv: string) =>
  csv
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(',')[1]);

describe('pressure rows per model', () => {
  it('are written only for the models that take part in the paradigm', async () => {
    const dir = await tempDir('stimkit-pressure-models-');
    const fx = await pressureBundle(dir);
    const ledger = path.join(dir, 'run.ledger.sqlite');
    const instrument = fx.trials.find((t) => t.paradigm === 'instrument')!;
    handLedger(
      ledger,
      fx,
      'm1',
      [{ trial: fx.turn('en', 'affirmative', 1), outcome: 'answer', text: 'Agree' }],
      [],
    );
    handLedger(ledger, fx, 'm2', [{ trial: instrument, outcome: 'answer', text: 'Agree' }], []);
    const models = path.join(dir, 'models.yaml');
    await writeFile(
      models,
      [
        'format: stimkit.models',
        'version: 1',
        'models:',
        '  - {name: m1, endpoint: "http://127.0.0.1:9/v1", paradigms: [instrument, pressure]}',
        '  - {name: m2, endpoint: "http://127.0.0.1:9/v1", paradigms: [instrument]}',
        '',
      ].join('\n'),
    );
    for (const withModels of [true, false]) {
      const out = path.join(dir, withModels ? 'scores-models' : 'scores-bare');
      await scoreToFolder({
        bundle: fx.bundle,
        source: { kind: 'ledger', file: ledger },
        out,
        ...(withModels ? { models } : {}),
      });
      const turns = modelsOf(await readFile(path.join(out, 'pressure.csv'), 'utf8'));
      // m1: the fixture's 4 conversations × 4 turns, 1 answered and 15 unrecorded; m2: none.
      expect(turns).toEqual(Array.from({ length: 16 }, () => 'm1'));
      const convs = modelsOf(await readFile(path.join(out, 'pressure-conversations.csv'), 'utf8'));
      expect(convs).toEqual(['m1', 'm1', 'm1', 'm1']);
    }
  });
});
