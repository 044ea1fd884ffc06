// The bad inputs of the native providers, each refused before anything is sent, naming the field:
// an anthropic model without max_tokens anywhere (neither the trials nor the models file), a
// gemini model given image trials without the image modality (run and batch export), and an
// unknown provider. The strict vendor stand-ins count what reaches them: nothing.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Trial } from '../../src/bundle/format.js';
import { trialId } from '../../src/bundle/trial-id.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { writeFixtureBag } from '../verify/fixture.js';
import { RUN_IMAGES, runTrials } from './fixture.js';
import { writeModels } from './helpers.js';
import { startVendorServer, type VendorServer } from './vendor/server.js';

let dir: string;
let bag: string;
let noMax: string;
let anthropic: VendorServer;
let gemini: VendorServer;

/** The fixture trials without max_tokens in their sampling (ids recomputed). */
function withoutMaxTokens(): Trial[] {
  return runTrials(2).map((trial) => {
    const t: Partial<Trial> = { ...trial, sampling: { ...trial.sampling } };
    delete t.id;
    delete t.sampling!.max_tokens;
    const u = t as Omit<Trial, 'id'>;
    return { id: trialId(u), ...u };
  });
}

beforeAll(async () => {
  dir = await tempDir('stimkit-native-refusals-');
  bag = path.join(dir, 'bag');
  await writeFixtureBag(bag, runTrials(2), RUN_IMAGES);
  noMax = path.join(dir, 'no-max');
  await writeFixtureBag(noMax, withoutMaxTokens(), RUN_IMAGES);
  anthropic = await startVendorServer('anthropic', 'k', () => ({ kind: 'ok' }));
  gemini = await startVendorServer('gemini', 'k', () => ({ kind: 'ok' }));
});
afterAll(async () => {
  await anthropic?.close();
  await gemini?.close();
});

async function refused(args: string[], code: string, field: string) {
  const ledger = path.join(dir, `${code}-${args[0]}.sqlite`);
  const r = await runCli([...args, ...(args[0] === 'run' ? ['--ledger', ledger] : []), '--json']);
  expect(r.code, r.stderr).toBe(1);
  const err = r.json().error;
  expect(err.code).toBe(code);
  expect(JSON.stringify(err)).toContain(field);
  expect(existsSync(ledger)).toBe(false);
}

describe('native providers: bad input refused before sending', () => {
  it('anthropic without max_tokens in the trials or the models file', async () => {
    const models = await writeModels(
      dir,
      [{ name: 'claude', provider: 'anthropic', endpoint: anthropic.url, api_key_env: 'K' }],
      'anthropic.yaml',
    );
    process.env.K = 'k';
    try {
      await refused(['run', noMax, '--models', models], 'E_RUN_MAX_TOKENS', 'claude.max_tokens');
      const out = path.join(dir, 'a.jsonl');
      await refused(
        ['batch', 'export', noMax, '--models', models, '--model', 'claude', '--out', out],
        'E_RUN_MAX_TOKENS',
        'claude.max_tokens',
      );
      expect(existsSync(out)).toBe(false);
    } finally {
      delete process.env.K;
    }
    expect(anthropic.requests.length + anthropic.rejected.length).toBe(0);
  });

  it('gemini given image trials without the image modality', async () => {
    const models = await writeModels(
      dir,
      [
        {
          name: 'flash',
          provider: 'gemini',
          endpoint: gemini.url,
          api_key_env: 'K',
          modalities: ['text'],
        },
      ],
      'gemini.yaml',
    );
    process.env.K = 'k';
    try {
      await refused(['run', bag, '--models', models], 'E_RUN_MODALITY', 'flash.modalities');
      const out = path.join(dir, 'g.jsonl');
      await refused(
        ['batch', 'export', bag, '--models', models, '--model', 'flash', '--out', out],
        'E_RUN_MODALITY',
        'flash.modalities',
      );
    } finally {
      delete process.env.K;
    }
    expect(gemini.requests.length + gemini.rejected.length).toBe(0);
  });

  it('an unknown provider', async () => {
    const models = await writeModels(
      dir,
      [{ name: 'm', provider: 'mistral', endpoint: anthropic.url }],
      'unknown.yaml',
    );
    await refused(['run', bag, '--models', models], 'E_MODELS_SCHEMA', 'models[0].provider');
    expect(anthropic.requests.length + anthropic.rejected.length).toBe(0);
  });
});
