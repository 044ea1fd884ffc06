// The API key never reaches a file, the output or an error message, even when the server echoes
// it back (in an error body, in a retried error, in the response text, in finish_reason, in a 401,
// in a batch output's error code). Every file the
// run stage writes here is searched for the key.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { writeRunBag } from './fixture.js';
import { allFiles, exportBatch, query, writeModels } from './helpers.js';
import { startServer, type TestServer } from './server.js';

const KEY = 'sk-stimkit-SECRET-9f8e7d6c5b4a';
const VAR = 'STIMKIT_TEST_SECRET_KEY';
let dir: string;
let bag: string;
let server: TestServer;
let authServer: TestServer;

beforeAll(async () => {
  dir = await tempDir('stimkit-run-secrets-');
  bag = path.join(dir, 'bag');
  await writeRunBag(bag, 6);
  const echo = (auth: string | undefined) =>
    JSON.stringify({
      error: { message: `invalid request; you sent Authorization: ${auth}`, key: auth?.slice(7) },
    });
  server = await startServer((r) => {
    if (r.k === 0) return { kind: 'status', status: 400, body: echo(r.authorization) };
    if (r.k === 1 && r.seen === 0)
      return { kind: 'status', status: 500, body: echo(r.authorization) };
    if (r.k === 2) return { kind: 'ok', text: `echo of your key: ${r.authorization}` };
    if (r.k === 4) return { kind: 'ok', finish_reason: `stop (${r.authorization})` };
    if (r.k === 3)
      return {
        kind: 'status',
        status: 400,
        body: `content policy violation; key=${encodeURIComponent(r.authorization!.slice(7))}`,
      };
    return { kind: 'ok' };
  });
  authServer = await startServer((r) => ({
    kind: 'status',
    status: 401,
    body: echo(r.authorization),
  }));
  process.env[VAR] = KEY;
});
afterAll(async () => {
  delete process.env[VAR];
  await server.close();
  await authServer.close();
});

describe('secrets', () => {
  it('are sent to the server but never written, printed or exported', async () => {
    const models = await writeModels(dir, [
      { name: 'm', endpoint: server.url, api_key_env: VAR, concurrency: 2 },
      { name: 'locked', endpoint: authServer.url, api_key_env: VAR },
    ]);
    const ledger = path.join(dir, 'out', 'ledger.sqlite');
    const outputs: string[] = [];
    const run = await runCli(['run', bag, '--models', models, '--ledger', ledger, '--json']);
    outputs.push(run.stdout, run.stderr);
    expect(run.code).toBe(1); // the 401 model stopped
    expect(run.stderr).toContain('HTTP 401');
    expect(server.requests.every((r) => r.authorization === `Bearer ${KEY}`)).toBe(true);
    const dry = await runCli(['run', bag, '--models', models, '--dry-run', '--json']);
    outputs.push(dry.stdout, dry.stderr);
    for (const format of ['jsonl', 'csv']) {
      const ex = await runCli([
        'run',
        'export',
        '--ledger',
        ledger,
        '--format',
        format,
        '--out',
        path.join(dir, 'out', `export.${format}`),
        '--json',
      ]);
      expect(ex.code, ex.stderr).toBe(0);
      outputs.push(ex.stdout, ex.stderr);
    }
    const stdoutExport = await runCli(['run', 'export', '--ledger', ledger]);
    outputs.push(stdoutExport.stdout, stdoutExport.stderr);
    expect(stdoutExport.stdout).toContain('[REDACTED]');
    const batch = await exportBatch(
      bag,
      models,
      'm',
      path.join(dir, 'out', 'batch.jsonl'),
      '--json',
    );
    outputs.push(batch.stdout, batch.stderr);
    // A batch output whose error code echoes the key (the import builds error_class from it),
    // kept outside the scanned folder: the ledger stores it redacted.
    const exported = (await readFile(path.join(dir, 'out', 'batch.jsonl'), 'utf8')).split('\n');
    const output = path.join(await tempDir('stimkit-secrets-output-'), 'output.jsonl');
    await writeFile(
      output,
      `${JSON.stringify({ custom_id: JSON.parse(exported[0]!).custom_id, response: null, error: { code: `bad_${KEY}`, message: 'failed' } })}\n`,
    );
    const imported = await runCli([
      'batch',
      'import',
      output,
      '--bundle',
      bag,
      '--models',
      models,
      '--model',
      'm',
      '--ledger',
      path.join(dir, 'out', 'imported.sqlite'),
      '--json',
    ]);
    expect(imported.code, imported.stderr).toBe(0);
    outputs.push(imported.stdout, imported.stderr);
    // a line without a result is an attempt left to export again, its class as the file said
    expect(
      query(path.join(dir, 'out', 'imported.sqlite'), 'SELECT error_class FROM attempts'),
    ).toEqual([{ error_class: 'batch_error:bad_[REDACTED]' }]);
    expect(
      query(ledger, 'SELECT finish_reason FROM results WHERE finish_reason LIKE ?', 'stop (%'),
    ).toEqual([{ finish_reason: 'stop (Bearer [REDACTED])' }]);
    // A missing variable is named, never a value.
    delete process.env[VAR];
    const missing = await runCli([
      'run',
      bag,
      '--models',
      models,
      '--ledger',
      path.join(dir, 'out', 'other.sqlite'),
      '--json',
    ]);
    process.env[VAR] = KEY;
    expect(missing.code).toBe(1);
    expect(missing.json().error.code).toBe('E_RUN_NO_KEY');
    outputs.push(missing.stdout, missing.stderr);

    const files = await allFiles(dir);
    expect(files.some((f) => f.endsWith('ledger.sqlite'))).toBe(true);
    const forms = [
      KEY,
      Buffer.from(KEY).toString('base64').replace(/=+$/, ''),
      encodeURIComponent(KEY),
      'SECRET-9f8e7d6c5b4a',
    ];
    for (const f of files) {
      const bytes = await readFile(f);
      for (const form of forms)
        expect(bytes.includes(Buffer.from(form)), `${f} holds the key (${form})`).toBe(false);
    }
    for (const text of outputs) for (const form of forms) expect(text.includes(form)).toBe(false);
  });

  it('are not printed when a batch output quotes them (a served model name, an unknown custom_id)', async () => {
    const work = await tempDir('stimkit-secrets-quoted-');
    const models = await writeModels(work, [{ name: 'm', endpoint: server.url, api_key_env: VAR }]);
    const input = path.join(work, 'in.jsonl');
    const exp = await exportBatch(bag, models, 'm', input);
    expect(exp.code, exp.stderr).toBe(0);
    const id = JSON.parse((await readFile(input, 'utf8')).split('\n')[0]!).custom_id as string;
    const line = (customId: string, model: string) =>
      JSON.stringify({
        custom_id: customId,
        response: {
          status_code: 200,
          body: {
            model,
            choices: [
              { index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' },
            ],
          },
        },
        error: null,
      });
    const importOf = async (text: string) => {
      const file = path.join(work, 'out.jsonl');
      await writeFile(file, `${text}\n`);
      const ledger = path.join(work, `l-${Math.random().toString(36).slice(2)}.sqlite`);
      const flags = ['--bundle', bag, '--models', models, '--model', 'm', '--ledger', ledger];
      return runCli(['batch', 'import', file, ...flags, '--json']);
    };
    // The served model name in the refusal (E_BATCH_MODEL quotes it).
    const served = await importOf(line(id, `served-${KEY}`));
    expect(served.code).toBe(1);
    expect(served.json().error.code).toBe('E_BATCH_MODEL');
    // An id of no trial of the bundle, listed as unknown.
    const unknown = await importOf(line(`t_${KEY}`, 'm'));
    expect(unknown.code).toBe(1); // a line of no trial is refused
    expect(unknown.json().unknown).toEqual(['t_[REDACTED]']);
    for (const out of [served, unknown])
      for (const text of [out.stdout, out.stderr]) {
        expect(text).not.toContain('SECRET-9f8e7d6c5b4a');
        expect(text).toContain('[REDACTED]');
      }
  });
});
