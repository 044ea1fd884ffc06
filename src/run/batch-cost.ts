/**
 * What a result of an imported batch sent, dropped and cost, and its route, as `run` records
 * them: the images as `batch export` made them under the model's image block (send-image.ts),
 * the sampling fields its request left out, the cost from its usage at the model's price less
 * the batch discount (cost.ts), and the vendor's batch endpoint as its route. Only with the
 * models file the batch was made from: without it neither the request, the block nor the price
 * is known, and these stay empty.
 */
import type { FinalResult } from '../ledger/write.js';
import type { ModelSpec } from '../models/schema.js';
import { costOfUsage } from './cost.js';
import type { SentImage } from '../client/send-image.js';

/** Fill `final` (in place) from the request the models file makes for its trial. */
export function batchFinal(
  final: FinalResult,
  request: { dropped: string[]; sent: SentImage[] } | undefined,
  model: ModelSpec,
  endpoint: string | null,
): void {
  if (!request) return;
  final.dropped = request.dropped;
  final.sent_images = request.sent;
  final.cost_usd = costOfUsage(final.usage, model.price, request.sent.length, true);
  final.endpoint = endpoint;
}
