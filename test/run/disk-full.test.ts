// A full disk during `run` is E_DISK_FULL, the first error reported (never hidden behind a
// second error from giving back the lock), exit 1; with space again, rerunning resumes without
// re-sending anything that was recorded. The ledger lives on a 3 MB tmpfs (mounted here as root;
// the test is skipped, loudly, where mounting is not permitted).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StimkitError } from '../../src/core/errors.js';
import { writeFileAtomic } from '../../src/core/fsio.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { writeRunBag } from './fixture.js';
import { query, writeModels } from './helpers.js';
import { startServer, type TestServer } from './server.js';

const N = 150;
let dir: string;
let small: string;
let mounted: string | null = null;
let server: TestServer;
beforeAll(async () => {
  dir = await tempDir('stimkit-run-disk-full-');
  small = path.join(dir, 'small');
  mkdirSync(small);
  const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', small], {
    encoding: 'utf8',
  });
  if (m.error || m.status !== 0) {
    mounted = `mount -t tmpfs is not permitted here (${m.error?.message ?? m.stderr.trim()})`;
    console.warn(`test/run/disk-full.test.ts: SKIPPING the disk-full test: ${mounted}`);
    return;
  }
  await writeRunBag(path.join(dir, 'bag'), N);
  // Replies of 40 kB each: the 3 MB disk fills after a few dozen results.
  server = await startServer(() => ({ kind: 'ok', text: 'x'.repeat(40_000) }));
});
afterAll(async () => {
  await server?.close();
  if (mounted === null) spawnSync('umount', [small]);
});

describe('a full disk during run', () => {
  it('is E_DISK_FULL, first; a rerun with space resumes without re-sending what was recorded', async (ctx) => {
    if (mounted !== null) ctx.skip();
    const models = await writeModels(dir, [{ name: 'm', endpoint: server.url, concurrency: 4 }]);
    const ledger = path.join(small, 'full.sqlite');
    const args = ['run', path.join(dir, 'bag'), '--models', models, '--ledger', ledger, '--json'];
    const full = await runCli(args);
    expect(full.code, full.stderr).toBe(1);
    expect(full.stderr).toMatch(/^stimkit: error E_DISK_FULL: /);
    expect(full.stderr).not.toContain('internal error');
    const error = full.json().error;
    expect(error.code).toBe('E_DISK_FULL');
    expect(`${error.message} ${error.fix}`).toContain(ledger);
    expect(error.message).toMatch(/run the same command again/);

    const recorded = query<{ entry: string }>(
      ledger,
      'SELECT t.entry FROM results r JOIN trials t USING (run_id, trial_id)',
    ).map((r) => Number(r.entry.slice(1)));
    expect(recorded.length).toBeGreaterThan(0);
    expect(recorded.length).toBeLessThan(N + 2);
    const sentBefore = server.requests.length;
    // Any other file written while the disk is full (report, bundle, variants…): E_DISK_FULL
    // naming it, and the file it would replace untouched.
    const other = path.join(small, 'summary.json');
    const written = await writeFileAtomic(other, 'x'.repeat(4 << 20)).catch((e: unknown) => e);
    expect(written).toBeInstanceOf(StimkitError);
    expect(written).toMatchObject({ code: 'E_DISK_FULL', problems: [{ file: other }] });
    expect(existsSync(other)).toBe(false);

    expect(spawnSync('mount', ['-o', 'remount,size=64m', small]).status).toBe(0);
    const again = await runCli(args);
    expect(again.code, again.stderr).toBe(0);
    expect(query(ledger, 'SELECT COUNT(*) AS n FROM results')[0].n).toBe(N + 2);
    const resent = server.requests.slice(sentBefore).filter((r) => recorded.includes(r.k));
    expect(resent).toEqual([]);
  });
});
