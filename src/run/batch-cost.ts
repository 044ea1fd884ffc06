/**
 * What each result of an imported batch sent and cost: the images as `batch export` made them
 * under the model's image block (send-image.ts), and the cost from its usage at the model's price
 * less the batch discount (cost.ts). Only with the models file the batch was made from: without
 * it neither the block nor the price is known, and both stay empty.
 */
import type { Trial } from '../bundle/format.js';
import type { FinalResult } from '../ledger/write.js';
import type { ModelSpec } from '../models/schema.js';
import { costOfUsage } from './cost.js';
import { providerOf } from './providers/index.js';
import { SentImageStore } from './send-image.js';

/** Fill `sent_images` and `cost_usd` of the final results among `rows` (in place). */
export async function addBatchSentAndCost(
  rows: ReadonlyArray<{ trialId: string; final: FinalResult | null }>,
  trials: ReadonlyMap<string, Trial>,
  model: ModelSpec,
  bundleDir: string,
): Promise<void> {
  const store = new SentImageStore(bundleDir);
  const provider = providerOf(model);
  for (const r of rows) {
    const trial = trials.get(r.trialId);
    if (!r.final || !trial) continue;
    const built = provider.build(trial, model);
    const { sent } = await store.materialize(built.body, model.image, provider.imageStyle);
    r.final.sent_images = sent;
    r.final.cost_usd = costOfUsage(r.final.usage, model.price, sent.length, true);
  }
}
