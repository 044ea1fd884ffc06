// A literal key in api_key_env is never printed: values shaped like keys (an AWS key id, a
// 40-character run of capitals and digits) are refused by `check` and `run` without being
// repeated; values the schema takes but that are not conventional variable names are named only
// by where they are set (file, line, field; or --api-key-env) in E_RUN_NO_KEY, on stderr and in
// --json; conventional names (OPENAI_API_KEY) are printed.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { writeRunBag } from './fixture.js';
import { writeModels } from './helpers.js';

const AWS = 'AKIAIOSFODNN7EXAMPLE';
const RUN40 = 'ZQ7VT2KX9PLM4RB8WN3YC6HJ1FD5GS0A2QE7TU4V';
const ODD = ['KEY_8F3A9B2C7D1E', 'zq7vt2_lower_secret', 'OPENAIKEYVALUE'];
let dir: string;
let bag: string;

beforeAll(async () => {
  dir = await tempDir('stimkit-run-keyenv-');
  bag = path.join(dir, 'bag');
  await writeRunBag(bag, 1);
});

const model = (api_key_env: string) => ({
  name: 'm',
  endpoint: 'http://127.0.0.1:1/v1',
  api_key_env,
});

describe('api_key_env', () => {
  it('that holds a key is refused by check and run, and never printed', async () => {
    for (const [i, value] of [AWS, RUN40].entries()) {
      const models = await writeModels(dir, [model(value)], `key-${i}.yaml`);
      const check = await runCli(['check', models, '--json']);
      const run = await runCli(['run', bag, '--models', models, '--json']);
      const flag = await runCli([
        'run',
        bag,
        '--model',
        'm',
        '--endpoint',
        'http://127.0.0.1:1/v1',
        '--api-key-env',
        value,
        '--json',
      ]);
      for (const r of [check, run, flag]) {
        expect(r.code, value).not.toBe(0);
        expect(r.stdout + r.stderr, value).not.toContain(value);
      }
      expect(run.json().error.code).toBe('E_MODELS_SCHEMA');
    }
  });

  it('that is not a conventional name is named by file, line and field, never by value', async () => {
    for (const value of ODD) {
      delete process.env[value];
      const models = await writeModels(dir, [model(value)], `odd.yaml`);
      const run = await runCli(['run', bag, '--models', models, '--json']);
      expect(run.code, run.stderr).toBe(1);
      const err = run.json().error;
      expect(err.code).toBe('E_RUN_NO_KEY');
      expect(run.stdout + run.stderr).not.toContain(value);
      expect(run.stderr).toContain('odd.yaml line 6, field models[0].api_key_env');
      const flag = await runCli([
        'run',
        bag,
        '--model',
        'm',
        '--endpoint',
        'http://127.0.0.1:1/v1',
        '--api-key-env',
        value,
        '--json',
      ]);
      expect(flag.json().error.code).toBe('E_RUN_NO_KEY');
      expect(flag.stdout + flag.stderr).not.toContain(value);
      expect(flag.stderr).toContain('--api-key-env');
    }
  });

  it('that is a conventional name is printed', async () => {
    const name = 'STIMKIT_UNSET_API_KEY';
    delete process.env[name];
    const models = await writeModels(dir, [model(name)], 'plain.yaml');
    const run = await runCli(['run', bag, '--models', models, '--json']);
    expect(run.json().error.code).toBe('E_RUN_NO_KEY');
    expect(run.stderr).toContain(`$${name}, which is not set`);
    expect(run.stderr).toContain(`export ${name}=…`);
  });
});
