/** The phases of `stimkit run` before sending: plan the trials, open the run, find what is pending. */
import type { Trial } from '../bundle/format.js';
import type { Db } from '../ledger/open.js';
import { ensureRun, insertTrials, registerModel, type RunRow } from '../ledger/runs.js';
import { attemptCounts, finishedTrials } from '../ledger/write.js';
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

/** Each model's trials without a final result in the run, its prior attempts, and fresh counters. */
export function pendingWork(
  db: Db,
  run: RunRow,
  plan: RunPlan['plan'],
  retryFailed: boolean,
): ModelWork[] {
  return plan.map(({ model, trials }) => {
    const finished = finishedTrials(db, run.run_id, model.name, retryFailed);
    const pending: Trial[] = trials.filter((t) => !finished.has(t.id));
    return {
      model,
      pending,
      prior: attemptCounts(db, run.run_id, model.name),
      stats: newStats(
        model.name,
        model.provider,
        trials.length,
        trials.length - pending.length,
        pending.length,
      ),
    };
  });
}
