/**
 * The deterministic reading of D2 (information integrity): which of an entry's expected facts a
 * text states, by the fact's own wording or one of its aliases in the trial's language (the
 * entries format: `expected_facts[].<lang>` and `aliases.<lang>`, "other wordings a scorer should
 * accept"). Texts are compared as the narrative-marker screen compares them (NFKC, lower case,
 * white space collapsed), by substring search: linear in the text. It is a baseline beside the
 * judge's D2, and the same reading on the answer and on the reasoning, so the two can be compared.
 */
import { normalizeForMarkers } from './lexical.js';

/** An expected fact as the bundle holds it: its id, its text per language and aliases per language. */
export interface ExpectedFact {
  id: string;
  [key: string]: unknown;
}

/** Which facts a text states, or why that cannot be told. */
export type FactReading =
  | { covered: string[]; checked: number; reason: null }
  | { covered: null; checked: 0; reason: 'no_expected_facts' | 'no_facts_in_language' };

/** The wordings of `fact` in `lang`, normalized: its text and aliases (empty ones dropped). */
function wordingsOf(fact: ExpectedFact, lang: string): string[] {
  const aliases = (fact.aliases as Record<string, unknown> | undefined)?.[lang];
  // the entries format keeps texts under language keys; an older shape under `text`
  const own = (fact.text as Record<string, unknown> | undefined)?.[lang] ?? fact[lang];
  const all: unknown[] = [own, ...(Array.isArray(aliases) ? (aliases as unknown[]) : [])];
  return all
    .filter((w): w is string => typeof w === 'string')
    .map(normalizeForMarkers)
    .filter((w) => w.trim() !== '');
}

/** The checkable facts of an entry in `lang`, with their normalized wordings. */
function factWordings(
  facts: readonly ExpectedFact[],
  lang: string,
): Array<{ id: string; wordings: string[] }> {
  return facts
    .map((f) => ({ id: f.id, wordings: wordingsOf(f, lang) }))
    .filter((f) => f.wordings.length > 0);
}

/**
 * The expected facts `text` states (in fact order): a fact is covered when any of its wordings in
 * `lang` occurs in the text. Null with a reason when the entry has no facts, or none in `lang`.
 *
 * @example
 * factCoverage('It is a Falcon 9.', 'en', [{ id: 'f9', en: 'A SpaceX Falcon 9', aliases: { en: ['Falcon 9'] } }])
 * // → { covered: ['f9'], checked: 1, reason: null }
 */
export function factCoverage(
  text: string,
  lang: string,
  facts: readonly ExpectedFact[],
): FactReading {
  if (facts.length === 0) return { covered: null, checked: 0, reason: 'no_expected_facts' };
  const checkable = factWordings(facts, lang);
  if (checkable.length === 0) return { covered: null, checked: 0, reason: 'no_facts_in_language' };
  const norm = normalizeForMarkers(text);
  const covered = checkable
    .filter((f) => f.wordings.some((w) => norm.includes(w)))
    .map((f) => f.id);
  return { covered, checked: checkable.length, reason: null };
}
