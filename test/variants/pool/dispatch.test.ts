/**
 * Both cores from the first entry: the command line starts the workers before it loads the
 * stage (`prestartPool`), and a run of `--jobs N` computes entries on this thread beside N − 1
 * workers, with the bytes of a run on this thread alone.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { EntryPool, prestartPool } from '../../../src/variants/pool/pool.js';
import { runVariants } from '../../../src/variants/run.js';
import { heavyLimit } from '../../helpers/limits.js';
import { tempDir } from '../../helpers/tmp.js';
import { sha, tinyCorpus } from '../helpers.js';

// Two runs of the tiny corpus and one worker started from sources.
vi.setConfig({ testTimeout: heavyLimit(8) });

const NO_A6 = ['A0', 'A1', 'A2', 'A3', 'A4', 'A5'];
let corpus: { dir: string; manifest: string };
let work: string;
let pools: EntryPool[] = [];

beforeAll(async () => {
  corpus = await tinyCorpus([
    ['astronaut', 'astronaut.png', ['abstraction']],
    ['cat', 'chelsea.png', ['abstraction']],
    ['horse', 'horse.png', ['abstraction']],
  ]);
  work = await tempDir('stimkit-variants-dispatch-');
});

afterEach(async () => {
  await Promise.all(pools.map((p) => p.close()));
  pools = [];
});

interface Counts {
  started: number;
  entries: number;
  exited: number;
}

/** A worker from sources (under tsx), counting the entries posted to it. */
function countingWorker(counts: Counts): Worker {
  counts.started++;
  const url = new URL('../../../src/variants/pool/worker.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(url)}); });`;
  const worker = new Worker(boot, { eval: true });
  worker.on('exit', () => counts.exited++);
  const post = worker.postMessage.bind(worker);
  worker.postMessage = (message: unknown) => {
    counts.entries++;
    post(message);
  };
  return worker;
}

/** sha256 of every file under `dir`, by relative path. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const file = path.join(e.parentPath, e.name);
    out[path.relative(dir, file)] = sha(await readFile(file));
  }
  return out;
}

describe('prestartPool', () => {
  it('starts jobs − 1 workers only when the selection leaves out A6', () => {
    expect(prestartPool(1, NO_A6)).toBeUndefined();
    for (const only of [undefined, [], ['A5', 'A6'], ['silhouette'], ['a6-Silhouette']])
      expect(prestartPool(2, only)).toBeUndefined();
    const pool = prestartPool(3, ['A3', 'lowpass'])!;
    pools.push(pool);
    expect(pool).toBeInstanceOf(EntryPool);
    expect(pool.hasRoom()).toBe(true);
  });
});

describe('a run of --jobs 2', () => {
  it('computes entries on this thread beside one started worker, with the bytes of --jobs 1', async () => {
    const counts = { started: 0, entries: 0, exited: 0 };
    const pool = new EntryPool(1, () => countingWorker(counts)).warm();
    pools.push(pool);
    expect(counts.started).toBe(1);
    const both = path.join(work, 'both');
    const r = await runVariants(corpus.manifest, { out: both, only: NO_A6, jobs: 2, pool });
    expect([r.failed, r.computed]).toEqual([0, 18]);
    // The worker given was the only one, and this thread took at least one of the three entries.
    expect(counts.started).toBe(1);
    expect(counts.entries).toBeGreaterThanOrEqual(1);
    expect(counts.entries).toBeLessThanOrEqual(2);
    const alone = path.join(work, 'alone');
    await runVariants(corpus.manifest, { out: alone, only: NO_A6, jobs: 1 });
    const files = await tree(both);
    expect(files).toEqual(await tree(alone));
    expect(Object.keys(files).filter((f) => /^\w+\/A\d-/.test(f))).toHaveLength(18);
  });

  it('closes workers it was given and does not want (one job)', async () => {
    const counts = { started: 0, entries: 0, exited: 0 };
    const pool = new EntryPool(1, () => countingWorker(counts)).warm();
    pools.push(pool);
    const out = path.join(work, 'one');
    const r = await runVariants(corpus.manifest, { out, only: ['A2'], jobs: 1, pool });
    expect(r.failed).toBe(0);
    expect(counts.entries).toBe(0);
    await vi.waitFor(() => expect(counts.exited).toBe(1));
  });
});
