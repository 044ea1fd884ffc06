// The models file: the shipped paper and demo files load; names match the study's model sets;
// bad files are rejected with the field and line; the committed JSON Schema is current.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadModelsFile } from '../../src/models/load.js';
import { MODELS_SCHEMA_FILE, modelsSchemaText } from '../../src/models/json-schema.js';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const manifest = (f: string) => path.join(ROOT, 'manifests', f);

describe('manifests/paper.models.yaml', () => {
  it('names the papers’ 9 VLMs and 11 LLMs exactly as paper.study.yaml’s model sets, with origins', async () => {
    const file = await loadModelsFile(manifest('paper.models.yaml'));
    const study = parse(await readFile(manifest('paper.study.yaml'), 'utf8'));
    const names = file.models.map((m) => m.name);
    expect(names).toEqual([...study.models.vlm, ...study.models.llm]);
    const origin = (set: string[]) => set.map((n) => file.models.find((m) => m.name === n)!.origin);
    // Audit paper: seven China-origin, two non-China VLMs. Instrument paper: 5 CN, 5 US, 1 European.
    expect(origin(study.models.vlm).filter((o) => o === 'CN')).toHaveLength(7);
    expect(origin(study.models.llm).filter((o) => o === 'CN')).toHaveLength(5);
    expect(origin(study.models.llm).filter((o) => o === 'US')).toHaveLength(5);
    for (const m of file.models) {
      if (study.models.llm.includes(m.name)) {
        expect(m.api_key_env).toBe('OPENROUTER_API_KEY');
        expect(m.modalities).toEqual(['text']);
      } else {
        expect(m.sampling).toMatchObject({ top_k: 'send', thinking: 'chat_template_kwargs' });
      }
    }
  });
});

describe('manifests/demo.models.yaml', () => {
  it('holds three instrument and three VLM simulated respondents, and two simulated judges', async () => {
    const file = await loadModelsFile(manifest('demo.models.yaml'));
    expect(
      file.models.map((m) => [
        m.name,
        m.provider,
        m.role,
        m.paradigms?.includes('instrument') ?? null,
      ]),
    ).toEqual([
      ['sim-acquiescer', 'sim', 'respondent', true],
      ['sim-convinced', 'sim', 'respondent', true],
      ['sim-freetext', 'sim', 'respondent', true],
      ['sim-refuser-zh', 'sim', 'respondent', false],
      ['sim-reframer', 'sim', 'respondent', false],
      ['sim-candid', 'sim', 'respondent', false],
      ['sim-judge', 'sim', 'judge', null],
      ['sim-judge-b', 'sim', 'judge', null],
    ]);
    // Eq. 1's origin term needs VLM respondents of both origins.
    const vlm = file.models.filter(
      (m) => m.role === 'respondent' && !m.paradigms?.includes('instrument'),
    );
    expect(vlm.map((m) => m.origin)).toEqual(['CN', 'CN', 'US']);
  });
});

describe('rejected models files', () => {
  it('reports each problem with its field and line', async () => {
    const dir = await tempDir('stimkit-models-');
    const file = path.join(dir, 'bad.yaml');
    await writeFile(
      file,
      [
        'format: stimkit.models',
        'version: 1',
        'models:',
        '  - name: a',
        '    api_key_env: sk-abc123',
        '    endpoint: http://127.0.0.1:1/v1',
        '  - name: b',
        '    provider: openai',
        '  - name: a',
        '    endpoint: ftp://x',
        '',
      ].join('\n'),
    );
    const err = await loadModelsFile(file).then(
      () => null,
      (e) => e,
    );
    expect(err?.code).toBe('E_MODELS_SCHEMA');
    const where = err.problems.map((p: any) => `${p.field}@${p.line}`);
    expect(where).toEqual(
      expect.arrayContaining([
        'models[0].api_key_env@5',
        'models[1].endpoint@7',
        'models[2].endpoint@10',
      ]),
    );
  });

  it('rejects duplicate names', async () => {
    const dir = await tempDir('stimkit-models-');
    const file = path.join(dir, 'dup.yaml');
    await writeFile(
      file,
      'format: stimkit.models\nversion: 1\nmodels:\n  - {name: a, endpoint: "http://127.0.0.1:1/v1"}\n  - {name: a, endpoint: "http://127.0.0.1:2/v1"}\n',
    );
    const err = await loadModelsFile(file).then(
      () => null,
      (e) => e,
    );
    expect(err?.code).toBe('E_MODELS_DUPLICATE');
    expect(err.problems[0].line).toBe(5);
  });
});

describe('JSON Schema', () => {
  it('manifests/schema/models.schema.json is current (npm run schemas)', async () => {
    expect(await readFile(MODELS_SCHEMA_FILE, 'utf8')).toBe(modelsSchemaText());
  });
});
