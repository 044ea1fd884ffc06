/**
 * A pool of worker threads running entries (worker.ts), one entry per worker at a time: with the
 * main thread, which runs entries too (run.ts), `--jobs N` uses N cores for the JavaScript-side
 * work of A0–A5 and the metrics with N − 1 workers. Memory grows with N: each worker holds its own
 * WebAssembly heaps and one entry's images. Not used when A6 inference runs (run.ts): the model's
 * native threads keep the cores busy then. The command line starts the workers before it loads
 * the rest of the stage (`prestartPool`), so that they load their modules meanwhile.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { StimkitError } from '../../core/errors.js';
import type { EntryJob, EntryOutcome, EntryPlan } from '../entry.js';
import type { FromWorker, ToWorker, WirePlan } from './worker.js';
import { errorFromWire } from './wire.js';

interface Slot {
  worker: Worker;
  task?: { id: number; resolve: (o: EntryOutcome) => void; reject: (e: Error) => void };
  dead: boolean;
}

/** Start a worker from worker.js (built) or worker.ts (sources, through tsx). */
function startWorker(): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const url = new URL('./worker.ts', here).href;
    const tsx = import.meta.resolve('tsx/esm/api');
    const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(url)}); });`;
    return new Worker(boot, { eval: true });
  }
  return new Worker(new URL('./worker.js', here));
}

/** `--jobs` when not given: the number of cores. */
export function defaultJobs(): number {
  return Math.max(1, os.availableParallelism());
}

/**
 * Whether `--only` may select A6 (no list: all seven). Generous on purpose: any item naming A6
 * (`A6`, `silhouette`, `A6-silhouette`) contains one of these, and a false yes only forgoes the
 * head start.
 */
function mayNeedA6(only: readonly string[] | undefined): boolean {
  return !only?.length || only.some((s) => /a6|silhouette/i.test(s));
}

/**
 * The workers of a run of `jobs` entries at once, started now, or undefined when the run will
 * not want them (one job; A6 selected, whose inference runs without workers). Starting them
 * before the stage's modules load on this thread lets both cores work from the start; the run
 * closes them (runVariants' `pool`), used or not.
 */
export function prestartPool(
  jobs: number | undefined,
  only: readonly string[] | undefined,
): EntryPool | undefined {
  const n = (jobs ?? defaultJobs()) - 1;
  return n > 0 && !mayNeedA6(only) ? new EntryPool(n).warm() : undefined;
}

/** The entry pool of one run. */
export class EntryPool {
  private readonly slots: Slot[] = [];
  private nextId = 0;

  /** `start` makes a worker; tests pass their own. */
  constructor(
    private readonly size: number,
    private readonly start: () => Worker = startWorker,
  ) {}

  private spawn(): Slot {
    const slot: Slot = { worker: this.start(), dead: false };
    const fail = (err: Error) => {
      slot.dead = true;
      slot.task?.reject(err);
      slot.task = undefined;
    };
    slot.worker.on('message', (m: FromWorker) => {
      if (slot.task && m.id === slot.task.id) {
        const task = slot.task;
        slot.task = undefined;
        if (m.type === 'done') task.resolve(m.outcome);
        else task.reject(errorFromWire(m));
      }
    });
    slot.worker.on('error', fail);
    slot.worker.on('exit', (code) =>
      fail(
        new StimkitError('E_VARIANTS_WORKER', `a worker thread stopped (exit code ${code})`, {
          fix: 'rerun with --jobs 1 to run the entry on the main thread; if memory ran out, use fewer --jobs',
        }),
      ),
    );
    this.slots.push(slot);
    return slot;
  }

  /** Start every worker now (they load their modules while the caller prepares the work). */
  warm(): this {
    while (this.slots.filter((s) => !s.dead).length < this.size) this.spawn();
    return this;
  }

  /** Whether a worker can take an entry now (an idle one, or room to start one). */
  hasRoom(): boolean {
    const live = this.slots.filter((s) => !s.dead);
    return live.some((s) => !s.task) || live.length < this.size;
  }

  /** Run one entry on an idle worker (callers keep at most `size` entries in flight). */
  run(job: EntryJob, plan: EntryPlan): Promise<EntryOutcome> {
    const slot =
      this.slots.find((s) => !s.dead && !s.task) ??
      (this.slots.filter((s) => !s.dead).length < this.size ? this.spawn() : undefined);
    // An invariant of the callers (run.ts keeps at most `size` entries in flight), not user input.
    if (!slot) return Promise.reject(new Error('entry pool: more entries in flight than workers'));
    const wire: WirePlan = {
      outDir: plan.outDir,
      recipe: plan.recipe,
      libraries: plan.libraries,
      codes: plan.codes,
      pixelLimit: plan.pixelLimit,
      segmenterError: plan.segmenterError,
    };
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      slot.task = { id, resolve, reject };
      slot.worker.postMessage({ type: 'run', id, job, plan: wire } satisfies ToWorker);
    });
  }

  /** Stop every worker. */
  async close(): Promise<void> {
    const live = this.slots.filter((s) => !s.dead);
    for (const s of live) s.dead = true;
    await Promise.all(live.map((s) => s.worker.terminate()));
  }
}
