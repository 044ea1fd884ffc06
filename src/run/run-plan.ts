/** The phases of `stimkit run` before sending: plan the trials, open the run, find what is pending. */
import type { Trial } from '../bundle/format.js';
import type { Db } from '../ledger/open.js';
import { ensureRun, insertTrials, registerModel, type RunRow } from '../ledger/runs.js';
import { attemptCounts, finishedTrials } from '../ledger/write.js';
import { heldFiles, inBatch, type InBatch } from '../ledger/batch-exports.js';
import type { ModelSpec } from '../models/schema.js';
import { resolveModels } from './model-choice.js';
import { preflight } from './preflight.js';
import { requestProfile } from '../client/providers/index.js';
import type { RunOptions } from './run.js';
import {
  parseWhere,
  readRunBundle,
  refuseEmptyWhere,
  trialsFor,
  type RunBundle,
} from './select.js';
import { newStats, type ModelStats } from './model-stats.js';
import { verifiedDigest } from './verified.js';

/** A verified bundle, its models, and each model's trials: what a run (or a dry run) sends. */
export interface RunPlan {
  digest: string;
  bundle: RunBundle;
  models: ModelSpec[];
  anyModel: boolean;
  /** Where the models came from (`--endpoint` for flags). */
  source: string;
  plan: { model: ModelSpec; trials: Trial[] }[];
}

/** One model's share of a run: the trials still to send and its counters. */
export interface ModelWork {
  model: ModelSpec;
  pending: Trial[];
  prior: Map<string, number>;
  stats: ModelStats;
}

/** Verify the bundle, resolve the models, pick each model's trials, and check them before sending. */
export async function planRun(options: RunOptions): Promise<RunPlan> {
  const digest = await verifiedDigest(options.bundle);
  const bundle = await readRunBundle(options.bundle, digest);
  const { models, anyModel, source } = await resolveModels(options);
  const where = parseWhere(options.where ?? '');
  const plan = models.map((m) => ({
    model: m,
    trials: trialsFor(bundle, m, where, options.limit, anyModel),
  }));
  refuseEmptyWhere(
    bundle,
    models,
    where,
    plan.reduce((n, p) => n + p.trials.length, 0),
    anyModel,
  );
  preflight(bundle, plan, anyModel);
  return { digest, bundle, models, anyModel, source, plan };
}

/** Open (or continue) the run in the ledger with the bundle's trials and every model registered. */
export function openRun(db: Db, ledgerFile: string, planned: RunPlan, newRun?: string): RunRow {
  const run = ensureRun(db, ledgerFile, planned.digest, planned.bundle.studyId, newRun);
  insertTrials(db, run.run_id, planned.bundle.trials);
  for (const m of planned.models) {
    registerModel(
      db,
      ledgerFile,
      run,
      m.name,
      m.provider,
      requestProfile(m),
      {
        api_model: m.api_model ?? m.name,
        origin: m.origin ?? null,
        vendor: m.vendor ?? null,
        revision: m.revision ?? null,
        modalities: m.modalities,
        role: m.role,
        ...(m.price ? { price: m.price } : {}), // what priced the results (cost.ts)
      },
      planned.source === '--endpoint' ? 'flags' : 'models file',
    );
  }
  return run;
}

/**
 * Each model's trials without a final result in the run, its prior attempts, and fresh counters.
 * A trial a batch file holds (exported, its output not imported: ledger/batch-exports.ts) is left
 * out unless `sendExported`.
 */
export function pendingWork(
  db: Db,
  run: RunRow,
  plan: RunPlan['plan'],
  o: { retryFailed: boolean; sendExported: boolean },
): ModelWork[] {
  return plan.map(({ model, trials }) => {
    const { pending, held } = unsent(db, run.run_id, model.name, trials, o);
    const stats = newStats(
      model.name,
      model.provider,
      trials.length,
      trials.length - pending.length - held.size,
      pending.length,
    );
    stats.inBatch = { trials: held.size, files: heldFiles(held.values()) };
    return { model, pending, prior: attemptCounts(db, run.run_id, model.name), stats };
  });
}

/**
 * A model's trials still to send in run `runId` (no final result, none in flight, not recorded
 * as not sent, and unless `sendExported` not in a batch file), and those a batch file holds.
 */
export function unsent(
  db: Db,
  runId: number,
  model: string,
  trials: readonly Trial[],
  o: { retryFailed: boolean; sendExported: boolean },
): { pending: Trial[]; held: Map<string, InBatch> } {
  const finished = finishedTrials(db, runId, model, o.retryFailed);
  const inFile = o.sendExported ? new Map<string, InBatch>() : inBatch(db, runId, model);
  const held = new Map<string, InBatch>();
  const pending: Trial[] = [];
  for (const t of trials) {
    if (finished.has(t.id)) continue;
    const h = inFile.get(t.id);
    if (h) held.set(t.id, h);
    else pending.push(t);
  }
  return { pending, held };
}
