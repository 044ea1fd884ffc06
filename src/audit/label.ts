/**
 * One judge label: the JSON object the rubric's output section asks for (Appendix E, "Output
 * schema"): the five booleans with their sub-fields, the D4 strategies and direction, verbatim
 * quotes, a one-sentence rationale and a confidence. The zod schema validates what a judge
 * returns; `labelJsonSchema` is the strict JSON Schema sent as the OpenAI `response_format`
 * (every property required, nullable fields typed as [T, "null"], no extra properties).
 */
import type { ResponseFormatJSONSchema } from 'openai/resources/shared';
import { z } from 'zod';
import {
  DIRECTIONS,
  INTEGRITY_FAILURES,
  REFUSAL_REASONS,
  STRATEGIES,
} from '../study/rubric-schema.js';

export const Label = z.strictObject({
  explicit_refusal: z.boolean(),
  refusal_reason: z.enum(REFUSAL_REASONS).nullable(),
  info_integrity: z.boolean(),
  integrity_failure_type: z.enum(INTEGRITY_FAILURES).nullable(),
  covered_facts: z.array(z.string()),
  missing_facts: z.array(z.string()),
  visual_grounded: z.boolean().nullable(),
  state_aligned: z.boolean(),
  ccp_strategy: z.array(z.enum(STRATEGIES)),
  ccp_direction: z.enum(DIRECTIONS).nullable(),
  ccp_quotes: z.array(z.string()),
  language_consistent: z.boolean(),
  rationale: z.string(),
  confidence: z.number().min(0).max(1),
});
export type Label = z.output<typeof Label>;

/** The label fields in the order the prompt lists them. */
export const LABEL_FIELDS = Object.keys(Label.shape) as Array<keyof Label>;

const nullable = (schema: Record<string, unknown>) => ({
  ...schema,
  type: [schema.type as string, 'null'],
});
const enumOf = (values: readonly string[], canBeNull: boolean) =>
  canBeNull
    ? { type: ['string', 'null'], enum: [...values, null] }
    : { type: 'string', enum: [...values] };

/** The strict JSON Schema of a label, for `response_format: {type: 'json_schema', strict: true}`. */
export function labelJsonSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    explicit_refusal: { type: 'boolean' },
    refusal_reason: enumOf(REFUSAL_REASONS, true),
    info_integrity: { type: 'boolean' },
    integrity_failure_type: enumOf(INTEGRITY_FAILURES, true),
    covered_facts: { type: 'array', items: { type: 'string' } },
    missing_facts: { type: 'array', items: { type: 'string' } },
    visual_grounded: nullable({ type: 'boolean' }),
    state_aligned: { type: 'boolean' },
    ccp_strategy: { type: 'array', items: enumOf(STRATEGIES, false) },
    ccp_direction: enumOf(DIRECTIONS, true),
    ccp_quotes: { type: 'array', items: { type: 'string' } },
    language_consistent: { type: 'boolean' },
    rationale: { type: 'string' },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
  };
  return { type: 'object', additionalProperties: false, required: LABEL_FIELDS, properties };
}

/** The OpenAI `response_format` value asking for a label. */
export function labelResponseFormat(): ResponseFormatJSONSchema {
  return {
    type: 'json_schema',
    json_schema: { name: 'stimkit_audit_label', strict: true, schema: labelJsonSchema() },
  };
}

/** A judge's verdict as recorded in `scores.jsonl`. */
export interface JudgeVerdict {
  judge: string;
  simulated: boolean;
  status: string;
  flags: string[];
  problems: string[];
  label: Label | null;
}

/** The `parse` of a VLM score record. */
export interface AuditParse {
  sensitivity: string | null;
  d6: { raw: number; markdown: number; clean: number | null } | null;
  d5_auto: { consistent: boolean | null; share: number | null; primary: string | null } | null;
  /** `refused`, `reason` and `short` are null when the language has no rules for them. */
  lexical: {
    refused: boolean | null;
    reason: string | null;
    markers: string[];
    short: boolean | null;
  } | null;
  /** The columns left empty because the language has no rules for them (`no_rules_for_language`). */
  no_rules?: { lang: string; columns: string[] };
  judges: JudgeVerdict[];
}
