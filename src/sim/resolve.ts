/**
 * Resolving the parameter shapes of the `sim:` block to the number that applies to one trial:
 * per topic × language fields, rates per language and per sensitivity × language, per-paradigm
 * coverage, and categorical weights.
 */
import type { CellField, LangRate, SensLangRate } from './schema.js';

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** value(topic, lang) = cells["topic/lang"] ?? default + by_topic[topic] + by_lang[lang], clamped. */
export function cellValue(
  field: CellField,
  topic: string,
  lang: string,
  lo = -Infinity,
  hi = Infinity,
): number {
  if (typeof field === 'number') return clamp(field, lo, hi);
  const cell = field.cells[`${topic}/${lang}`];
  if (cell !== undefined) return clamp(cell, lo, hi);
  return clamp(field.default + (field.by_topic[topic] ?? 0) + (field.by_lang[lang] ?? 0), lo, hi);
}

/** A rate for a language: the number, or the language's entry, else `default`, else 0. */
export function langRate(rate: LangRate, lang: string): number {
  if (typeof rate === 'number') return rate;
  return rate[lang] ?? rate.default ?? 0;
}

/** A rate for a sensitivity × language. */
export function sensLangRate(
  rate: SensLangRate,
  sensitivity: 'high' | 'low',
  lang: string,
): number {
  return langRate(rate[sensitivity], lang);
}

/** Normalized weights from one name or a `{name: weight}` map, in `names` order. */
export function weightsOf<K extends string>(
  spec: K | Partial<Record<K, number>>,
  names: readonly K[],
): Array<[K, number]> {
  const raw: Array<[K, number]> =
    typeof spec === 'string' ? [[spec, 1]] : names.map((n) => [n, spec[n] ?? 0]);
  const total = raw.reduce((s, [, w]) => s + w, 0);
  if (!(total > 0)) throw new Error(`weights ${JSON.stringify(spec)} have no positive weight`);
  return raw.filter(([, w]) => w > 0).map(([k, w]) => [k, w / total]);
}
