/**
 * A worker thread of the entry pool (pool.ts): runs `processEntry` for one entry at a time, so that
 * the CPU-bound parts of the ladder (FFT, SSIM, Canny, Otsu, resampling) use several cores. A6
 * segmentation is not done here: masks are requested from the parent, which owns the one shared
 * segmenter session.
 */
import { parentPort } from 'node:worker_threads';
import { errorMessage, StimkitError } from '../core/errors.js';
import { processEntry, type EntryJob, type EntryOutcome, type EntryPlan } from './entry.js';
import type { VariantRecord } from './lock.js';

/** The plan as it crosses the thread boundary: plain data only. */
export interface WirePlan extends Omit<EntryPlan, 'segmenter' | 'prior'> {
  segmenter: Record<string, unknown> | null;
  prior: Array<[string, VariantRecord]>;
}

/** Parent → worker. */
export type ToWorker =
  | { type: 'run'; id: number; job: EntryJob; plan: WirePlan }
  | { type: 'mask'; rid: number; mask: Uint8Array }
  | { type: 'mask-error'; rid: number; code: string; message: string };

/** Worker → parent. */
export type FromWorker =
  | { type: 'done'; id: number; outcome: EntryOutcome }
  | { type: 'failed'; id: number; code: string; message: string }
  | { type: 'segment'; rid: number; rgb: Uint8Array; width: number; height: number };

const port = parentPort;
if (port) {
  const pending = new Map<number, { resolve: (m: Uint8Array) => void; reject: (e: Error) => void }>();
  let nextRid = 0;
  const segment = (rgb: Uint8Array, width: number, height: number): Promise<Uint8Array> =>
    new Promise((resolve, reject) => {
      const rid = nextRid++;
      pending.set(rid, { resolve, reject });
      const copy = rgb.slice();
      port.postMessage({ type: 'segment', rid, rgb: copy, width, height } satisfies FromWorker, [copy.buffer]);
    });

  port.on('message', (m: ToWorker) => {
    if (m.type === 'mask' || m.type === 'mask-error') {
      const p = pending.get(m.rid);
      pending.delete(m.rid);
      if (m.type === 'mask') p?.resolve(m.mask);
      else p?.reject(new StimkitError(m.code, m.message));
      return;
    }
    const plan: EntryPlan = {
      ...m.plan,
      segmenter: m.plan.segmenter ? { description: m.plan.segmenter, segment } : undefined,
      prior: new Map(m.plan.prior),
    };
    processEntry(m.job, plan).then(
      (outcome) => port.postMessage({ type: 'done', id: m.id, outcome } satisfies FromWorker),
      (err: unknown) =>
        port.postMessage({
          type: 'failed',
          id: m.id,
          code: err instanceof StimkitError ? err.code : 'E_VARIANTS_INTERNAL',
          message: errorMessage(err),
        } satisfies FromWorker),
    );
  });
}
