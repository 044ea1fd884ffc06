/**
 * What a model's trials will send and cost, before anything is sent: the image sizes its `image`
 * block makes (exact: the bytes are made as the run will make them), and its tokens and cost as a
 * low–high range from its `price` block. Low: the text at the low token count, images at their
 * lowest rule, no output. High: the text at the high count plus a chat template's framing,
 * images at their highest rule, every reply as long as its max_tokens allows. A later turn of a
 * conversation (pressure) is sent with the conversation so far: its input also counts the earlier
 * turns' messages and images, and each earlier reply at the most output tokens that turn could
 * bill (its output cap: max_tokens, else the price's max_output_tokens) plus a message's framing,
 * an upper bound (low: no reply text). `run --dry-run` prints it; `run --budget` refuses a run
 * whose high end does not fit.
 */
import type { Trial } from '../bundle/format.js';
import type { ModelSpec } from '../models/schema.js';
import { priceOf } from './cost.js';
import { providerOf } from '../client/providers/index.js';
import { imageTokens } from './image-tokens.js';
import type { SentImageStore } from '../client/send-image.js';
import { textCounter, TOKENIZER_NOTE } from './text-tokens.js';
import { earlierTrials, type TrialIndex } from './turns.js';

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
  /**
   * Later turns of conversations among the trials, and the earlier replies their inputs count
   * at the output cap (an upper bound); null when no trial is a later turn.
   */
  conversations: { later_turns: number; earlier_replies: number } | null;
}

type Made = { width: number | null; height: number | null; bytes: number };

/** The image sizes of `trials` as `model` will be sent them (`sent`: the trials a request carries). */
async function imageSizes(
  model: ModelSpec,
  trials: readonly Trial[],
  sent: (t: Trial) => readonly Trial[],
  store: SentImageStore,
): Promise<{ sizes: ImageSizes | null; made: Map<string, Made> }> {
  const made = new Map<string, Made>();
  const parts = trials.flatMap((t) => sent(t).flatMap((s) => s.images));
  for (const d of parts) if (!made.has(d)) made.set(d, await store.get(d, model.image));
  if (made.size === 0) return { sizes: null, made };
  const all = [...made.values()];
  const span = (f: (m: Made) => number | null) => {
    const v = all.map(f).filter((x): x is number => x !== null);
    return v.length ? { min: Math.min(...v), max: Math.max(...v) } : null;
  };
  const total = parts.reduce((a, d) => a + made.get(d)!.bytes, 0);
  const format = !model.image
    ? 'png (the bundle bytes)'
    : model.image.format === 'jpeg'
      ? `jpeg q${model.image.quality ?? 85}`
      : 'png';
  return {
    sizes: {
      sent: parts.length,
      distinct: made.size,
      format,
      width: span((m) => m.width),
      height: span((m) => m.height),
      bytes: { ...span((m) => m.bytes)!, total },
    },
    made,
  };
}

const NO_CAP =
  'a trial sets no max_tokens (or the mapping drops it) and the price has no max_output_tokens';
const NO_IMAGE_RULE = 'images are sent and the price has no image_tokens rule';
const NO_IMAGE_SIZE = 'an image is not a PNG whose size can be read';

/** What the trials of an estimate add up to. */
interface Tally {
  input: { low: number; high: number };
  output: { low: number; high: number };
  images: number;
  unbounded: Set<string>;
  /** An earlier reply without an output cap: the input has no upper bound. */
  replyUnbounded: boolean;
  laterTurns: number;
  earlierReplies: number;
}

/** What counting a trial needs. */
interface Counting {
  model: ModelSpec;
  price: NonNullable<ModelSpec['price']>;
  count: (texts: readonly string[]) => { low: number; high: number };
  cap: (t: Trial) => number | undefined;
  made: Map<string, Made>;
}

/** The text and image tokens of one trial's messages and images, added to `tally.input`. */
function addInput(t: Trial, c: Counting, tally: Tally): void {
  for (const m of t.messages) {
    const r = c.count(m.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])));
    tally.input.low += r.low;
    tally.input.high += r.high;
  }
  for (const d of t.images) {
    tally.images++;
    if (!c.price.image_tokens) {
      tally.unbounded.add(NO_IMAGE_RULE);
      continue;
    }
    const m = c.made.get(d)!;
    if (m.width === null || m.height === null) {
      tally.unbounded.add(NO_IMAGE_SIZE);
      continue;
    }
    const r = imageTokens(c.price.image_tokens, m.width, m.height, c.model.image?.detail);
    tally.input.low += r.low;
    tally.input.high += r.high;
  }
}

/**
 * Add one request: the earlier turns of its conversation (their messages and images, and each
 * reply at its output cap plus a message's framing, nothing at the low end), then its own
 * messages and images, and its own reply at its cap as output.
 */
function addRequest(t: Trial, earlier: readonly Trial[], c: Counting, tally: Tally): void {
  if (earlier.length > 0) tally.laterTurns++;
  for (const e of earlier) {
    addInput(e, c, tally);
    tally.earlierReplies++;
    const cap = c.cap(e);
    if (cap === undefined) {
      tally.unbounded.add(NO_CAP);
      tally.replyUnbounded = true;
    } else tally.input.high += cap + c.count([]).high;
  }
  addInput(t, c, tally);
  const cap = c.cap(t);
  if (cap === undefined) tally.unbounded.add(NO_CAP);
  else tally.output.high += cap;
}

/**
 * Estimate `model` on `trials` (its image sizes always; tokens and cost with a price block).
 * `index`: every trial of the bundle by id, where the earlier turns of a conversation are found.
 */
export async function estimateModel(
  model: ModelSpec,
  trials: readonly Trial[],
  store: SentImageStore,
  index: TrialIndex,
): Promise<ModelEstimate> {
  const sent = (t: Trial) => [...earlierTrials(t, index), t];
  const { sizes, made } = await imageSizes(model, trials, sent, store);
  const price = model.price;
  if (!price)
    return {
      images: sizes,
      tokens: null,
      cost_usd: null,
      batch_cost_usd: null,
      text_tokens: null,
      unbounded: [],
      conversations: null,
    };
  const provider = providerOf(model);
  const c: Counting = {
    model,
    price,
    count: await textCounter(price.text_tokens),
    // The most output tokens a reply can bill: the limit the provider sends (anthropic: plus the
    // thinking budget, thinking billed as output), else the price's max_output_tokens.
    cap: (t) => provider.outputCap(t, model) ?? price.max_output_tokens ?? undefined,
    made,
  };
  const tally: Tally = {
    input: { low: 0, high: 0 },
    output: { low: 0, high: 0 },
    images: 0,
    unbounded: new Set(),
    replyUnbounded: false,
    laterTurns: 0,
    earlierReplies: 0,
  };
  for (const t of trials) addRequest(t, earlierTrials(t, index), c, tally);
  return priced(tally, price, sizes);
}

/** The estimate of a tally under `price`. */
function priced(
  tally: Tally,
  price: NonNullable<ModelSpec['price']>,
  sizes: ImageSizes | null,
): ModelEstimate {
  const { input, output, images, unbounded } = tally;
  // The input has no upper bound without an image's tokens or an earlier reply's cap.
  const inputOpen =
    unbounded.has(NO_IMAGE_RULE) || unbounded.has(NO_IMAGE_SIZE) || tally.replyUnbounded;
  const at = (inTok: number, outTok: number) =>
    priceOf({ input: inTok, cachedInput: 0, cacheWrite: 0, output: outTok }, images, price);
  const low = at(input.low, output.low);
  const high = unbounded.size > 0 ? null : at(input.high, output.high);
  const off = 1 - price.batch_discount;
  return {
    images: sizes,
    tokens: {
      input: { low: input.low, high: inputOpen ? null : input.high },
      output: { low: output.low, high: unbounded.has(NO_CAP) ? null : output.high },
    },
    cost_usd: { low, high },
    batch_cost_usd:
      price.batch_discount > 0 ? { low: low * off, high: high === null ? null : high * off } : null,
    text_tokens: TOKENIZER_NOTE[price.text_tokens],
    unbounded: [...unbounded],
    conversations:
      tally.laterTurns > 0
        ? { later_turns: tally.laterTurns, earlier_replies: tally.earlierReplies }
        : null,
  };
}
