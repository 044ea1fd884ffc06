// What a hostile server echoes of the key never reaches a file or an output: the key after 170
// characters of x-request-id (a cut at 200 would keep 23 characters of it), a 14-character piece
// ("Incorrect API key provided: sk-proj-…"), a 40-character prefix, the base64 of KEY, of
// `Bearer KEY` and of `user:KEY` (standard and URL-safe), in headers, error bodies, replies and
// finish_reason. Every file written (ledger bytes, run export JSONL and CSV) and every output
// (stdout, stderr, --json) is searched for any 12-character piece of the key and of its base64
// forms.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import {
  completion,
  keyForms,
  piecesOf,
  startHostile,
  type HostileReply,
  type HostileServer,
} from '../helpers/hostile-server.js';
import { tempDir } from '../helpers/tmp.js';
import { trialIndex, writeRunBag } from './fixture.js';
import { allFiles, query, writeModels } from './helpers.js';

const KEY = 'sk-proj-Hx7Qm2Lp9Vt4Rk8Nw3Zc6Yb1Jf5Gd0Sa-ECHOtestKEY';
const VAR = 'STIMKIT_TEST_ECHO_KEY';
const b64 = (s: string) => Buffer.from(s).toString('base64');
const b64url = (s: string) => b64(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** Each trial's reply: where the key comes back. */
const SCRIPT: Record<number, HostileReply> = {
  0: { status: 200, headers: { 'x-request-id': `${'r'.repeat(170)}Bearer ${KEY}` } },
  1: {
    status: 400,
    headers: { 'x-request-id': `req-${KEY.slice(5, 19)}` },
    body: JSON.stringify({
      error: { message: `Incorrect API key provided: ${KEY.slice(0, 14)}…. See your account.` },
    }),
  },
  2: { status: 400, body: `{"error": "key ${KEY.slice(0, 40)} is not valid"}` },
  3: { status: 200, headers: { 'x-request-id': b64(KEY) } },
  4: { status: 200, headers: { 'request-id': `${'x'.repeat(195)}${b64(`Bearer ${KEY}`)}` } },
  5: { status: 200, headers: { 'apim-request-id': `${'y'.repeat(170)}${b64url(KEY)}` } },
};
const TEXT: Record<number, string> = {
  3: `your key: ${b64(`Bearer ${KEY}`)}`,
  5: `basic ${b64(`user:${KEY}`)} and ${b64(`me:${KEY}`)}`,
};
const FINISH: Record<number, string> = { 4: `stop ${b64url(`Bearer ${KEY}`)}` };

let dir: string;
let bag: string;
let server: HostileServer;

beforeAll(async () => {
  dir = await tempDir('stimkit-run-echo-');
  bag = path.join(dir, 'bag');
  await writeRunBag(bag, 6);
  server = await startHostile((r) => {
    const body = JSON.parse(r.body);
    const c = body.messages[0].content;
    const k = trialIndex(typeof c === 'string' ? c : c.find((p: any) => p.type === 'text').text);
    const s = SCRIPT[k] ?? { status: 200 };
    return { ...s, body: s.body ?? completion(TEXT[k] ?? `answer ${k}`, FINISH[k]) };
  });
  process.env[VAR] = KEY;
});
afterAll(async () => {
  delete process.env[VAR];
  await server.close();
});

describe('a key echoed by the server', () => {
  it('is in no file and no output, not even a 12-character piece of it or of its base64', async () => {
    const models = await writeModels(dir, [
      { name: 'echo', endpoint: `${server.origin}/v1`, api_key_env: VAR, concurrency: 1 },
    ]);
    const ledger = path.join(dir, 'out', 'ledger.sqlite');
    const outputs: string[] = [];
    const run = await runCli(['run', bag, '--models', models, '--ledger', ledger, '--json']);
    outputs.push(run.stdout, run.stderr);
    expect(run.code, run.stderr).toBe(0);
    expect(server.seen.every((s) => s.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    for (const format of ['jsonl', 'csv']) {
      const out = path.join(dir, 'out', `export.${format}`);
      const ex = await runCli([
        'run',
        'export',
        '--ledger',
        ledger,
        '--format',
        format,
        '--out',
        out,
      ]);
      expect(ex.code, ex.stderr).toBe(0);
      outputs.push(ex.stdout, ex.stderr);
    }
    const stdoutExport = await runCli(['run', 'export', '--ledger', ledger, '--json']);
    outputs.push(stdoutExport.stdout, stdoutExport.stderr);
    // The route fields are redacted whole, then cut to 200 characters.
    const ids = query(ledger, 'SELECT request_id FROM results WHERE request_id IS NOT NULL');
    expect(ids.map((r) => r.request_id)).toContain(`${'r'.repeat(170)}Bearer [REDACTED]`);
    expect(ids.some((r) => /…\[truncated, \d+ chars\]$/.test(r.request_id))).toBe(true);

    const pieces = keyForms(KEY).flatMap(piecesOf);
    const files = await allFiles(path.join(dir, 'out'));
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const f of files) {
      const bytes = await readFile(f);
      const found = pieces.filter((p) => bytes.includes(Buffer.from(p)));
      expect(found, `${f} holds pieces of the key`).toEqual([]);
    }
    for (const text of outputs) expect(pieces.filter((p) => text.includes(p))).toEqual([]);
  });
});
