/**
 * The measures of an answer's text that follow its language's rules (src/languages/): D1's
 * lexical refusal, D5 by script, D6's cleaned length and the short-response baseline. A language
 * without a pack, or whose pack lacks a rule, gets those cells empty and named in `no_rules`
 * (`no_rules_for_language`), never 0 or false.
 */
import { responseLengths, scaffoldRulesFor } from './clean.js';
import { d5Share } from './language.js';
import { detectRefusal, detectShort, refusalRules, screenMarkers } from './lexical.js';
import type { AuditParse } from './label.js';
import type { LoadedPack } from '../languages/load.js';

/** The columns each rule feeds. */
const COLUMNS = {
  d1: ['d1_refusal_lexical', 'd1_refusal_lexical_reason', 'd1_said_no_lexical'],
  d5: ['d5_language_auto', 'd5_share'],
  d6: ['d6_length_clean'],
} as const;

/** D1 lexical, D5 and D6 of one answer's text in study language `lang`. */
export function textMeasures(
  text: string,
  lang: string,
  markers: Record<string, readonly string[]> | undefined,
  own: readonly LoadedPack[] = [],
): Pick<AuditParse, 'd6' | 'd5_auto' | 'lexical' | 'no_rules'> {
  const scaffold = scaffoldRulesFor(lang, own);
  // The refusal detector also needs the cleaned length (a refusal is short).
  const d1 = scaffold ? refusalRules(lang, own) : null;
  const lex = d1 ? detectRefusal(text, d1, scaffold!) : null;
  const d5 = d5Share(text, lang, own);
  const missing = [
    ...(d1 ? [] : COLUMNS.d1),
    ...(d5 ? [] : COLUMNS.d5),
    ...(scaffold ? [] : COLUMNS.d6),
  ];
  return {
    d6: responseLengths(text, scaffold),
    d5_auto: d5 ? { consistent: d5.consistent, share: d5.share, primary: d5.primary } : null,
    lexical: {
      refused: lex ? lex.refused : null,
      reason: lex ? lex.reason : null,
      markers: screenMarkers(text, markers).markers.map((m) => m.marker),
      short: scaffold ? detectShort(text, undefined, scaffold) : null,
    },
    ...(missing.length > 0 ? { no_rules: { lang, columns: missing } } : {}),
  };
}
