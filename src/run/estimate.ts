/**
 * What a model's trials will send and cost, before anything is sent: the image sizes its `image`
 * block makes (exact: the bytes are made as the run will make them), and its tokens and cost as a
 * low–high range from its `price` block. Low: the text at the low token count, images at their
 * lowest rule, no output. High: the text at the high count plus a chat template's framing,
 * images at their highest rule, every reply as long as its max_tokens allows. `run --dry-run`
 * prints it; `run --budget` refuses a run whose high end does not fit.
 */
import type { Trial } from '../bundle/format.js';
import type { ModelSpec } from '../models/schema.js';
import { priceOf } from './cost.js';
import { providerOf } from '../client/providers/index.js';
import { imageTokens } from './image-tokens.js';
import type { SentImageStore } from '../client/send-image.js';
import { textCounter, TOKENIZER_NOTE } from './text-tokens.js';

/** The images a model will be sent. */
interface ImageSizes {
  /** Image parts sent (one per image shown, trials × images). */
  sent: number;
  distinct: number;
  format: string;
  /** Null when no image is a PNG whose size could be read. */
  width: { min: number; max: number } | null;
  height: { min: number; max: number } | null;
  /** Bytes of the distinct images as sent, and their total over every image part. */
  bytes: { min: number; max: number; total: number };
}

/** A model's estimate. `high` null: no upper bound (`unbounded` says why). */
export interface ModelEstimate {
  images: ImageSizes | null;
  tokens: {
    input: { low: number; high: number | null };
    output: { low: number; high: number | null };
  } | null;
  cost_usd: { low: number; high: number | null } | null;
  /** The same through a batch file (the price's batch_discount), when it has one. */
  batch_cost_usd: { low: number; high: number | null } | null;
  /** How text tokens were counted. */
  text_tokens: string | null;
  unbounded: string[];
}

type Made = { width: number | null; height: number | null; bytes: number };

/** The image sizes of `trials` as `model` will be sent them. */
async function imageSizes(
  model: ModelSpec,
  trials: readonly Trial[],
  store: SentImageStore,
): Promise<{ sizes: ImageSizes | null; made: Map<string, Made> }> {
  const made = new Map<string, Made>();
  let sent = 0;
  for (const t of trials)
    for (const d of t.images) {
      sent++;
      if (!made.has(d)) made.set(d, await store.get(d, model.image));
    }
  if (made.size === 0) return { sizes: null, made };
  const all = [...made.values()];
  const span = (f: (m: Made) => number | null) => {
    const v = all.map(f).filter((x): x is number => x !== null);
    return v.length ? { min: Math.min(...v), max: Math.max(...v) } : null;
  };
  let total = 0;
  for (const t of trials) for (const d of t.images) total += made.get(d)!.bytes;
  const format = !model.image
    ? 'png (the bundle bytes)'
    : model.image.format === 'jpeg'
      ? `jpeg q${model.image.quality ?? 85}`
      : 'png';
  return {
    sizes: {
      sent,
      distinct: made.size,
      format,
      width: span((m) => m.width),
      height: span((m) => m.height),
      bytes: { ...span((m) => m.bytes)!, total },
    },
    made,
  };
}

/** Estimate `model` on `trials` (its image sizes always; tokens and cost with a price block). */
export async function estimateModel(
  model: ModelSpec,
  trials: readonly Trial[],
  store: SentImageStore,
): Promise<ModelEstimate> {
  const { sizes, made } = await imageSizes(model, trials, store);
  const price = model.price;
  if (!price)
    return {
      images: sizes,
      tokens: null,
      cost_usd: null,
      batch_cost_usd: null,
      text_tokens: null,
      unbounded: [],
    };
  const provider = providerOf(model);
  const count = await textCounter(price.text_tokens);
  const unbounded = new Set<string>();
  const input = { low: 0, high: 0 };
  const output = { low: 0, high: 0 };
  let images = 0;
  for (const t of trials) {
    for (const m of t.messages) {
      const r = count(m.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])));
      input.low += r.low;
      input.high += r.high;
    }
    for (const d of t.images) {
      images++;
      if (!price.image_tokens) {
        unbounded.add('images are sent and the price has no image_tokens rule');
        continue;
      }
      const m = made.get(d)!;
      if (m.width === null || m.height === null) {
        unbounded.add('an image is not a PNG whose size can be read');
        continue;
      }
      const r = imageTokens(price.image_tokens, m.width, m.height, model.image?.detail);
      input.low += r.low;
      input.high += r.high;
    }
    // The most output tokens a reply can bill: the limit the provider sends (anthropic: plus the
    // thinking budget, thinking billed as output), else the price's max_output_tokens.
    const cap = provider.outputCap(t, model) ?? price.max_output_tokens;
    if (cap === undefined || cap === null)
      unbounded.add(
        'a trial sets no max_tokens (or the mapping drops it) and the price has no max_output_tokens',
      );
    else output.high += cap;
  }
  const noImageRule = images > 0 && !price.image_tokens;
  const noCap = unbounded.size > (noImageRule ? 1 : 0);
  const at = (inTok: number, outTok: number) =>
    priceOf({ input: inTok, cachedInput: 0, cacheWrite: 0, output: outTok }, images, price);
  const low = at(input.low, output.low);
  const high = unbounded.size > 0 ? null : at(input.high, output.high);
  const off = 1 - price.batch_discount;
  return {
    images: sizes,
    tokens: {
      input: { low: input.low, high: noImageRule ? null : input.high },
      output: { low: output.low, high: noCap ? null : output.high },
    },
    cost_usd: { low, high },
    batch_cost_usd:
      price.batch_discount > 0 ? { low: low * off, high: high === null ? null : high * off } : null,
    text_tokens: TOKENIZER_NOTE[price.text_tokens],
    unbounded: [...unbounded],
  };
}
