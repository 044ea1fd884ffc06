/**
 * The contract with OpenAI's own definition of its API: every OpenAI request body stimkit builds
 * is validated (ajv) against JSON Schema generated, at test time, from the `openai` package's
 * TypeScript types, which OpenAI generates from its published OpenAPI description
 * (openai/openai-openapi). Objects are closed (`additionalProperties: false`), so a field OpenAI
 * does not define fails, as does a wrong type. Checked: chat completions bodies for text and
 * image trials (images as data URLs), thinking on and off, for a hosted-OpenAI mapping and for
 * the default vLLM mapping (whose two extra parameters, `top_k` and `chat_template_kwargs`, are
 * vLLM's: request.ts's VLLM_FIELDS, the only fields allowed beyond OpenAI's); every line `batch
 * export` writes; the audit judge's and the instrument judge's requests and judge batch lines.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { createGenerator } from 'ts-json-schema-generator';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { exportJudgeBatch } from '../../src/audit/judge-batch.js';
import { buildJudgeRequest, type JudgeTarget } from '../../src/audit/judge-request.js';
import { DEFAULT_RUBRIC_FILE, loadRubric } from '../../src/study/rubric.js';
import type { Rubric } from '../../src/study/rubric-schema.js';
import { batchExport } from '../../src/batch/export.js';
import type { Trial } from '../../src/bundle/format.js';
import { ModelSpec } from '../../src/models/schema.js';
import { ImageStore } from '../../src/client/images.js';
import { buildRequest, VLLM_FIELDS, type RequestBody } from '../../src/client/request.js';
import { instrumentJudgeRequest } from '../../src/score/instrument-judge-prompt.js';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { writeRunBag } from '../run/fixture.js';
import { writeModels } from '../run/helpers.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 180 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(10) });

let chat: ValidateFunction;
let batchLine: ValidateFunction;
let dir: string;
let bag: string;
let trials: Trial[];
let rubric: Rubric;

beforeAll(async () => {
  // The batch line's schema: its root is the line, its definitions hold every type it uses.
  const line = createGenerator({
    path: path.join(ROOT, 'test', 'contract', 'openai-types.ts'),
    tsconfig: path.join(ROOT, 'tsconfig.json'),
    type: 'OpenAIBatchLine',
    expose: 'all',
    topRef: false,
    skipTypeCheck: true,
    additionalProperties: false,
  }).createSchema('OpenAIBatchLine');
  const ajv = () => new Ajv({ strict: false, allErrors: true });
  batchLine = ajv().compile(line);
  chat = ajv().compile({
    $schema: line.$schema,
    definitions: line.definitions,
    $ref: '#/definitions/ChatCompletionCreateParamsNonStreaming',
  });
  dir = await tempDir('stimkit-contract-openai-');
  bag = path.join(dir, 'bag');
  trials = (await writeRunBag(bag, 2)).trials;
  rubric = (await loadRubric(DEFAULT_RUBRIC_FILE)).rubric;
});

/** The body without vLLM's extra parameters (the only fields allowed beyond OpenAI's). */
const withoutVllm = (body: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(body).filter(([k]) => !(VLLM_FIELDS as readonly string[]).includes(k)),
  );

function expectValid(v: ValidateFunction, value: unknown, what: string): void {
  const ok = v(value);
  expect(ok ? [] : v.errors, what).toEqual([]);
}

const HOSTED = ModelSpec.parse({
  name: 'gpt',
  endpoint: 'https://api.openai.com/v1',
  api_model: 'gpt-4o-2024-08-06',
  sampling: { top_k: 'drop', thinking: 'drop', max_tokens: 'max_completion_tokens' },
  image: { detail: 'high' },
});
const VLLM = ModelSpec.parse({ name: 'vlm', endpoint: 'http://127.0.0.1:9/v1' });
const JUDGE = ModelSpec.parse({
  name: 'judge',
  role: 'judge',
  endpoint: 'http://127.0.0.1:9/v1',
  api_model: 'gpt-4o',
});

describe('OpenAI request bodies against the openai SDK’s definitions', () => {
  it('chat completions: text and image trials, thinking on and off, hosted and vLLM mappings', async () => {
    const images = new ImageStore(bag);
    let checked = 0;
    for (const thinking of [true, false])
      for (const t of trials)
        for (const model of [HOSTED, VLLM]) {
          const trial = { ...t, sampling: { ...t.sampling, thinking } };
          const built = buildRequest(trial, model);
          const body = await images.materialize(built.body);
          const extra = Object.keys(body).filter((k) => !(k in withoutVllm(body)));
          // only the vLLM mapping sends vLLM's extra parameters
          expect(extra.length === 0 || model === VLLM).toBe(true);
          expectValid(chat, withoutVllm(body), `${t.id} thinking ${thinking} ${model.name}`);
          checked++;
        }
    expect(checked).toBe(16);
    expect(trials.filter((t) => t.images.length > 0)).toHaveLength(2);
  });

  it('every line batch export writes', async () => {
    const models = await writeModels(dir, [
      {
        name: 'gpt',
        endpoint: 'https://api.openai.com/v1',
        api_model: 'gpt-4o',
        sampling: { top_k: 'drop', thinking: 'drop' },
      },
      { name: 'vlm', endpoint: 'http://127.0.0.1:9/v1' },
    ]);
    for (const name of ['gpt', 'vlm']) {
      const out = path.join(dir, `${name}.jsonl`);
      await batchExport({ bundle: bag, modelsFile: models, modelNames: [name], out });
      const lines = (await readFile(out, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines).toHaveLength(4);
      for (const l of lines)
        expectValid(batchLine, { ...l, body: withoutVllm(l.body) }, `${name} ${l.custom_id}`);
    }
  });

  it('the judges’ requests and judge batch lines', async () => {
    const target = (image: string | null): JudgeTarget => ({
      trialId: trials[0]!.id,
      model: 'resp',
      imageSha256: image,
      truth: null,
      input: {
        trial_id: trials[0]!.id,
        entry: null,
        prompt: { text: 'Describe the photograph.', lang: 'en', paradigm: 'describe' },
        response: 'A crowd in a square.',
      },
    });
    const targets = [target(null), target(trials[2]!.images[0]!)];
    for (const judge of [
      JUDGE,
      ModelSpec.parse({ ...JUDGE, sampling: { max_tokens: 'max_completion_tokens' } }),
      ModelSpec.parse({ ...JUDGE, image: { detail: 'low' } }),
    ])
      for (const t of targets)
        for (const structured of [true, false])
          expectValid(
            chat,
            buildJudgeRequest(rubric, t, judge, structured).body,
            `audit ${structured}`,
          );
    expectValid(
      chat,
      instrumentJudgeRequest(JUDGE, 'Do you agree?', 'Perhaps.').body,
      'instrument',
    );
    const images = new ImageStore(bag);
    const { file } = await exportJudgeBatch({
      dir: path.join(dir, 'judge'),
      judge: JUDGE,
      runLabel: `main/rubric-${'a'.repeat(12)}`,
      digest: 'b'.repeat(64),
      pending: targets,
      targetIdOf: (t) => `${t.trialId}@${t.imageSha256 ? 'img' : 'txt'}`,
      request: (t) => buildJudgeRequest(rubric, t, JUDGE),
      materialize: (b) => images.materialize(b),
    });
    const lines = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    for (const l of lines) expectValid(batchLine, l, l.custom_id);
    expect(JSON.stringify(lines[1])).toContain('data:image/png;base64,');
  });

  it('fails a body with a field OpenAI does not define, a wrong type, or a wrong batch url', () => {
    const good: RequestBody = buildRequest(trials[0]!, HOSTED).body;
    expectValid(chat, good, 'good');
    expect(chat({ ...good, max_token: 64 })).toBe(false);
    expect(chat({ ...good, top_k: 20 })).toBe(false);
    expect(chat({ ...good, temperature: '0.7' })).toBe(false);
    expect(chat({ ...good, messages: [{ role: 'robot', content: 'hi' }] })).toBe(false);
    expect(
      chat({
        ...good,
        messages: [{ role: 'user', content: [{ type: 'image', image_url: { url: 'x' } }] }],
      }),
    ).toBe(false);
    const line = { custom_id: 'a', method: 'POST', url: '/v1/chat/completions', body: good };
    expectValid(batchLine, line, 'line');
    expect(batchLine({ ...line, url: '/v1/chat/completion' })).toBe(false);
    expect(batchLine({ ...line, method: 'GET' })).toBe(false);
    expect(batchLine({ ...line, params: {} })).toBe(false);
  });
});
