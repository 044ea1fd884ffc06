// A judge's endpoint is as hostile as a respondent's: `score --judge` against an endpoint that
// answers 307 to another origin sends it nothing, records the call failed with error class
// `redirect` and the Location redacted in the judge ledger, and stops with E_RUN_REDIRECT; a
// judge that echoes the key (after 170 characters of x-request-id, as a 40-character prefix, as
// base64) leaves no 12-character piece of it in the judge ledger, the scores or any output. A judge
// goes through the same send loop as a respondent: one that answers 401 to every call is sent one
// call, recorded as a refused key (no result: the response stays to judge), and the command exits
// 1 with run's code naming the key variable; Ctrl-C during slow judge calls sends nothing new, the
// second press cuts those in flight (recorded interrupted, none left in flight), exit 130.
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { ROOT, runCli } from '../helpers/cli.js';
import {
  completion,
  keyForms,
  piecesOf,
  startHostile,
  type HostileServer,
} from '../helpers/hostile-server.js';
import { tempDir } from '../helpers/tmp.js';
import { bundleTrials, instrumentBundle, type InstrumentFixture } from '../score/fixture.js';
import { allFiles, query } from './helpers.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(7) });

const KEY = 'sk-judge-HOSTILE-Zx9Wv8Ut7Sr6Qp5On4Ml3Kj2';
const VAR = 'STIMKIT_TEST_HOSTILE_JUDGE_KEY';
const b64 = (s: string) => Buffer.from(s).toString('base64');

let dir: string;
let fx: InstrumentFixture;
let other: HostileServer;
let redirecting: HostileServer;
let echoing: HostileServer;
let refusing: HostileServer;
let silent: Awaited<ReturnType<typeof startSilent>>;

/** A judge that takes every call and never answers (until closed). */
async function startSilent(): Promise<{
  url: string;
  seen: () => number;
  close: () => Promise<void>;
}> {
  let seen = 0;
  const server = http.createServer((req) => {
    req.resume();
    seen++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen: () => seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

beforeAll(async () => {
  dir = await tempDir('stimkit-hostile-judge-');
  fx = await instrumentBundle(dir, { iterations: 1, ptIterations: 0 });
  const trials = (await bundleTrials(fx.bundle)).slice(0, 6);
  const lines = trials.map((t, k) => ({
    trial_id: t.id,
    model: 'free',
    response: `prose ${k}: my view follows from the evidence I have seen.`,
  }));
  await writeFile(
    path.join(dir, 'responses.jsonl'),
    `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`,
  );
  other = await startHostile(() => ({ status: 200, body: completion('Agree') }));
  redirecting = await startHostile((r) => ({
    status: 307,
    headers: { location: `${other.origin}${r.url}?key=${KEY}` },
  }));
  echoing = await startHostile((_r, n) =>
    n === 0
      ? { status: 500, body: `overloaded; key ${KEY.slice(0, 40)}` }
      : {
          status: 200,
          headers: { 'x-request-id': `${'r'.repeat(170)}Bearer ${KEY}`, 'x-ms-region': b64(KEY) },
          body: completion('Agree'),
        },
  );
  refusing = await startHostile(() => ({
    status: 401,
    body: JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}` } }),
  }));
  silent = await startSilent();
  const judge = (name: string, url: string, concurrency = 1) =>
    `  - {name: ${name}, role: judge, endpoint: "${url}/v1", api_key_env: ${VAR}, concurrency: ${concurrency}}`;
  await writeFile(
    path.join(dir, 'models.yaml'),
    [
      'format: stimkit.models',
      'version: 1',
      'models:',
      '  - {name: free, endpoint: "http://127.0.0.1:1/v1", origin: US}',
      judge('redirecting', redirecting.origin),
      judge('echoing', echoing.origin),
      judge('refusing', refusing.origin),
      judge('silent', silent.url, 2),
      '',
    ].join('\n'),
  );
  process.env[VAR] = KEY;
});
afterAll(async () => {
  delete process.env[VAR];
  await Promise.all(
    [other, redirecting, echoing, refusing, silent].map((server) => server.close()),
  );
});

const scoreArgs = (judge: string) => [
  'score',
  '--bundle',
  fx.bundle,
  '--responses',
  path.join(dir, 'responses.jsonl'),
  '--models',
  path.join(dir, 'models.yaml'),
  '--judge',
  judge,
  '--judge-ledger',
  path.join(dir, 'out', `${judge}.judges.sqlite`),
  '--out',
  path.join(dir, 'out', judge),
  '--json',
];
const score = (judge: string) => runCli(scoreArgs(judge));

describe('a hostile judge endpoint', () => {
  it('that redirects is sent nothing elsewhere, recorded failed/redirect, and stops', async () => {
    const r = await score('redirecting');
    expect(r.code, r.stderr).toBe(1);
    expect(r.json().error.code).toBe('E_RUN_REDIRECT');
    expect(r.stdout + r.stderr).not.toContain(KEY);
    expect(other.seen).toEqual([]);
    expect(redirecting.seen).toHaveLength(1); // stopped after the first
    const rows = query(
      path.join(dir, 'out', 'redirecting.judges.sqlite'),
      'SELECT outcome, error_class, http_status, error_body FROM results',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ outcome: 'failed', error_class: 'redirect', http_status: 307 });
    expect(rows[0].error_body).toContain(
      `Location: ${other.origin}/v1/chat/completions?key=[REDACTED]`,
    );
  });

  it('that echoes the key leaves no piece of it in the judge ledger, the scores or the output', async () => {
    const r = await score('echoing');
    expect(r.code, r.stderr).toBe(0);
    expect(echoing.seen.length).toBeGreaterThan(1);
    const ids = query(
      path.join(dir, 'out', 'echoing.judges.sqlite'),
      'SELECT request_id FROM results WHERE request_id IS NOT NULL',
    );
    expect(ids[0]?.request_id).toBe(`${'r'.repeat(170)}Bearer [REDACTED]`);
    const pieces = keyForms(KEY).flatMap(piecesOf);
    for (const f of await allFiles(path.join(dir, 'out'))) {
      const bytes = await readFile(f);
      expect(
        pieces.filter((p) => bytes.includes(Buffer.from(p))),
        f,
      ).toEqual([]);
    }
    expect(pieces.filter((p) => (r.stdout + r.stderr).includes(p))).toEqual([]);
  });
});

describe('a judge, as a respondent,', () => {
  it('whose key is refused is sent one call and stops, exit 1 naming the key variable', async () => {
    const r = await score('refusing');
    expect(r.code, r.stderr).toBe(1);
    const err = r.json().error;
    expect(err.code).toBe('E_RUN_KEY_REFUSED');
    expect(err.message).toContain(`$${VAR}`);
    expect(err.message).toContain('HTTP 401');
    expect(r.stdout + r.stderr).not.toContain(KEY);
    expect(refusing.seen).toHaveLength(1);
    const ledger = path.join(dir, 'out', 'refusing.judges.sqlite');
    expect(query(ledger, 'SELECT outcome, error_class FROM attempts')).toEqual([
      { outcome: 'auth', error_class: 'http_401' },
    ]);
    expect(query(ledger, 'SELECT COUNT(*) AS n FROM results')[0].n).toBe(0);
  });

  it('stops its calls on Ctrl-C: nothing new is sent, the second press cuts those in flight, exit 130', async () => {
    const child = spawn(process.execPath, [`${ROOT}bin/stimkit.js`, ...scoreArgs('silent')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (c) => (stdout += c));
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    while (silent.seen() < 2) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 300));
    const started = performance.now();
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(JSON.parse(stdout).error.code).toBe('E_AUDIT_JUDGE_INTERRUPTED');
    expect(silent.seen()).toBe(2); // nothing new after the first press
    const ledger = path.join(dir, 'out', 'silent.judges.sqlite');
    expect(query(ledger, 'SELECT state FROM attempts ORDER BY attempt_id')).toEqual([
      { state: 'interrupted' },
      { state: 'interrupted' },
    ]);
  });
});
