/**
 * The sealed bundle's payload formats (`stimkit.bundle`, version 1): one trial per line of
 * `data/trials.jsonl`, and `data/bundle.json`, the bundle's header. These zod schemas are the
 * source of truth; docs/formats/bundle.md describes every field for readers in other languages.
 */
import { z } from 'zod';
import { LangCode, Slug } from '../ingest/schema.js';
import { FOLLOWUP_KINDS } from '../study/pressure-block.js';
import { Sampling, VariantCode, VLM_PARADIGMS } from '../study/schema.js';

export const BUNDLE_FORMAT = 'stimkit.bundle';
export const BUNDLE_VERSION = 1;

const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

/** Paths of the payload files, relative to `data/`. */
export const PAYLOAD = {
  bundle: 'bundle.json',
  study: 'study.json',
  entries: 'entries.json',
  variants: 'variants.json',
  prompts: 'prompts.json',
  items: 'items.json',
  wrappers: 'wrappers.json',
  /** The pressure paradigm's follow-up files, only when the study has a pressure block. */
  pressure: 'pressure.json',
  /** The audit rubric, only when the study names one. */
  rubric: 'rubric.json',
  counts: 'counts.json',
  trials: 'trials.jsonl',
  imagesDir: 'images',
} as const;

/** The payload path (under `data/`) of an image with this digest. */
export function imagePayloadPath(digest: string): string {
  return `${PAYLOAD.imagesDir}/${digest}.png`;
}

const TextPart = z.strictObject({ type: z.literal('text'), text: z.string() });
/** An image part: the image is `data/<file>`, whose sha256 is `sha256`. */
const ImagePart = z.strictObject({
  type: z.literal('image'),
  sha256: Sha256Hex,
  file: z.string(),
  media_type: z.literal('image/png'),
});
const Message = z.strictObject({
  role: z.enum(['system', 'user', 'assistant']),
  content: z.array(z.discriminatedUnion('type', [TextPart, ImagePart])).min(1),
});

const PARADIGMS = [...VLM_PARADIGMS, 'instrument', 'pressure'] as const;

const TrialIdText = z.string().regex(/^t_[0-9a-f]{24}$/);

/**
 * A turn of a multi-turn conversation (the pressure paradigm): which conversation, which turn
 * (1-based), the trial of the turn before (null for turn 1), the follow-up kind (null for turn 1)
 * and the language the turn's user message is written in. The trial's `messages` hold only this
 * turn's new user message: the earlier turns depend on the model's answers, and the run puts them
 * in front (the earlier user turns as sealed here, the replies as the ledger recorded them).
 */
const ConversationTurn = z.strictObject({
  /** `c_` + the first 24 hex digits of the sha256 of the canonical JSON of the id fields. */
  id: z.string().regex(/^c_[0-9a-f]{24}$/),
  turn: z.number().int().min(1),
  previous: TrialIdText.nullable(),
  followup: z.enum(FOLLOWUP_KINDS).nullable(),
  text_lang: LangCode,
});

/** One fully rendered trial. */
export const Trial = z.strictObject({
  /** `t_` + the first 24 hex digits of the sha256 of the canonical JSON of the id fields. */
  id: TrialIdText,
  paradigm: z.enum(PARADIGMS),
  /** Instrument arm id; null for the VLM paradigms. */
  arm: Slug.nullable(),
  lang: LangCode,
  /** Corpus entry id (VLM paradigms). */
  entry: Slug.nullable(),
  /** Minimal-pair item id (instrument). */
  item: z.string().nullable(),
  /** Topic id (instrument). */
  topic: Slug.nullable(),
  /** Variant code; A0 for every image paradigm but abstraction, null without an image. */
  variant: VariantCode.nullable(),
  framing: z.enum(['affirmative', 'reverse']).nullable(),
  /** Instrument iteration, 0-based. */
  iteration: z.number().int().min(0).nullable(),
  /** Replication seed sent with the request (VLM paradigms). */
  seed: z.number().int().min(0).nullable(),
  /** Prompt card id (VLM paradigms). */
  prompt: Slug.nullable(),
  /** The drawn wrappers (instrument). */
  wrappers: z
    .strictObject({
      prefix: z.strictObject({ id: z.string(), index: z.number().int().min(0) }),
      suffix: z.strictObject({ id: z.string(), index: z.number().int().min(0) }),
    })
    .nullable(),
  /** Model set the trial is meant for (a key of the study's models), or null. */
  models: Slug.nullable(),
  messages: z.array(Message).min(1),
  /** Digests of the images the messages show, in order. */
  images: z.array(Sha256Hex),
  sampling: Sampling,
  /**
   * The thinking factor's level (`on`: sampling.thinking true; `off`: false), only in a study that
   * sets `thinking: [on, off]`; absent otherwise. Part of the trial id when present.
   */
  thinking: z.enum(['on', 'off']).optional(),
  /** A turn of a conversation (pressure only; absent for every one-turn trial). */
  conversation: ConversationTurn.optional(),
});
export type Trial = z.output<typeof Trial>;

/** The fields a trial id hashes, in the order the docs list them. */
export const TRIAL_ID_FIELDS = [
  'paradigm',
  'arm',
  'lang',
  'entry',
  'item',
  'topic',
  'variant',
  'framing',
  'iteration',
  'seed',
] as const;

/** Counts of a plan: by block × language, per model, and the checked expectations. */
export const Counts = z.strictObject({
  trials: z.number().int(),
  by_block: z.array(
    z.strictObject({ block: z.string(), lang: LangCode, trials: z.number().int() }),
  ),
  blocks: z.array(
    z.strictObject({
      block: z.string(),
      trials: z.number().int(),
      models: z.string().nullable(),
      model_count: z.number().int().nullable(),
      planned_requests: z.number().int().nullable(),
    }),
  ),
  expectations: z.array(
    z.strictObject({
      label: z.string(),
      blocks: z.array(z.string()),
      languages: z.array(LangCode).nullable(),
      per_model: z.strictObject({ expected: z.number().int(), got: z.number().int() }),
      total: z
        .strictObject({ expected: z.number().int(), got: z.number().int().nullable() })
        .nullable(),
      ok: z.boolean(),
    }),
  ),
});
export type Counts = z.output<typeof Counts>;

/** `data/bundle.json`: the header a reader checks first. */
export const BundleHeader = z.strictObject({
  format: z.literal(BUNDLE_FORMAT),
  version: z.literal(BUNDLE_VERSION),
  study: z.strictObject({ id: Slug, title: z.string() }),
  trials: z.number().int(),
  images: z.number().int(),
  files: z.record(z.string(), z.string()),
  trial_id: z.string(),
  canonical_json: z.string(),
});
export type BundleHeader = z.output<typeof BundleHeader>;
