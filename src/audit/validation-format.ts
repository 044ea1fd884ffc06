/**
 * `validation.json` (format `stimkit.validation` version 1, written by `stimkit validate`; the
 * fields are described in docs/audit.md, "Validation"): the judges against human labels, per
 * dimension D1–D5. The zod schemas are the format; `stimkit report` reads the file through them.
 */
import { z } from 'zod';

/** Reliability of the human raters on one dimension. */
export const RaterAgreement = z.strictObject({
  raters: z.number().int().nonnegative(),
  /** Items with at least two ratings. */
  items: z.number().int().nonnegative(),
  /** Mean over rater pairs of the share of co-rated items on which the pair agrees. */
  raw_agreement: z.number().nullable(),
  gwet_ac1: z.number().nullable(),
  /** Mean over rater pairs (null when a pair's kappa is undefined, e.g. one label only). */
  cohen_kappa_mean: z.number().nullable(),
  /** On the items every rater labelled. */
  fleiss_kappa: z.number().nullable(),
  fleiss_items: z.number().int().nonnegative(),
  /** Share of TRUE among all ratings. */
  prevalence: z.number().nullable(),
});
export type RaterAgreement = z.output<typeof RaterAgreement>;

/** A judge's confusion matrix against a reference (the human majority), with its rates. */
export const Confusion = z.strictObject({
  tp: z.number().int().nonnegative(),
  fn: z.number().int().nonnegative(),
  fp: z.number().int().nonnegative(),
  tn: z.number().int().nonnegative(),
  n: z.number().int().nonnegative(),
  agreement: z.number().nullable(),
  precision: z.number().nullable(),
  /** Sensitivity: TP / (TP + FN). */
  recall: z.number().nullable(),
  specificity: z.number().nullable(),
  cohen_kappa: z.number().nullable(),
});
export type Confusion = z.output<typeof Confusion>;

/** A judged rate corrected by Rogan–Gladen (Appendix G). */
export const CorrectedRate = z.strictObject({
  observed: z.strictObject({
    x: z.number(),
    n: z.number(),
    rate: z.number(),
    lower: z.number(),
    upper: z.number(),
  }),
  sensitivity: z.number(),
  specificity: z.number(),
  /** Rogan–Gladen estimate, clipped to [0, 1]. */
  corrected: z.number(),
  lower: z.number(),
  upper: z.number(),
  /** 'delta' when s or σ carry counts, else 'wilson-mapped'. */
  method: z.enum(['delta', 'wilson-mapped']),
  /** True when the unclipped estimate fell outside [0, 1]. */
  clipped: z.boolean(),
});
export type CorrectedRate = z.output<typeof CorrectedRate>;

/** The dimensions validated, in order. */
export const DIMS = ['d1', 'd2', 'd3', 'd4', 'd5'] as const;
export type Dim = (typeof DIMS)[number];

/** One dimension of the validation. */
export const DimensionValidation = z.strictObject({
  dimension: z.enum(DIMS),
  raters: RaterAgreement,
  judges: z.array(
    z.strictObject({
      judge: z.string(),
      vs_majority: Confusion,
      /** The judge's positive rate over every response it labelled, corrected with this validation's accuracy (Appendix G). */
      attenuation: z.strictObject({
        labelled: z.number().int().nonnegative(),
        positives: z.number().int().nonnegative(),
        correction: CorrectedRate.nullable(),
        note: z.string(),
      }),
    }),
  ),
});
export type DimensionValidation = z.output<typeof DimensionValidation>;

/** An input of the validation with the sha256 of its bytes. */
export const ValidationInput = z.strictObject({
  /** `scores`: the scores folder's scores.jsonl (the judges' labels); `labels`: the human labels CSV. */
  role: z.enum(['scores', 'labels']),
  /** Relative to validation.json's folder. */
  file: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type ValidationInput = z.output<typeof ValidationInput>;

/** The validation report (`validation.json`). */
export const ValidationReport = z.strictObject({
  format: z.literal('stimkit.validation'),
  version: z.literal(1),
  tool: z.strictObject({ name: z.string(), version: z.string() }),
  /** What was compared: the scores' labels and the human labels, by sha256. */
  inputs: z.array(ValidationInput),
  raters: z.array(z.string()),
  /** Raters every row of whose labels is marked simulated (a `note` starting with `SIMULATED rater`); absent when none. */
  simulated_raters: z.array(z.string()).optional(),
  items: z.number().int().nonnegative(),
  /** Labelled items (trial × model) that are not in the scores; absent when every one is. */
  unmatched_items: z.number().int().positive().optional(),
  judges: z.array(z.string()),
  dimensions: z.array(DimensionValidation),
});
export type ValidationReport = z.output<typeof ValidationReport>;
