/** `stimkit run --dry-run`: counts per model × block and one example request (image data elided); nothing is sent or written. */
import type { Trial } from '../bundle/format.js';
import type { ModelSpec } from '../models/schema.js';
import { estimateModel, type ModelEstimate } from './estimate.js';
import { elideImages } from './images.js';
import { endpointsOf, providerOf } from './providers/index.js';
import { blockOf, type RunBundle } from './select.js';
import { SentImageStore } from './send-image.js';

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
}

export async function dryRun(
  bundle: RunBundle,
  plan: Array<{ model: ModelSpec; trials: Trial[] }>,
  _source: string,
): Promise<DryRunResult> {
  const store = new SentImageStore(bundle.dir);
  const estimates = new Map<string, ModelEstimate | null>();
  for (const { model, trials } of plan)
    estimates.set(
      model.name,
      model.provider === 'sim' ? null : await estimateModel(model, trials, store),
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
  return { dryRun: true, bundle: bundle.dir, digest: bundle.digest, models, example };
}
