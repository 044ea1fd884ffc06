/**
 * The categories of a labels dimension, from the labels and rubric formats rather than from the
 * labels seen: every D1–D5 dimension and D4 strategy is TRUE or FALSE, and D3 visual grounding may
 * also be N/A (docs/formats/labels.md, docs/formats/rubric.md). Knowing them keeps kappa and AC1
 * defined on a dimension where every rating is the same (e.g. dt1_endorsement all false).
 */
import { StimkitError } from '../core/errors.js';
import type { Label } from '../stats/index.js';

/** A dimension column of the labels formats: `d1_refusal` … `d5_language`, `dt1_endorsement` …. */
export const DIMENSION = /^dt?\d+_[a-z_]+$/;

/** The dimension a set of rater columns belongs to: `d4_state_aligned` for `d4_state_aligned.alice`, or the column itself. */
export function dimensionOf(columns: readonly string[]): string | null {
  const bases = new Set(columns.map((c) => c.split('.')[0]!));
  const [only] = [...bases];
  return bases.size === 1 && DIMENSION.test(only!) ? only! : null;
}

/**
 * The known categories of a dimension, spelled as the labels seen spell them (true/false/na as
 * `label export` writes them, TRUE/FALSE/N/A as the rubric's judges do); null for a column the
 * formats do not describe.
 */
function knownCategories(dimension: string, seen: readonly string[]): string[] | null {
  if (!DIMENSION.test(dimension)) return null;
  const upper = seen.some((v) => v === 'TRUE' || v === 'FALSE' || v === 'N/A');
  const base = upper ? ['FALSE', 'TRUE'] : ['false', 'true'];
  return dimension.startsWith('d3_') ? [...base, upper ? 'N/A' : 'na'] : base;
}

/**
 * The category list of an agreement: `given` (--categories), else the dimension's known
 * categories, else the labels seen. A label outside a given or known list is an error naming the
 * dimension.
 */
export function agreementCategories(
  seen: readonly Label[],
  options: { given?: readonly string[]; dimension: string | null; file: string },
): Label[] | null {
  const list =
    options.given ??
    (options.dimension ? knownCategories(options.dimension, seen.map(String)) : null);
  if (list === null) return null;
  const unknown = [...new Set(seen.map(String))].filter((v) => !list.includes(v));
  if (unknown.length > 0) {
    throw StimkitError.fromProblem({
      code: 'E_ANALYZE_CATEGORY',
      file: options.file,
      field: options.dimension ?? undefined,
      message: `${options.dimension ? `dimension ${options.dimension}: ` : ''}labels outside the categories`,
      expected: list.join(', '),
      got: unknown.join(', '),
      fix: options.given
        ? 'list every label in --categories'
        : 'correct the labels, or pass the full list with --categories',
    });
  }
  const numeric = seen.length > 0 && seen.every((v) => typeof v === 'number');
  return numeric ? list.map(Number) : [...list];
}
