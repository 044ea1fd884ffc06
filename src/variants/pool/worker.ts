/**
 * A worker thread of the entry pool (pool.ts): runs `processEntry` for one entry at a time, so that
 * the CPU-bound parts of the ladder (FFT, SSIM, Canny, Otsu, resampling) use several cores. Runs
 * without a segmenter: the pool is used only when no A6 inference is needed.
 */
import { parentPort } from 'node:worker_threads';
import { processEntry, type EntryJob, type EntryOutcome, type EntryPlan } from '../entry.js';
import { failedMessage, type FailedMessage } from './wire.js';

/** The plan as it crosses the thread boundary: plain data only. */
export type WirePlan = Omit<EntryPlan, 'segmenter'>;

/** Parent → worker. */
export interface ToWorker {
  type: 'run';
  id: number;
  job: EntryJob;
  plan: WirePlan;
}

/** Worker → parent. */
export type FromWorker = { type: 'done'; id: number; outcome: EntryOutcome } | FailedMessage;

const port = parentPort;
if (port) {
  port.on('message', (m: ToWorker) => {
    processEntry(m.job, m.plan).then(
      (outcome) => port.postMessage({ type: 'done', id: m.id, outcome } satisfies FromWorker),
      (err: unknown) => port.postMessage(failedMessage(m.id, err)),
    );
  });
}
