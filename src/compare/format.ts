/**
 * The compare artifact (`stimkit.compare`, version 1): what changed between two scores folders of
 * one sealed bundle. `compare --json` prints a `CompareResult`; `compare --out DIR` writes it as
 * `compare.json` (written last) beside `changed.csv`, `unpaired.csv`, `transitions.csv` and
 * `mcnemar.csv`. These zod schemas are the source of truth; docs/formats/compare.md describes
 * every field.
 */
import { z } from 'zod';

export const COMPARE_FORMAT = 'stimkit.compare';
export const COMPARE_VERSION = 2;

const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

/** A trial × model, named by what defines it, and the route that answered it (null: none recorded). */
export const TrialKey = z.strictObject({
  trial: z.string(),
  model: z.string(),
  paradigm: z.string(),
  language: z.string(),
  route: z.string().nullable(),
});
export type TrialKey = z.output<typeof TrialKey>;

/** The routes that answered a pair (or a cell's pairs) in A and in B (null: none recorded). */
const Routes = { route_a: z.string().nullable(), route_b: z.string().nullable() };

/** A trial × model whose outcome or a label differs: each changed column with its two values. */
export const ChangedTrial = TrialKey.omit({ route: true }).extend({
  ...Routes,
  columns: z.record(z.string(), z.strictObject({ a: z.string(), b: z.string() })),
});
export type ChangedTrial = z.output<typeof ChangedTrial>;

/** One cell of a transition table: how many paired trials went from `from` (A) to `to` (B). */
export const Transition = z.strictObject({
  model: z.string(),
  ...Routes,
  language: z.string(),
  paradigm: z.string(),
  column: z.string(),
  from: z.string(),
  to: z.string(),
  n: z.number().int(),
});
export type Transition = z.output<typeof Transition>;

/**
 * Exact McNemar of one column in one model × routes × language × paradigm cell (the routes that
 * answered in A and in B: one model through two routes is two runs of it): `a` both 1, `b` A 1 and
 * B 0, `c` A 0 and B 1, `d` both 0; `excluded` pairs lack a binary value on a side. `p_exact` is
 * null (with `reason`) when no pair has both; `p_holm` is Holm's adjustment across the cells of
 * the same column.
 */
export const McNemarCell = z.strictObject({
  model: z.string(),
  ...Routes,
  language: z.string(),
  paradigm: z.string(),
  column: z.string(),
  positive: z.string(),
  n: z.number().int(),
  excluded: z.number().int(),
  a: z.number().int(),
  b: z.number().int(),
  c: z.number().int(),
  d: z.number().int(),
  p_exact: z.number().nullable(),
  p_holm: z.number().nullable(),
  reason: z.string().nullable(),
});
export type McNemarCell = z.output<typeof McNemarCell>;

/** One scores folder compared. */
const Side = z.strictObject({
  dir: z.string(),
  score_json_sha256: Sha256Hex,
  run: z.string().nullable(),
  records: z.number().int(),
});

/** The whole comparison (`--json`, and `compare.json` with `files`). */
export const CompareResult = z.strictObject({
  format: z.literal(COMPARE_FORMAT),
  version: z.literal(COMPARE_VERSION),
  tool: z.strictObject({ name: z.string(), version: z.string() }),
  bundle: z.strictObject({ digest: Sha256Hex, study: z.string().nullable() }),
  a: Side,
  b: Side,
  counts: z.strictObject({
    paired: z.number().int(),
    changed: z.number().int(),
    only_a: z.number().int(),
    only_b: z.number().int(),
    /** Changed trials per column. */
    by_column: z.record(z.string(), z.number().int()),
  }),
  changed: z.array(ChangedTrial),
  only_a: z.array(TrialKey),
  only_b: z.array(TrialKey),
  transitions: z.array(Transition),
  mcnemar: z.array(McNemarCell),
  files: z
    .array(z.strictObject({ file: z.string(), rows: z.number().int(), sha256: Sha256Hex }))
    .optional(),
});
export type CompareResult = z.output<typeof CompareResult>;
