// The models file's entries, one per provider: an entry without `provider` is an openai entry (older
// files load unchanged); each entry refuses another provider's fields, naming the provider that
// takes them, with the field, line and fix; an unknown provider names the four it may be.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModelsFile } from '../../src/models/load.js';
import { tempDir } from '../helpers/tmp.js';

async function load(models: string[]): Promise<unknown> {
  const file = path.join(await tempDir('stimkit-entries-'), 'models.yaml');
  await writeFile(
    file,
    ['format: stimkit.models', 'version: 1', 'models:', ...models, ''].join('\n'),
  );
  return loadModelsFile(file).catch((e: unknown) => e);
}

const problems = (err: unknown) =>
  (err as { problems: Array<Record<string, unknown>> }).problems.map((p) => ({
    field: p.field,
    line: p.line,
    message: p.message,
    fix: p.fix,
  }));

describe('models file entries', () => {
  it('an entry without provider is an openai entry', async () => {
    const file = await load(['  - name: a', '    endpoint: http://127.0.0.1:1/v1']);
    expect(file).toMatchObject({ models: [{ name: 'a', provider: 'openai' }] });
  });

  it('refuse another provider’s fields, naming whose they are', async () => {
    const err = await load([
      '  - name: o',
      '    endpoint: http://127.0.0.1:1/v1',
      '    anthropic_version: "2026-10-21"',
      '    safety_settings: []',
      '  - name: s',
      '    provider: sim',
      '    sim: {seed: 1}',
      '    routing: {only: [X]}',
      '    image: {max_side: 512}',
      '  - name: g',
      '    provider: gemini',
      '    sim: {seed: 1}',
    ]);
    expect(err).toMatchObject({ code: 'E_MODELS_SCHEMA' });
    expect(problems(err)).toEqual([
      {
        field: 'models[0].safety_settings',
        line: 7,
        message: 'only provider gemini takes safety_settings (this model is provider openai)',
        fix: 'correct models[0].safety_settings',
      },
      {
        field: 'models[0].anthropic_version',
        line: 6,
        message: 'only provider anthropic takes anthropic_version (this model is provider openai)',
        fix: 'correct models[0].anthropic_version',
      },
      {
        field: 'models[1].routing',
        line: 11,
        message:
          'only provider openai (OpenRouter) takes a routing block (this model is provider sim)',
        fix: 'correct models[1].routing',
      },
      {
        field: 'models[1].image',
        line: 12,
        message:
          'a simulated respondent sends no request: the image block applies to real providers only',
        fix: 'correct models[1].image',
      },
      {
        field: 'models[2].sim',
        line: 15,
        message: 'only provider sim takes a sim: block',
        fix: 'correct models[2].sim',
      },
    ]);
  });

  it('an unknown provider: the four it may be, and the fix', async () => {
    const err = await load(['  - name: m', '    provider: mistral']);
    expect(problems(err)).toEqual([
      {
        field: 'models[0].provider',
        line: 5,
        message: 'value not allowed',
        fix: 'use one of "openai", "anthropic", "gemini", "sim"',
      },
    ]);
  });
});
