// A judge is sent what its models-file entry says, as a respondent is: its `routing` as
// OpenRouter's `provider` object (and in the judge's recorded profile), its `image.detail` on the
// judged image.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJudgeCalls } from '../../src/audit/judge-calls.js';
import { buildJudgeRequest, type JudgeTarget } from '../../src/audit/judge-request.js';
import { ModelSpec } from '../../src/models/schema.js';
import { instrumentJudgeRequest } from '../../src/score/instrument-judge-prompt.js';
import { DEFAULT_RUBRIC_FILE, loadRubric } from '../../src/study/rubric.js';
import type { Rubric } from '../../src/study/rubric-schema.js';
import { tempDir } from '../helpers/tmp.js';
import { FAST, query } from '../run/helpers.js';
import { startServer, type TestServer } from '../run/server.js';

const ROUTING = { order: ['alibaba'], allow_fallbacks: false };
const judgeOf = (extra: Record<string, unknown>, endpoint = 'https://openrouter.ai/api/v1') =>
  ModelSpec.parse({ name: 'j', role: 'judge', endpoint, api_model: 'qwen/qwen3', ...extra });
const target: JudgeTarget = {
  trialId: 't_1',
  model: 'resp',
  imageSha256: 'a'.repeat(64),
  truth: null,
  input: {
    trial_id: 't_1',
    entry: null,
    prompt: { text: 'Describe the photograph.', lang: 'en', paradigm: 'describe' },
    response: 'A crowd in a square.',
  },
};

let rubric: Rubric;
let server: TestServer;
beforeAll(async () => {
  rubric = (await loadRubric(DEFAULT_RUBRIC_FILE)).rubric;
  server = await startServer();
});
afterAll(() => server.close());

const imagePart = (body: any) => body.messages[1].content.find((p: any) => p.type === 'image_url');

describe('judge requests', () => {
  it('send the routing as provider and the image with its detail', () => {
    const judge = judgeOf({ routing: ROUTING, image: { detail: 'high' } });
    const { body } = buildJudgeRequest(rubric, target, judge);
    expect(body.provider).toEqual(ROUTING);
    expect(imagePart(body).image_url).toEqual({ url: `sha256:${'a'.repeat(64)}`, detail: 'high' });
    expect(instrumentJudgeRequest(judge, 'Do you agree?', 'Perhaps.').body.provider).toEqual(
      ROUTING,
    );
  });

  it('without them, send neither', () => {
    const { body } = buildJudgeRequest(rubric, target, judgeOf({}));
    expect(body).not.toHaveProperty('provider');
    expect(imagePart(body).image_url).toEqual({ url: `sha256:${'a'.repeat(64)}` });
  });

  it('record the routing in the judge’s profile, so a changed route is reported', async () => {
    const ledger = path.join(await tempDir('stimkit-judge-route-'), 'j.sqlite');
    const judge = judgeOf({ routing: ROUTING }, server.url);
    await runJudgeCalls({
      ledger,
      digest: 'd'.repeat(64),
      studyId: null,
      runLabel: 'main/rubric-x',
      judge,
      profile: { provider: 'openai' },
      targets: [target],
      targetIdOf: (t) => t.trialId,
      request: () => buildJudgeRequest(rubric, { ...target, imageSha256: null }, judge),
      backoff: FAST,
    });
    const [row] = query(ledger, 'SELECT profile FROM models');
    expect(JSON.parse(row.profile)).toEqual({ provider: 'openai', routing: ROUTING });
  });
});
