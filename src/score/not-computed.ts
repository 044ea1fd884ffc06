/**
 * The cells left empty because a study language has no rules for them (src/languages/): counted
 * per language from each record's `parse.no_rules`, listed in score.json as `not_computed`.
 */
import type { ScoresHeader } from './format.js';
import { NO_RULES } from './outcome.js';
import type { ScoreRecord } from './types.js';

/** Per language: the columns not computed, and in how many rows. */
export type NotComputed = Map<string, { columns: Set<string>; rows: number }>;

/** Count `record`'s columns without rules, if any. */
export function countNotComputed(m: NotComputed, record: ScoreRecord): void {
  const none = record.parse.no_rules as { lang: string; columns: string[] } | undefined;
  if (!none) return;
  const n = m.get(none.lang) ?? { columns: new Set<string>(), rows: 0 };
  for (const col of none.columns) n.columns.add(col);
  n.rows += 1;
  m.set(none.lang, n);
}

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * `not_computed` of score.json: per study language without the rules some columns need, those
 * columns and how many rows leave them empty (`no_rules_for_language`); absent when none.
 */
export function notComputed(m: NotComputed): Pick<ScoresHeader['counts'], 'not_computed'> {
  if (m.size === 0) return {};
  const langs = [...m.keys()].sort(byName);
  return {
    not_computed: langs.map((lang) => ({
      lang,
      reason: NO_RULES,
      columns: [...m.get(lang)!.columns].sort(byName),
      rows: m.get(lang)!.rows,
    })),
  };
}
