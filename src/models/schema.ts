/**
 * The models file (`stimkit.models`, version 1): which models a run talks to, where they are
 * served, which environment variable holds each key, and how the bundle's sampling fields map
 * onto each server. This zod schema is the source of truth; manifests/schema/models.schema.json
 * is generated from it and docs/formats/models.md describes every field.
 *
 * A model is one of four entries, told apart by `provider` (`openai` when left out): each holds
 * the fields every model has (fields.ts) and its own provider's fields and checks. A field of
 * another provider is refused with a message naming the provider that takes it.
 */
import { z } from 'zod';
// The schema alone, not the sim/index.js entry point: that one loads the whole simulator.
import { SimParams as simParamsSchema } from '../sim/schema.js';
import { commonFields, GeminiSafetySetting, named } from './fields.js';
import { ImageBlock } from './image.js';
import { PriceBlock } from './price.js';
import { RoutingBlock } from './routing.js';

export { DEFAULT_MAX_RESPONSE_MIB } from './fields.js';

const MODELS_FORMAT = 'stimkit.models';
const MODELS_VERSION = 1;

/** The providers a model can be served by. */
type ProviderName = 'openai' | 'anthropic' | 'gemini' | 'sim';

/** Each native provider's public endpoint, used when a model gives none. */
export const DEFAULT_ENDPOINTS: Record<'anthropic' | 'gemini', string> = {
  anthropic: 'https://api.anthropic.com',
  gemini: 'https://generativelanguage.googleapis.com',
};

/** The anthropic-version header sent when a model names none (the SDK's). */
export const ANTHROPIC_VERSION = '2026-10-21';

/** A field another provider takes: refused, the message saying whose it is (JSON Schema: absent). */
const foreign = (message: string) =>
  z
    .custom<undefined>((v) => v === undefined, { message })
    .optional()
    .meta({ not: {}, description: message });

/** The refusals of the provider-specific fields `provider` does not take. */
function foreignFields(provider: ProviderName) {
  const only = (who: string, field: string) =>
    foreign(`only provider ${who} takes ${field} (this model is provider ${provider})`);
  return {
    sim: foreign('only provider sim takes a sim: block'),
    safety_settings: only('gemini', 'safety_settings'),
    routing: only('openai (OpenRouter)', 'a routing block'),
    anthropic_version: only('anthropic', 'anthropic_version'),
    thinking_budget: foreign(
      `only providers anthropic and gemini take thinking_budget (this model is provider ${provider})`,
    ),
  };
}

const providerField = (name: ProviderName, text: string) =>
  z.literal(name).describe(`${name}: ${text}`);

/** The blocks of a model that sends requests (src/models/image.ts, price.ts). */
const requestBlocks = named({ image: ImageBlock.optional(), price: PriceBlock.optional() });

const thinkingBudget = (text: string) => z.number().int().min(0).optional().describe(text);

/** provider openai (the default): an OpenAI-compatible chat-completions server. */
const OpenAISpec = z
  .strictObject({
    ...commonFields,
    ...foreignFields('openai'),
    provider: providerField(
      'openai',
      'an OpenAI-compatible chat completions server (the default).',
    ).default('openai'),
    ...requestBlocks,
    // OpenRouter's provider routing, sent as the body's `provider` (src/models/routing.ts).
    routing: RoutingBlock.optional(),
  })
  .superRefine((m, ctx) => {
    if (m.endpoint === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['endpoint'],
        message: 'provider openai needs an endpoint (a base URL ending in /v1)',
      });
    if (m.routing !== undefined && 'provider' in m.extra_body)
      ctx.addIssue({
        code: 'custom',
        path: ['routing'],
        message: 'routing and extra_body.provider set the same request field: keep one (routing)',
      });
  });

/** provider anthropic: the Anthropic Messages API. */
const AnthropicSpec = z
  .strictObject({
    ...commonFields,
    ...foreignFields('anthropic'),
    provider: providerField('anthropic', 'the Anthropic Messages API.'),
    ...requestBlocks,
    thinking_budget: thinkingBudget(
      'When a trial turns thinking on, {type: enabled, budget_tokens} is sent (at least 1024, or 0: thinking off; default: {type: adaptive}).',
    ).refine((b) => b === undefined || b === 0 || b >= 1024, {
      message:
        'the Anthropic Messages API takes a thinking budget (budget_tokens) of at least 1024',
      params: {
        expected: '0 (thinking off) or an integer of at least 1024',
        fix: 'set thinking_budget to 1024 or more, to 0 to turn thinking off, or leave it out (adaptive thinking)',
      },
    }),
    anthropic_version: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .default(ANTHROPIC_VERSION)
      .describe('The anthropic-version header.'),
  })
  .superRefine((m, ctx) => {
    if (m.sampling.max_tokens !== 'max_tokens')
      ctx.addIssue({
        code: 'custom',
        path: ['sampling', 'max_tokens'],
        message:
          'the Anthropic Messages API requires max_tokens: sampling.max_tokens must stay max_tokens for provider anthropic',
      });
  });

/** provider gemini: the Gemini API (generateContent). */
const GeminiSpec = z.strictObject({
  ...commonFields,
  ...foreignFields('gemini'),
  provider: providerField('gemini', 'the Gemini API (generateContent).'),
  ...requestBlocks,
  thinking_budget: thinkingBudget(
    'When a trial turns thinking on, thinkingBudget is sent (0: thinking off; default: the model decides).',
  ),
  safety_settings: z
    .array(GeminiSafetySetting)
    .optional()
    .describe("safetySettings sent with every request (default: the API's)."),
});

const noRequest = (block: string) =>
  foreign(
    `a simulated respondent sends no request: the ${block} block applies to real providers only`,
  );

/** provider sim: a simulated respondent (offline). */
const SimSpec = z
  .strictObject({
    ...commonFields,
    ...foreignFields('sim'),
    provider: providerField('sim', 'a simulated respondent (offline).'),
    image: noRequest('image'),
    price: noRequest('price'),
    sim: simParamsSchema.optional().describe('The simulated respondent parameters.'),
  })
  .superRefine((m, ctx) => {
    if (m.sim === undefined)
      ctx.addIssue({ code: 'custom', path: ['sim'], message: 'provider sim needs a sim: block' });
  });

/** One model. */
export const ModelSpec = z.discriminatedUnion('provider', [
  OpenAISpec,
  AnthropicSpec,
  GeminiSpec,
  SimSpec,
]);
export type ModelSpec = z.output<typeof ModelSpec>;

/** The models file. */
export const ModelsFile = z
  .strictObject({
    format: z.literal(MODELS_FORMAT),
    version: z.literal(MODELS_VERSION),
    models: z.array(ModelSpec).min(1),
  })
  .describe('stimkit models file: the models a run talks to.');
export type ModelsFile = z.output<typeof ModelsFile>;
