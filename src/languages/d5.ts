/**
 * What D5 (language consistency) can read of a language from its pack: Latin-script words are
 * named by franc, which knows eleven languages, so a language written in Latin script outside them
 * cannot be told apart from those (its words would count for one of them): D5 is not computed for
 * it. src/audit/language.ts counts the units; `check` and `bundle` warn (warnings.ts).
 */
import type { LanguagePack } from './schema.js';

/** The Latin-script languages franc chooses among (ISO 639-3 → the study's tags). */
export const FRANC_LATIN: Readonly<Record<string, string>> = {
  eng: 'en',
  por: 'pt',
  spa: 'es',
  fra: 'fr',
  deu: 'de',
  ita: 'it',
  nld: 'nl',
  ind: 'id',
  vie: 'vi',
  tur: 'tr',
  pol: 'pl',
};

const FRANC_TAGS: ReadonlySet<string> = new Set(Object.values(FRANC_LATIN));

/** Whether D5 can tell the pack's language: not when it is written in Latin script franc cannot name. */
export function d5CanRead(pack: LanguagePack): boolean {
  return !pack.scripts.includes('Latn') || FRANC_TAGS.has(pack.tag.toLowerCase().split('-')[0]!);
}
