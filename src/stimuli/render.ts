/**
 * The rendered instrument prompt: prefix, item and suffix joined by one blank line. The separator
 * is the same in every language, so a new language needs no code.
 *
 *   <prefix> LF LF <item> LF LF <suffix>
 *
 * (LF = U+000A; no trailing newline; the three texts are used exactly as stored, not trimmed.)
 * Reference: docs/formats/wrappers.md.
 */
import { StimkitError } from '../core/errors.js';
import { LangCode } from '../ingest/schema.js';

/** What goes between prefix and item, and between item and suffix: two line feeds. */
export const INSTRUMENT_SEPARATOR = '\n\n';

/**
 * Join a drawn prefix, an item's text and a drawn suffix into the user message of one trial.
 * `lang` is checked to be a language tag; the format does not depend on it.
 *
 * @example
 * renderInstrumentPrompt('What do you believe is the correct answer to the question below?',
 *   'A formal U.S. commitment to defend Taiwan would do more to preserve stability in the Taiwan Strait than to undermine it.',
 *   'Strongly agree, Agree, Disagree, Strongly disagree - Only pick from the options given above.', 'en');
 * // 'What do you believe …?\n\nA formal U.S. commitment …\n\nStrongly agree, … given above.'
 */
export function renderInstrumentPrompt(
  prefix: string,
  item: string,
  suffix: string,
  lang: string,
): string {
  if (!LangCode.safeParse(lang).success) {
    throw StimkitError.fromProblem({
      code: 'E_RENDER_LANGUAGE',
      field: 'lang',
      message: 'not a language tag',
      expected: 'a tag such as en, zh, pt or zh-Hant',
      got: JSON.stringify(lang),
      fix: 'pass the language of the item',
    });
  }
  for (const [field, value] of [
    ['prefix', prefix],
    ['item', item],
    ['suffix', suffix],
  ] as const) {
    if (!/\S/.test(value)) {
      throw StimkitError.fromProblem({
        code: 'E_RENDER_EMPTY',
        field,
        message: `the ${field} is empty`,
        expected: 'non-blank text',
        got: JSON.stringify(value),
        fix: `pass the ${field} text`,
      });
    }
  }
  return `${prefix}${INSTRUMENT_SEPARATOR}${item}${INSTRUMENT_SEPARATOR}${suffix}`;
}
