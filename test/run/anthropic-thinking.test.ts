// Anthropic's thinking budget: the Messages API takes budget_tokens of at least 1024, so the models
// file refuses 1–1023 (0 turns thinking off); the request's max_tokens is the limit plus the one
// budget sent, and the dry run's output ceiling is that same max_tokens (thinking bills as output).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Trial } from '../../src/bundle/format.js';
import { loadModelsFile } from '../../src/models/load.js';
import { ModelSpec } from '../../src/models/schema.js';
import { estimateModel } from '../../src/run/estimate.js';
import { anthropic } from '../../src/client/providers/anthropic.js';
import { SentImageStore } from '../../src/client/send-image.js';
import { tempDir } from '../helpers/tmp.js';
import { anthropicProblem } from './vendor/validate-anthropic.js';

const HEADERS = { 'anthropic-version': '2026-10-21', 'content-type': 'application/json' };
const trial = {
  id: 't_1',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  sampling: { max_tokens: 64, thinking: true },
  seed: null,
  images: [],
} as unknown as Trial;
const claude = (extra: Record<string, unknown>) =>
  ModelSpec.parse({ name: 'c', provider: 'anthropic', ...extra });

describe('anthropic thinking_budget', () => {
  it('2048: budget_tokens 2048 and max_tokens 64 + 2048, a body the API accepts', () => {
    const body = anthropic.build(trial, claude({ thinking_budget: 2048 })).body;
    expect(body).toMatchObject({
      max_tokens: 2112,
      thinking: { type: 'enabled', budget_tokens: 2048 },
    });
    expect(anthropicProblem(HEADERS, body)).toBeNull();
  });

  it('0: thinking off, max_tokens the trial’s', () => {
    const body = anthropic.build(trial, claude({ thinking_budget: 0 })).body;
    expect(body).toMatchObject({ max_tokens: 64, thinking: { type: 'disabled' } });
    expect(anthropicProblem(HEADERS, body)).toBeNull();
  });

  it('500: the models file is refused, naming the field, the value, what is expected and the fix', async () => {
    const file = path.join(await tempDir('stimkit-thinking-'), 'models.yaml');
    await writeFile(
      file,
      'format: stimkit.models\nversion: 1\nmodels:\n  - name: c\n    provider: anthropic\n    thinking_budget: 500\n',
    );
    const err = await loadModelsFile(file).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_MODELS_SCHEMA' });
    expect((err as { problems: unknown[] }).problems).toEqual([
      expect.objectContaining({
        field: 'models[0].thinking_budget',
        line: 6,
        got: '500 of type number',
        expected: '0 (thinking off) or an integer of at least 1024',
        fix: expect.stringContaining('set thinking_budget to 1024 or more'),
      }),
    ]);
    // gemini takes any budget (its thinkingBudget)
    expect(() =>
      ModelSpec.parse({ name: 'g', provider: 'gemini', thinking_budget: 500 }),
    ).not.toThrow();
  });

  it('the dry run’s output ceiling is the max_tokens sent: 64 + 4096', async () => {
    const model = claude({
      thinking_budget: 4096,
      price: { input_per_mtok: 3, output_per_mtok: 15, max_output_tokens: 100 },
    });
    expect(anthropic.build(trial, model).body.max_tokens).toBe(4160);
    const e = await estimateModel(
      model,
      [trial],
      new SentImageStore('/nonexistent'),
      new Map([[trial.id, trial]]),
    );
    expect(e.tokens!.output.high).toBe(4160);
  });
});
