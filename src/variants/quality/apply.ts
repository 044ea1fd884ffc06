/** Attach the quality warnings to a run's entry records (computed and reused alike). */
import type { EntryRecord, VariantsLock } from '../lock.js';
import type { QualityThresholds } from '../recipe.js';
import { entryWarnings } from './warnings.js';

/**
 * Set (or clear) `warnings` on every variant record of `records` from its metrics and the
 * thresholds; returns the lock's `quality` block.
 */
export function applyWarnings(
  records: EntryRecord[],
  thresholds: QualityThresholds,
): NonNullable<VariantsLock['quality']> {
  let warnings = 0;
  let warned = 0;
  for (const entry of records) {
    const found = entryWarnings(entry.variants, thresholds);
    if (found.size > 0) warned++;
    for (const v of entry.variants) {
      delete v.warnings;
      const list = found.get(v.code);
      if (list) {
        v.warnings = list;
        warnings += list.length;
      }
    }
  }
  return { thresholds, warnings, entries_warned: warned };
}
