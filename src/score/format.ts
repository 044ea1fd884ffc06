/**
 * The scores artifact (`stimkit.scores`, version 1): `score.json` (the header, written last) and
 * `scores.jsonl` (one `ScoreLine` per trial × model). These zod schemas are the source of truth;
 * docs/formats/scores.md describes every field.
 */
import { z } from 'zod';
import { REASONING_VISIBILITY } from '../ledger/schema.js';

export const SCORES_FORMAT = 'stimkit.scores';
export const SCORES_VERSION = 1;
export const SCORES_FILES = { header: 'score.json', records: 'scores.jsonl' } as const;

const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

const Flag = z.union([z.literal(0), z.literal(1)]).nullable();

/** A pressure record's `pressure` object (docs/formats/scores.md, "Pressure"). */
const PressureTurn = z.strictObject({
  conversation: z.string(),
  turn: z.number().int().min(1),
  followup: z.string().nullable(),
  text_lang: z.string(),
  answer_lang: z.string(),
  /** The ledger outcome, or the one the response implies (a responses file without one). */
  outcome: z.string().nullable(),
  first_stance: z.number().nullable(),
  changed: Flag,
  side_changed: Flag,
  direction: z.enum(['plus', 'minus']).nullable(),
  changed_from_previous: Flag,
  changed_reason: z.string().nullable(),
});

/** One line of `scores.jsonl`. */
export const ScoreLine = z.strictObject({
  bundle: Sha256Hex,
  trial: z.string(),
  model: z.string(),
  paradigm: z.string(),
  parse: z.record(z.string(), z.unknown()),
  score: z.number().nullable(),
  stance: z.number().nullable(),
  reason: z.string().nullable(),
  simulated: z.boolean(),
  /** The response's outcome (who said no), serving route and gateway provider; absent in folders written before them. */
  outcome: z.string().nullable().optional(),
  route: z.string().nullable().optional(),
  route_provider: z.string().nullable().optional(),
  /** sha256 of the response text scored (UTF-8, as its source holds it), null without text; absent in folders written before it. */
  response_sha256: Sha256Hex.nullable().optional(),
  /** Who blocked by the vendor's metadata (gateway, vendor_classifier, model, unclassified), its category (lower snake case and raw) and detail; absent in folders written before them. */
  block_source: z
    .enum(['gateway', 'vendor_classifier', 'model', 'unclassified'])
    .nullable()
    .optional(),
  block_category: z.string().nullable().optional(),
  block_category_raw: z.string().nullable().optional(),
  block_detail: z.string().nullable().optional(),
  /** How much of the reasoning the server showed, and the reasoning tokens it reported; null when not recorded, absent in folders written before them. */
  reasoning_visibility: z.enum(REASONING_VISIBILITY).nullable().optional(),
  reasoning_tokens: z.number().int().min(0).nullable().optional(),
  /** A turn of a conversation (pressure only): where it is, how its answer was read, its change measures. */
  pressure: PressureTurn.optional(),
});
export type ScoreLine = z.output<typeof ScoreLine>;

/** An input file with its role and the sha256 of its bytes; paths relative to the output folder. */
const ScoreInputFile = z.strictObject({
  /** `language_pack`: a study's own pack sealed in the bundle (data/languages/<tag>.yaml), read before the shipped ones. */
  role: z.enum(['bundle', 'responses', 'ledger', 'models', 'language_pack']),
  file: z.string(),
  sha256: Sha256Hex,
});

/** One reasoning flag over the VLM rows: rows flagged, rows told, and why the others could not be. */
const ReasoningFlagCount = z.strictObject({
  flagged: z.number().int(),
  told: z.number().int(),
  not_computed: z.record(z.string(), z.number().int()),
});

/** `score.json`. */
export const ScoresHeader = z.strictObject({
  format: z.literal(SCORES_FORMAT),
  version: z.literal(SCORES_VERSION),
  tool: z.strictObject({ name: z.string(), version: z.string() }),
  bundle: z.strictObject({ digest: Sha256Hex, study: z.string().nullable() }),
  inputs: z.array(ScoreInputFile),
  params: z.strictObject({
    source: z.enum(['responses', 'ledger']),
    /** The ledger run label scored (ledger source), else null. */
    run: z.string().nullable(),
    /**
     * How text cells of the CSV tables were written: `safe` (cells a spreadsheet would run as a
     * formula start with `'`) or `raw` (`--csv-raw`). Absent in folders written before it was recorded.
     */
    csv: z.enum(['safe', 'raw']).optional(),
    scorers: z.record(z.string(), z.record(z.string(), z.unknown())),
  }),
  counts: z.strictObject({
    records: z.number().int(),
    simulated: z.number().int(),
    models: z.array(
      z.strictObject({
        name: z.string(),
        origin: z.string().nullable(),
        vendor: z.string().nullable(),
        simulated: z.boolean(),
        records: z.number().int(),
      }),
    ),
    by_paradigm: z.record(z.string(), z.number().int()),
    by_reason: z.record(z.string(), z.number().int()),
    /** Responses to trials of paradigms no scorer handles yet (not in scores.jsonl). */
    unscored: z.record(z.string(), z.number().int()),
    /** Columns left empty for a study language without the rules they need; absent when none. */
    not_computed: z
      .array(
        z.strictObject({
          lang: z.string(),
          reason: z.literal('no_rules_for_language'),
          columns: z.array(z.string()),
          rows: z.number().int(),
        }),
      )
      .optional(),
    /** The pressure turns and conversations (pressure.csv, pressure-conversations.csv); absent without pressure trials. */
    pressure: z
      .strictObject({
        conversations: z.number().int(),
        turns: z.number().int(),
        turns_with_stance: z.number().int(),
        turns_not_sent: z.number().int(),
        turns_unrecorded: z.number().int(),
        changed_ever: z.number().int(),
      })
      .optional(),
    /** The reasoning channel: visibility counts, reasoning tokens, the two flags; absent when no record carries it. */
    reasoning: z
      .strictObject({
        visibility: z.record(z.string(), z.number().int()),
        tokens: z.strictObject({ sum: z.number().int(), records: z.number().int() }),
        thought_suppressed: ReasoningFlagCount,
        reasoning_exceeds_answer: ReasoningFlagCount,
      })
      .optional(),
  }),
  files: z.array(z.strictObject({ file: z.string(), rows: z.number().int(), sha256: Sha256Hex })),
});
export type ScoresHeader = z.output<typeof ScoresHeader>;
