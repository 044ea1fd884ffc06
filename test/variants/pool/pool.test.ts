/**
 * Errors from the entry pool's worker threads print and exit as they would on the main thread
 * (`--jobs 1`): a StimkitError keeps its code, message, fix, problems and exit code; anything else
 * stays an internal error.
 */
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { emitError } from '../../../src/cli/output.js';
import { processEntry, type EntryJob, type EntryPlan } from '../../../src/variants/entry.js';
import { EntryPool } from '../../../src/variants/pool/pool.js';
import { entryError } from './failing-worker.js';

/** What the CLI prints (stderr's first line, stdout's JSON) and the exit code, for an error. */
function printed(err: unknown, firstLineOnly = false) {
  let stderr = '';
  let stdout = '';
  const exit = emitError({ stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) }, true, err);
  return { stderr: firstLineOnly ? stderr.split('\n')[0] : stderr, json: JSON.parse(stdout), exit };
}

/** A worker running `file` under tsx, as the pool starts its own from sources. */
function tsWorker(file: string): Worker {
  const url = new URL(file, import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(url)}); });`;
  return new Worker(boot, { eval: true });
}

// An entry whose variant code does not exist: processEntry fails with a TypeError (a bug's shape).
const job = {
  id: 'e1',
  codes: ['A9'],
  reuse: [null],
  hashes: ['0'],
  imagePath: '/nonexistent/e1.png',
  imageRef: 'e1.png',
  sha256: '0'.repeat(64),
  roles: [],
} as unknown as EntryJob;
const plan = {
  outDir: '/tmp',
  codes: ['A9'],
  libraries: {},
  pixelLimit: 1,
} as unknown as EntryPlan;

let pool: EntryPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('entry pool errors', () => {
  it('a StimkitError with problems, a fix and exit code 2 comes back whole', async () => {
    pool = new EntryPool(1, () => tsWorker('./failing-worker.ts'));
    const err = await pool.run(job, plan).then(
      () => null,
      (e: unknown) => e,
    );
    const direct = printed(entryError());
    expect(printed(err)).toEqual(direct);
    expect(direct.exit).toBe(2);
    expect(direct.json.error.problems).toHaveLength(2);
    expect(direct.json.error.fix).toBe('correct both problems');
  });

  it('a plain error in the real worker is an internal error there as here', async () => {
    const here = await processEntry(job, plan).then(
      () => null,
      (e: unknown) => e,
    );
    expect(here).toBeInstanceOf(TypeError);
    pool = new EntryPool(1);
    const there = await pool.run(job, plan).then(
      () => null,
      (e: unknown) => e,
    );
    // The stacks differ (another thread); the message, the JSON and the exit code do not.
    expect(printed(there, true)).toEqual(printed(here, true));
    expect(printed(there, true).stderr).toMatch(/^stimkit: internal error: /);
  });
});
