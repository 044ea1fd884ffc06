/**
 * The models file's `price` block: what a model's calls cost, from its vendor's published price
 * list, so that `run --dry-run` can estimate a run, `run --budget` can refuse or stop one, and
 * each result records its cost (src/run/cost.ts). Prices are USD per million tokens; images count
 * as input tokens by the vendor's documented rule (src/run/image-tokens.ts), or per image.
 */
import { z } from 'zod';

const Usd = z.number().min(0).max(1_000_000);

/**
 * How many input tokens one image counts as, by the rule its vendor documents:
 * - `openai_tiles`: OpenAI's tile rule (GPT-4o, GPT-4.1, GPT-5, o1/o3): `detail: low` costs
 *   `base`; otherwise the image is fitted into 2048 × 2048, its short side scaled to 768, and
 *   each 512-px tile costs `tile`, plus `base`.
 * - `openai_patches`: OpenAI's patch rule (GPT-4.1-mini/nano, o4-mini, GPT-5-mini/nano): 32-px
 *   patches, at most `max_patches` (the image is scaled down to fit), times `multiplier`.
 * - `anthropic`: Claude's rule, ⌈width × height / 750⌉, after the API's own downscale to
 *   `max_long_edge` and `max_tokens`.
 * - `gemini`: Gemini 2.x: 258 tokens when both sides are ≤ 384 px, else 258 per 768-px tile.
 * - `fixed`: the same count for every image (e.g. Gemini 3's `media_resolution` budgets).
 * The vendors' pages: docs/formats/models.md, "price".
 */
export const ImageTokenRule = z.discriminatedUnion('rule', [
  z.strictObject({
    rule: z.literal('openai_tiles'),
    base: z.number().int().min(0).default(85),
    tile: z.number().int().min(0).default(170),
  }),
  z.strictObject({
    rule: z.literal('openai_patches'),
    multiplier: z.number().positive().default(1),
    max_patches: z.number().int().min(1).default(1536),
  }),
  z.strictObject({
    rule: z.literal('anthropic'),
    max_long_edge: z.number().int().min(1).default(1568),
    max_tokens: z.number().int().min(1).default(1600),
  }),
  z.strictObject({
    rule: z.literal('gemini'),
    tokens: z.number().int().min(0).default(258),
  }),
  z.strictObject({ rule: z.literal('fixed'), tokens: z.number().int().min(0) }),
]);
export type ImageTokenRule = z.output<typeof ImageTokenRule>;

/** How `run --dry-run` counts text tokens. */
export const TEXT_TOKENIZERS = ['o200k_base', 'cl100k_base', 'chars'] as const;

/** One model's `price` block. */
export const PriceBlock = z
  .strictObject({
    input_per_mtok: Usd.describe('USD per million input (prompt) tokens.'),
    output_per_mtok: Usd.describe('USD per million output tokens (reasoning tokens included).'),
    cached_input_per_mtok: Usd.optional().describe(
      'USD per million input tokens read from a prompt cache (default: input_per_mtok).',
    ),
    cache_write_per_mtok: Usd.optional().describe(
      'USD per million input tokens written to a prompt cache (Anthropic; default: input_per_mtok).',
    ),
    batch_discount: z
      .number()
      .min(0)
      .max(1)
      .default(0)
      .describe(
        'Fraction taken off results that came back through a batch file (0.5 = half price).',
      ),
    per_image_usd: Usd.optional().describe('USD per image sent, for APIs that bill per image.'),
    image_tokens: ImageTokenRule.optional().describe(
      'How many input tokens an image counts as (for the estimate; the cost comes from usage).',
    ),
    text_tokens: z
      .enum(TEXT_TOKENIZERS)
      .default('chars')
      .describe(
        "How the estimate counts text tokens: an OpenAI tokenizer (exact for OpenAI's models), or the characters-per-token rule.",
      ),
    max_output_tokens: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(
        "The model's longest reply, for the upper estimate of trials that set no max_tokens.",
      ),
  })
  .describe('What calls to this model cost (USD), for estimates, budgets and the cost record.');
export type PriceBlock = z.output<typeof PriceBlock>;
