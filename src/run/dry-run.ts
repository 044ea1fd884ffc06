/** `stimkit run --dry-run`: counts per model × block and one example request (image data elided); nothing is sent or written. */
import type { Trial } from '../bundle/format.js';
import type { ModelSpec } from '../models/schema.js';
import { elideImages } from './images.js';
import { buildRequest, type RequestBody } from './request.js';
import { blockOf, type RunBundle } from './select.js';

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
  }>;
  example: {
    model: string;
    trial: string;
    url: string | null;
    body: RequestBody | { provider: 'sim'; sim: unknown };
  } | null;
}

export function dryRun(
  bundle: RunBundle,
  plan: Array<{ model: ModelSpec; trials: Trial[] }>,
  _source: string,
): DryRunResult {
  const models = plan.map(({ model, trials }) => {
    const blocks: Record<string, number> = {};
    for (const t of trials) blocks[blockOf(t)] = (blocks[blockOf(t)] ?? 0) + 1;
    const dropped =
      trials.length > 0 && model.provider === 'openai'
        ? buildRequest(trials[0]!, model).dropped
        : [];
    return { model: model.name, provider: model.provider, trials: trials.length, blocks, dropped };
  });
  const first = plan.find((p) => p.trials.length > 0);
  let example: DryRunResult['example'] = null;
  if (first) {
    const t = first.trials.find((x) => x.images.length > 0) ?? first.trials[0]!;
    const m = first.model;
    const endpoint = Array.isArray(m.endpoint) ? m.endpoint[0]! : (m.endpoint ?? null);
    example =
      m.provider === 'sim'
        ? { model: m.name, trial: t.id, url: null, body: { provider: 'sim', sim: m.sim } }
        : {
            model: m.name,
            trial: t.id,
            url: endpoint ? `${endpoint.replace(/\/+$/, '')}/chat/completions` : null,
            body: elideImages(buildRequest(t, m).body),
          };
  }
  return { dryRun: true, bundle: bundle.dir, digest: bundle.digest, models, example };
}
