/**
 * What `check` and `bundle` say about a study's languages before anything is run: a language
 * without a pack, or whose pack lacks a rule some score column needs, is scored with those cells
 * empty (`no_rules_for_language`). One warning per language, naming the columns.
 */
import { closest } from '../core/suggest.js';
import { d5CanRead } from './d5.js';
import { packFor, type LoadedPack } from './load.js';
import type { LanguagePack } from './schema.js';

/** The columns of `score` that need each rule section of a pack. */
const NEEDS = {
  instrument: ['label', 'score', 'stance'],
  d1_refusal: ['d1_refusal_lexical', 'd1_refusal_lexical_reason', 'd1_said_no_lexical'],
  scripts: ['d5_language_auto', 'd5_share'],
  summary: ['d6_length_clean', 'd1_refusal_lexical'],
  headings: ['d6_length_clean', 'd1_refusal_lexical'],
} as const;

/** A plan warning (bundle/drafts.ts's shape). */
interface LanguageWarning {
  code: string;
  message: string;
}

/** The columns a trial of `kind` in a language with `pack` (null: none) cannot compute. */
function missingColumns(pack: LanguagePack | null, kind: 'instrument' | 'vlm'): string[] {
  const sections: Array<keyof typeof NEEDS> =
    kind === 'instrument' ? ['instrument'] : ['d1_refusal', 'scripts', 'summary', 'headings'];
  // D5 cannot read a Latin-script language franc does not know (d5.ts): as if without scripts.
  const lacking = sections.filter(
    (s) => !pack || pack[s] === undefined || (s === 'scripts' && !d5CanRead(pack)),
  );
  return [...new Set(lacking.flatMap((s) => NEEDS[s]))].sort();
}

/**
 * One warning per study language whose trials need rules it has no pack for (or its pack lacks).
 *
 * @example
 * languageWarnings([{ lang: 'fr', paradigm: 'instrument' }])[0].code // → 'W_NO_RULES_FOR_LANGUAGE'
 */
export function languageWarnings(
  trials: ReadonlyArray<{ lang: string; paradigm: string }>,
  own: readonly LoadedPack[] = [],
): LanguageWarning[] {
  const kinds = new Map<string, Set<'instrument' | 'vlm'>>();
  for (const t of trials) {
    const k = kinds.get(t.lang) ?? new Set();
    k.add(t.paradigm === 'instrument' ? 'instrument' : 'vlm');
    kinds.set(t.lang, k);
  }
  const out: LanguageWarning[] = [];
  for (const lang of [...kinds.keys()].sort()) {
    const pack = packFor(lang, own);
    const columns = [
      ...new Set([...kinds.get(lang)!].flatMap((k) => missingColumns(pack?.pack ?? null, k))),
    ].sort();
    if (columns.length === 0) continue;
    // A study pack no study language uses, with a tag near this one: a typo of the tag.
    const near = pack ? undefined : nearPack(lang, own, kinds);
    const why = pack
      ? `its language pack (${pack.ref}) has no rules for them`
      : near
        ? `no language pack names it; the study's pack ${near.ref} is for ${near.pack.tag}, which no study language is (did you mean tag: ${lang} in it?)`
        : 'no language pack names it';
    out.push({
      code: 'W_NO_RULES_FOR_LANGUAGE',
      message: `language ${lang}: ${columns.join(', ')} will be left empty by score (no_rules_for_language): ${why}; ${near ? `correct the tag of ${near.ref}` : 'write a pack for it (docs/formats/languages.md)'}`,
    });
  }
  return out;
}

/** The study's own pack whose tag is nearest `lang`, among those no study language uses. */
function nearPack(
  lang: string,
  own: readonly LoadedPack[],
  used: ReadonlyMap<string, unknown>,
): LoadedPack | undefined {
  const unused = own.filter((p) => ![...used.keys()].some((l) => packFor(l, [p]) === p));
  const tag = closest(
    lang.toLowerCase(),
    unused.map((p) => p.pack.tag.toLowerCase()),
  );
  return tag === undefined ? undefined : unused.find((p) => p.pack.tag.toLowerCase() === tag);
}
