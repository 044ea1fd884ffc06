// No request follows a redirect: for each provider, an endpoint answering 307 or 302 to another
// origin (another 127.0.0.1 port) or to another path of its own port gets exactly one request;
// the other origin receives nothing (no key, no prompt); the trial is recorded failed with error
// class `redirect` and the Location (which carries the key here) redacted; the model's run
// stops with E_RUN_REDIRECT and the command exits 1.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { completion, startHostile, type HostileServer } from '../helpers/hostile-server.js';
import { tempDir } from '../helpers/tmp.js';
import { writeRunBag } from './fixture.js';
import { query, writeModels } from './helpers.js';

const KEY = 'sk-redirect-TEST-KEY-0123456789abcdefghij';
const VAR = 'STIMKIT_TEST_REDIRECT_KEY';
let dir: string;
let bag: string;
let other: HostileServer;

beforeAll(async () => {
  dir = await tempDir('stimkit-run-redirect-');
  bag = path.join(dir, 'bag');
  await writeRunBag(bag, 2);
  other = await startHostile(() => ({ status: 200, body: completion('followed') }));
  process.env[VAR] = KEY;
});
afterAll(async () => {
  delete process.env[VAR];
  await other.close();
});

const PROVIDERS = ['openai', 'anthropic', 'gemini'] as const;
const CASES = [
  { status: 307, to: 'other' },
  { status: 302, to: 'other' },
  { status: 307, to: 'same' },
] as const;

describe.each(PROVIDERS)('provider %s', (provider) => {
  it.each(CASES)('does not follow a $status to the $to origin', async ({ status, to }) => {
    const before = other.seen.length;
    const server = await startHostile((r) => ({
      status,
      headers: {
        location: `${to === 'other' ? other.origin : `http://127.0.0.1:${port()}`}/moved${r.url}?key=${KEY}`,
      },
      body: 'moved',
    }));
    const port = () => server.port;
    try {
      const endpoint = provider === 'openai' ? `${server.origin}/v1` : server.origin;
      const name = `${provider}-${status}-${to}`;
      const models = await writeModels(
        dir,
        [{ name, provider, endpoint, api_key_env: VAR, concurrency: 1, max_tokens: 64 }],
        `${name}.yaml`,
      );
      const ledger = path.join(dir, `${name}.sqlite`);
      const r = await runCli([
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
      expect(r.code, r.stderr).toBe(1);
      // Nothing reached another origin, and the server itself was asked once (not at /moved).
      expect(other.seen.length).toBe(before);
      expect(server.seen.map((s) => s.url.startsWith('/moved'))).toEqual([false]);
      const rows = query(
        ledger,
        'SELECT outcome, error_class, http_status, error_body FROM results',
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        outcome: 'failed',
        error_class: 'redirect',
        http_status: status,
      });
      expect(rows[0].error_body).toContain(`redirect to Location: http://127.0.0.1:`);
      expect(rows[0].error_body).toContain('?key=[REDACTED]');
      const m = r.json().models[0];
      expect(m.stopped).toMatch(/^E_RUN_REDIRECT: .*point the endpoint at the final URL/);
      expect(m.failed).toEqual({ redirect: 1 });
      expect(r.stdout + r.stderr).not.toContain(KEY);
    } finally {
      await server.close();
    }
  });
});
