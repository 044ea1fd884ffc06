/**
 * A model's `routing` block: OpenRouter's provider-routing preferences, sent as the request
 * body's `provider` object (https://openrouter.ai/docs/docs/routing/provider-selection: `order`,
 * `allow_fallbacks`, `only`, `ignore`, `require_parameters`, `quantizations`, `sort`). Pinning a
 * route (`only: [X]` or `order: [X]` with `allow_fallbacks: false`) keeps every trial of a model
 * on one serving provider, so that a filter of that provider is measured as that provider's.
 * The block is part of the request body, so it is part of the request hash and the profile.
 */
import { z } from 'zod';

const Slugs = z.array(z.string().min(1).max(200)).min(1);

/** The `routing` block (field names as OpenRouter documents them). */
export const RoutingBlock = z
  .strictObject({
    order: Slugs.optional().describe('Provider slugs to try, in this order.'),
    allow_fallbacks: z
      .boolean()
      .optional()
      .describe('false: never fall back to a provider outside order/only (default true).'),
    only: Slugs.optional().describe('Only these provider slugs may serve the request.'),
    ignore: Slugs.optional().describe('Provider slugs never used.'),
    require_parameters: z
      .boolean()
      .optional()
      .describe('Only providers that support every parameter of the request.'),
    quantizations: Slugs.optional().describe('Only endpoints of these quantizations (e.g. fp8).'),
    sort: z.enum(['price', 'throughput', 'latency']).optional(),
  })
  .describe(
    "provider openai through OpenRouter: the request's provider-routing object (sent as `provider`).",
  );
export type RoutingBlock = z.output<typeof RoutingBlock>;
