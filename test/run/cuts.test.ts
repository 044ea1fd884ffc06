// Redact before you cut: a server that echoes the API key across every place stimkit cuts a text
// (the run summary's 200 characters, the 4,000 of a 2xx body without choices, the ledger's
// 2,000 of an error body, batch import, judge calls, run export). The key is echoed twice per
// model, shifted by half its length, so that every cut falls inside an echoed key with at least
// 12 characters on one side for one of the two. Every written file and every output is then
// searched for any 12-character piece of the key.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJudgeCalls } from '../../src/audit/judge-calls.js';
import { ModelSpec } from '../../src/models/schema.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { promptOf, writeRunBag } from './fixture.js';
import { allFiles, FAST, writeModels } from './helpers.js';
import { startServer, type TestServer } from './server.js';

const KEY = 'sk-stimkit-CUTKEY-0123456789abcdefghijkl'; // 40 characters
const VAR = 'STIMKIT_TEST_CUT_KEY';
const SHIFTS = [0, 20];
/** The key repeated past every cut (6,000+ characters), after `shift` characters. */
const echo = (shift: number) => `${'x'.repeat(shift)}${KEY.repeat(160)}`;
const shiftOf = (model: unknown) => (String(model).endsWith('20') ? 20 : 0);

/** Every 12-character piece of the key, and its whole base64 form. */
const PIECES = [
  ...Array.from({ length: KEY.length - 11 }, (_, i) => KEY.slice(i, i + 12)),
  Buffer.from(KEY).toString('base64').replace(/=+$/, ''),
];

let dir: string;
/** Inputs holding the key (the batch output files a vendor would return): not searched. */
let inputs: string;
let bag: string;
let server: TestServer;
let authServer: TestServer;
const outputs: string[] = [];

beforeAll(async () => {
  dir = await tempDir('stimkit-run-cuts-');
  inputs = await tempDir('stimkit-run-cuts-in-');
  bag = path.join(dir, 'bag');
  await writeRunBag(bag, 6);
  server = await startServer((r) => {
    const e = echo(shiftOf(r.body.model));
    if (r.k === 0)
      return { kind: 'status', status: 200, body: JSON.stringify({ choices: [], echo: e }) };
    if (r.k === 1) return { kind: 'status', status: 500, body: e };
    if (r.k === 2) return { kind: 'status', status: 400, body: `content policy violation ${e}` };
    if (r.k === 3) return { kind: 'status', status: 404, body: e };
    return { kind: 'ok', text: `fine ${e}` };
  });
  authServer = await startServer((r) => ({
    kind: 'status',
    status: 401,
    body: echo(shiftOf(r.body.model)),
  }));
  process.env[VAR] = KEY;
});
afterAll(async () => {
  delete process.env[VAR];
  await server.close();
  await authServer.close();
});

describe('a key echoed across every cut', () => {
  it('is redacted whole before any text is cut: run, --json, export, batch import, judge calls', async () => {
    const models = await writeModels(dir, [
      ...SHIFTS.map((s) => ({ name: `cut${s}`, endpoint: server.url, api_key_env: VAR })),
      ...SHIFTS.map((s) => ({ name: `lock${s}`, endpoint: authServer.url, api_key_env: VAR })),
    ]);
    const ledger = path.join(dir, 'out', 'ledger.sqlite');
    const run = await runCli([
      'run',
      bag,
      '--models',
      models,
      '--ledger',
      ledger,
      '--max-attempts',
      '2',
      '--json',
    ]);
    outputs.push(run.stdout, run.stderr);
    expect(run.code).toBe(1); // the 401 models stopped
    const human = await runCli(['run', bag, '--models', models, '--ledger', ledger]);
    outputs.push(human.stdout, human.stderr);
    for (const s of run.json().models.filter((m: { model: string }) => m.model.startsWith('lock')))
      expect(s.stopped).toMatch(/HTTP 401.*\[REDACTED\]/);
    for (const format of ['jsonl', 'csv']) {
      const ex = await runCli(['run', 'export', '--ledger', ledger, '--format', format]);
      expect(ex.code, ex.stderr).toBe(0);
      outputs.push(ex.stdout, ex.stderr);
    }

    // batch import: the same echoes as output lines of a batch run
    const trials = (await readFile(path.join(bag, 'data', 'trials.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string });
    for (const s of SHIFTS) {
      const e = echo(s);
      const lines = [
        { status_code: 200, body: { choices: [], echo: e } },
        { status_code: 500, body: e },
        { status_code: 400, body: `content policy violation ${e}` },
        { status_code: 404, body: e },
      ].map((response, i) => JSON.stringify({ custom_id: trials[i]!.id, response, error: null }));
      lines.push(
        JSON.stringify({ custom_id: trials[4]!.id, response: null, error: { message: e } }),
      );
      const file = path.join(inputs, `batch-out-${s}.jsonl`);
      await writeFile(file, `${lines.join('\n')}\n`);
      const imp = await runCli([
        'batch',
        'import',
        file,
        '--bundle',
        bag,
        '--model',
        `cut${s}`,
        '--ledger',
        path.join(dir, 'out', 'batch.sqlite'),
        '--models',
        models,
        '--json',
      ]);
      expect(imp.code, imp.stderr).toBe(0);
      outputs.push(imp.stdout, imp.stderr);
    }

    // judge calls: the same server answering a judge
    for (const s of SHIFTS) {
      const judge = ModelSpec.parse({
        name: `judge${s}`,
        role: 'judge',
        endpoint: server.url,
        api_key_env: VAR,
      });
      const r = await runJudgeCalls<number>({
        ledger: path.join(dir, 'out', 'judges.sqlite'),
        digest: 'd'.repeat(64),
        studyId: null,
        runLabel: 'main/judge',
        judge,
        profile: { provider: 'openai' },
        targets: [0, 1, 2, 3],
        targetIdOf: (k) => `t${k}@cut${s}`,
        request: (k) => ({
          body: { model: `judge${s}`, messages: [{ role: 'user', content: promptOf(k) }] },
          sha256: String(k).padStart(64, '0'),
        }),
        maxAttempts: 2,
        backoff: FAST,
      });
      expect(r.failed).toBeGreaterThan(0);
    }

    const files = await allFiles(dir);
    expect(files.filter((f) => f.endsWith('.sqlite'))).toHaveLength(3);
    for (const f of files) {
      const bytes = await readFile(f);
      for (const piece of PIECES)
        expect(bytes.includes(Buffer.from(piece)), `${f} holds "${piece}"`).toBe(false);
    }
    for (const text of outputs)
      for (const piece of PIECES)
        expect(text.includes(piece), `output holds "${piece}"`).toBe(false);
  });
});
