/**
 * The quality warnings of the variants a plan shows (an empty silhouette, an edge map without
 * edges, …; src/variants/quality/), one per entry × variant × warning with the number of trials
 * that show it. Derived from the variants lock's metrics and the recipe's thresholds, as
 * `stimkit variants` does. `bundle --strict` refuses to seal a plan that shows any of them.
 */
import { StimkitError } from '../core/errors.js';
import { entryWarnings } from '../variants/quality/warnings.js';
import { qualityThresholds } from '../variants/recipe.js';
import type { PlanWarning } from './drafts.js';
import type { PlannedTrial } from './plan.js';
import type { VariantImages } from './variants-source.js';

/** A quality warning of one shown variant. */
export interface ShownWarning extends PlanWarning {
  entry: string;
  variant: string;
  trials: number;
  value: number;
  threshold: number;
  fix: string;
}

/** Every warning of every variant the plan's trials show, in entry then variant order. */
export function shownWarnings(
  plan: PlannedTrial[],
  variants: VariantImages | null,
): ShownWarning[] {
  if (!variants) return [];
  const trials = new Map<string, number>();
  for (const t of plan)
    if (t.image)
      trials.set(
        `${t.image.entry}/${t.image.variant}`,
        (trials.get(`${t.image.entry}/${t.image.variant}`) ?? 0) + 1,
      );
  const thresholds = qualityThresholds(variants.lock.recipe);
  const out: ShownWarning[] = [];
  for (const e of variants.lock.entries) {
    for (const [code, list] of entryWarnings(e.variants, thresholds)) {
      const n = trials.get(`${e.id}/${code}`);
      if (!n) continue;
      for (const w of list) {
        out.push({
          code: w.code,
          message: `${e.id} ${code} (shown in ${n} trial(s)): ${w.message}; fix: ${w.fix}`,
          entry: e.id,
          variant: code,
          trials: n,
          value: w.value,
          threshold: w.threshold,
          fix: w.fix,
        });
      }
    }
  }
  return out.sort((a, b) =>
    a.entry === b.entry
      ? a.variant < b.variant
        ? -1
        : a.variant > b.variant
          ? 1
          : 0
      : a.entry < b.entry
        ? -1
        : 1,
  );
}

/** `bundle --strict`: refuse to seal a plan that shows variants with quality warnings. */
export function refuseWarned(warnings: ShownWarning[]): void {
  if (warnings.length === 0) return;
  throw new StimkitError(
    'E_BUNDLE_QUALITY',
    `the plan shows ${warnings.length} variant image(s) with quality warnings (--strict); nothing was sealed`,
    {
      problems: warnings.map((w) => ({
        code: w.code,
        severity: 'error' as const,
        entry: w.entry,
        field: w.variant,
        message: `${w.message.replace(/; fix: .*$/, '')}`,
        got: String(w.value),
        expected: `past the threshold ${w.threshold}`,
        fix: `${w.fix}; or bundle without --strict`,
      })),
    },
  );
}
