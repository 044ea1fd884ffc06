// A judge goes through the same send loop as a respondent (issue 32 item 1): against a judge
// endpoint that answers 401 to every call, `score --judge` sends one call, records it as a
// refused key (no result: the response stays to judge) and exits 1 with run's code, naming the
// key variable; Ctrl-C during slow judge calls stops them at once (the second press cuts those in
// flight), records them interrupted, leaves nothing in flight and exits 130.
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { startHostile, type HostileServer } from '../helpers/hostile-server.js';
import { tempDir } from '../helpers/tmp.js';
import { query } from '../run/helpers.js';
import { bundleTrials, instrumentBundle, type InstrumentFixture } from '../score/fixture.js';

const KEY = 'sk-judge-REFUSED-Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8';
const VAR = 'STIMKIT_TEST_REFUSED_JUDGE_KEY';

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
    url: `http://127.0.0.1:${port}/v1`,
    seen: () => seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let dir: string;
let fx: InstrumentFixture;
let refusing: HostileServer;
let silent: Awaited<ReturnType<typeof startSilent>>;

beforeAll(async () => {
  dir = await tempDir('stimkit-judge-stop-');
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
  refusing = await startHostile(() => ({
    status: 401,
    body: JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}` } }),
  }));
  silent = await startSilent();
  const judge = (name: string, url: string, concurrency: number) =>
    `  - {name: ${name}, role: judge, endpoint: "${url}", api_key_env: ${VAR}, concurrency: ${concurrency}}`;
  await writeFile(
    path.join(dir, 'models.yaml'),
    [
      'format: stimkit.models',
      'version: 1',
      'models:',
      '  - {name: free, endpoint: "http://127.0.0.1:1/v1", origin: US}',
      judge('refusing', `${refusing.origin}/v1`, 1),
      judge('silent', silent.url, 2),
      '',
    ].join('\n'),
  );
}, 120_000);
afterAll(async () => {
  await Promise.all([refusing.close(), silent.close()]);
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

describe('a judge', () => {
  it('whose key is refused is sent one call and stops, exit 1 naming the key variable', async () => {
    process.env[VAR] = KEY;
    try {
      const r = await runCli(scoreArgs('refusing'));
      expect(r.code, r.stderr).toBe(1);
      const err = r.json().error;
      expect(err.code).toBe('E_RUN_KEY_REFUSED');
      expect(err.message).toContain(`$${VAR}`);
      expect(err.message).toContain('HTTP 401');
      expect(r.stdout + r.stderr).not.toContain(KEY);
    } finally {
      delete process.env[VAR];
    }
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
      env: { ...process.env, [VAR]: KEY },
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
  }, 60_000);
});
