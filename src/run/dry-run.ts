/** `stimkit run --dry-run`: counts per model × block and one example request (image data elided); nothing is sent or written. */
import type { Trial } from '../bundle/format.js';
import type { ModelSpec } from '../models/schema.js';
import { estimateModel, type ModelEstimate } from './estimate.js';
import { elideImages } from '../client/images.js';
import { endpointsOf, providerOf } from '../client/providers/index.js';
import { blockOf, type RunBundle } from './select.js';
import { SentImageStore } from '../client/send-image.js';

/** What a dry run reports. */
export interface DryRunResult {
  dryRun: true;
  bundle: string;
  digest: string;
  models: Array<{
    model: string;
    provider: string;
    trials: number;
    blocks: Record<string, number>;
    dropped: string[];
    /** Image sizes that will be sent, tokens and cost (estimate.ts); null for simulated models. */
    estimate: ModelEstimate | null;
  }>;
  example: {
    model: string;
    trial: string;
    url: string | null;
    body: Record<string, unknown>;
  } | null;
  /** With `--budget`: whether the upper estimate of the selected trials fits it. */
  budget: DryRunBudget | null;
}

/** `run --dry-run --budget USD`: the budget against the upper estimate of every selected trial. */
export interface DryRunBudget {
  usd: number;
  /** Sum of the models' upper estimates; null when one cannot be given. */
  upper_usd: number | null;
  /** true: fits; false: `run --budget` would refuse; null: it cannot be checked (see `why`). */
  fits: boolean | null;
  why: string | null;
}

/**
 * Whether the estimates fit `limit`. A dry run reads no ledger, so it counts every selected
 * trial; a continued run counts what is recorded plus what is still pending (budget.ts).
 */
function budgetFit(
  limit: number,
  models: ReadonlyArray<{
    model: string;
    provider: string;
    trials: number;
    estimate: ModelEstimate | null;
  }>,
): DryRunBudget {
  const real = models.filter((m) => m.provider !== 'sim' && m.trials > 0);
  const unpriced = real.filter((m) => !m.estimate?.cost_usd).map((m) => m.model);
  if (unpriced.length > 0)
    return {
      usd: limit,
      upper_usd: null,
      fits: null,
      why: `no price block: ${unpriced.join(', ')}`,
    };
  const unbounded = real.filter((m) => m.estimate!.cost_usd!.high === null);
  if (unbounded.length > 0)
    return {
      usd: limit,
      upper_usd: null,
      fits: null,
      why: `no upper estimate: ${unbounded.map((m) => `${m.model} (${m.estimate!.unbounded.join('; ')})`).join(', ')}`,
    };
  const upper = real.reduce((a, m) => a + m.estimate!.cost_usd!.high!, 0);
  return { usd: limit, upper_usd: upper, fits: upper <= limit, why: null };
}

/** Count, estimate and show one example request; with `budget`, say whether the estimate fits it. */
export async function dryRun(
  bundle: RunBundle,
  plan: Array<{ model: ModelSpec; trials: Trial[] }>,
  _source: string,
  budget?: number,
): Promise<DryRunResult> {
  const store = new SentImageStore(bundle.dir);
  const index = new Map(bundle.trials.map((t) => [t.id, t]));
  const estimates = new Map<string, ModelEstimate | null>();
  for (const { model, trials } of plan)
    estimates.set(
      model.name,
      model.provider === 'sim' ? null : await estimateModel(model, trials, store, index),
    );
  const models = plan.map(({ model, trials }) => {
    const blocks: Record<string, number> = {};
    for (const t of trials) blocks[blockOf(t)] = (blocks[blockOf(t)] ?? 0) + 1;
    const dropped =
      trials.length > 0 && model.provider !== 'sim'
        ? providerOf(model).build(trials[0]!, model).dropped
        : [];
    return {
      model: model.name,
      provider: model.provider,
      trials: trials.length,
      blocks,
      dropped,
      estimate: estimates.get(model.name) ?? null,
    };
  });
  const first = plan.find((p) => p.trials.length > 0);
  let example: DryRunResult['example'] = null;
  if (first) {
    const t = first.trials.find((x) => x.images.length > 0) ?? first.trials[0]!;
    const m = first.model;
    if (m.provider === 'sim')
      example = { model: m.name, trial: t.id, url: null, body: { provider: 'sim', sim: m.sim } };
    else {
      const p = providerOf(m);
      example = {
        model: m.name,
        trial: t.id,
        url: p.http(endpointsOf(m)[0]!, m, null).url,
        body: elideImages(
          p.build(t, m).body,
          p.imageStyle,
          m.image?.format === 'jpeg' ? 'image/jpeg' : 'image/png',
        ),
      };
    }
  }
  return {
    dryRun: true,
    bundle: bundle.dir,
    digest: bundle.digest,
    models,
    example,
    budget: budget === undefined ? null : budgetFit(budget, models),
  };
}
