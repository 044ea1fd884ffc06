/**
 * `run --budget USD`: a cap on what the selected models' results in this run cost, earlier
 * invocations included (the ledger's `cost_usd`). Before anything is sent the run is refused
 * when what is spent plus the upper estimate of what is pending (estimate.ts) exceeds the cap,
 * or when no upper bound can be given (a later turn of a conversation counts the conversation so
 * far, each earlier reply at its output cap: estimate.ts). While running, no new request is sent once the recorded
 * cost reaches the cap: requests in flight finish and are recorded, and a rerun with a higher
 * cap continues where this one stopped (each trial still exactly once).
 */
import type { Trial } from '../bundle/format.js';
import { StimkitError } from '../core/errors.js';
import type { Db } from '../ledger/open.js';
import { unsent } from './run-plan.js';
import type { ModelSpec } from '../models/schema.js';
import { usd } from './cost-summary.js';
import { estimateModel } from './estimate.js';
import type { SentImageStore } from '../client/send-image.js';
import type { ModelStats } from './model-stats.js';
import type { TrialIndex } from './turns.js';

/** The budget of a run, as the summary reports it. */
export interface Budget {
  usd: number;
  /** Cost already recorded for the selected models in this run when it started. */
  spent_before: number;
  /** The upper estimate of the trials pending at the start. */
  pending_high: number;
  /** True when sending stopped because the recorded cost reached the budget. */
  reached: boolean;
}

/** USD recorded in a run for these models. */
export function runCost(db: Db, runId: number, models: readonly string[]): Map<string, number> {
  const rows = db
    .prepare(
      'SELECT model, COALESCE(SUM(cost_usd), 0) AS usd FROM results WHERE run_id = ? GROUP BY model',
    )
    .all(runId) as Array<{ model: string; usd: number }>;
  const all = new Map(rows.map((r) => [r.model, r.usd]));
  return new Map(models.map((m) => [m, all.get(m) ?? 0]));
}

/** The run a `run` without `--new-run` continues (the latest, when of this bundle), if any. */
export function continuedRun(db: Db, digest: string, newRun: string | undefined): number | null {
  if (newRun !== undefined) return null;
  const latest = db
    .prepare('SELECT run_id, bundle_digest FROM runs ORDER BY run_id DESC LIMIT 1')
    .get() as { run_id: number; bundle_digest: string } | undefined;
  return latest && latest.bundle_digest === digest ? latest.run_id : null;
}

/**
 * Check `limit` against the cost recorded so far in run `runId` (null: a new run) and the upper
 * estimate of the trials still to send (`index`: the bundle's trials by id, for the earlier turns
 * of a conversation); throws E_RUN_BUDGET_PRICE, E_RUN_BUDGET_UNBOUNDED or
 * E_RUN_BUDGET when the run cannot start. Reads only: a refused run writes nothing.
 */
export async function checkBudget(
  db: Db,
  runId: number | null,
  plan: ReadonlyArray<{ model: ModelSpec; trials: readonly Trial[] }>,
  sending: { retryFailed: boolean; sendExported: boolean },
  limit: number,
  store: SentImageStore,
  index: TrialIndex,
): Promise<Budget> {
  const work = plan.map(({ model, trials }) => ({
    model,
    pending: runId === null ? [...trials] : unsent(db, runId, model.name, trials, sending).pending,
  }));
  const real = work.filter((w) => w.model.provider !== 'sim');
  const unpriced = real.filter((w) => !w.model.price && w.pending.length > 0);
  if (unpriced.length > 0)
    throw StimkitError.fromProblem({
      code: 'E_RUN_BUDGET_PRICE',
      field: `${unpriced[0]!.model.name}.price`,
      message: `--budget needs the price of every model it sends to; ${unpriced.map((w) => `"${w.model.name}"`).join(', ')} has no price block`,
      fix: 'add a price block to the models file (docs/formats/models.md, "price"), or run without --budget',
    });
  const names = work.map((w) => w.model.name);
  const spent =
    runId === null ? 0 : [...runCost(db, runId, names).values()].reduce((a, b) => a + b, 0);
  let pending = 0;
  for (const w of real) {
    const e = await estimateModel(w.model, w.pending, store, index);
    if (e.unbounded.length > 0)
      throw StimkitError.fromProblem({
        code: 'E_RUN_BUDGET_UNBOUNDED',
        field: `${w.model.name}.price`,
        message: `no upper estimate for model "${w.model.name}": ${e.unbounded.join('; ')}`,
        fix: 'set price.max_output_tokens (and price.image_tokens for image trials) so that --budget can bound the cost',
      });
    pending += e.cost_usd?.high ?? 0;
  }
  if (spent + pending > limit)
    throw StimkitError.fromProblem({
      code: 'E_RUN_BUDGET',
      field: '--budget',
      message: `the upper estimate of this run, ${usd(spent + pending)} (${usd(spent)} recorded so far + up to ${usd(pending)} for the pending trials), exceeds the budget; nothing was sent`,
      expected: `at most ${usd(limit)}`,
      got: usd(spent + pending),
      fix: 'raise --budget, send fewer trials (--where, --limit, --model), or lower max_tokens; `run --dry-run` shows the estimate per model',
    });
  return { usd: limit, spent_before: spent, pending_high: pending, reached: false };
}

/** True (and recorded in `budget`) once the cost recorded reaches the budget. */
export function budgetReached(budget: Budget | null, stats: readonly ModelStats[]): boolean {
  if (!budget) return false;
  if (!budget.reached)
    budget.reached = budget.spent_before + stats.reduce((a, s) => a + s.cost_usd, 0) >= budget.usd;
  return budget.reached;
}
