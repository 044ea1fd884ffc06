/**
 * The checks of one prompt card's texts: a text in every language the file must cover, slots
 * that parse and match the card's vars, a provenance for each, and no language the file does not
 * declare.
 */
import type { ParsedDataFile } from '../core/datafile.js';
import type { Problem } from '../core/errors.js';
import { problemAt } from './datafile.js';
import type { PromptCardInput, PromptsFileInput } from './prompts-schema.js';
import type { TextProvenance } from './provenance.js';
import { parseTemplate, slotNames } from './template.js';

/** Push E_PROMPTS_UNDECLARED_LANGUAGE for each language of `card` (text or provenance) this file does not declare. */
function checkCardLanguages(
  parsed: ParsedDataFile,
  name: string,
  card: PromptCardInput,
  data: PromptsFileInput,
  langs: string[],
  problems: Problem[],
): void {
  const at = ['paradigms', name];
  for (const lang of new Set([...Object.keys(card.text), ...Object.keys(card.provenance ?? {})])) {
    if (!langs.includes(lang) && !Object.keys(data.languages).includes(lang)) {
      problems.push(
        problemAt(parsed, [...at, card.text[lang] !== undefined ? 'text' : 'provenance', lang], {
          code: 'E_PROMPTS_UNDECLARED_LANGUAGE',
          entry: name,
          message: `language ${lang} is not declared in this file's languages`,
          expected: langs.join(', '),
          got: lang,
          fix: `declare ${lang} under languages or remove it`,
        }),
      );
    }
  }
}

/** Check one card's texts in `langs` against its vars; return text and provenance per language. */
export function checkTexts(
  parsed: ParsedDataFile,
  name: string,
  card: PromptCardInput,
  vars: string[],
  data: PromptsFileInput,
  problems: Problem[],
  langs: string[] = Object.keys(data.languages),
) {
  const at = ['paradigms', name];
  const text: Record<string, string> = {};
  const provenance: Record<string, TextProvenance> = {};
  for (const lang of langs) {
    const t = card.text[lang];
    if (t === undefined) {
      problems.push(
        problemAt(parsed, [...at, 'text'], {
          code: 'E_PROMPTS_MISSING_LANGUAGE',
          entry: name,
          message: `paradigm ${name} has no ${lang} text`,
          expected: langs.join(', '),
          got: Object.keys(card.text).join(', ') || 'none',
          fix: `add text.${lang}`,
        }),
      );
      continue;
    }
    const parsedText = parseTemplate(t);
    if (!parsedText.ok) {
      problems.push(
        problemAt(parsed, [...at, 'text', lang], {
          code: 'E_PROMPTS_TEMPLATE_SYNTAX',
          entry: name,
          message: parsedText.message,
          fix: 'braces are reserved for slots such as {subject}',
        }),
      );
      continue;
    }
    const used = slotNames(parsedText.segments);
    const undeclared = used.filter((v) => !vars.includes(v));
    const unused = vars.filter((v) => !used.includes(v));
    if (undeclared.length > 0 || unused.length > 0) {
      problems.push(
        problemAt(parsed, [...at, 'text', lang], {
          code: 'E_PROMPTS_VARS',
          entry: name,
          message:
            undeclared.length > 0
              ? `slot(s) ${undeclared.map((v) => `{${v}}`).join(', ')} not declared in vars`
              : `declared var(s) ${unused.join(', ')} not used in the ${lang} text`,
          expected: vars.length > 0 ? vars.map((v) => `{${v}}`).join(', ') : 'no slots',
          got: used.length > 0 ? used.map((v) => `{${v}}`).join(', ') : 'no slots',
          fix: 'use the same slots in every language and list them under vars',
        }),
      );
    }
    text[lang] = t;
    const own = card.provenance?.[lang] ?? data.languages[lang]?.provenance;
    if (own) provenance[lang] = own;
    else
      problems.push(
        problemAt(parsed, [...at, 'text', lang], {
          code: 'E_PROMPTS_EXTENDS',
          entry: name,
          message: `paradigm ${name} adds a ${lang} text, but this file does not say where its ${lang} texts come from`,
          fix: `declare ${lang} under languages with the provenance of the texts this file adds (e.g. status: authored)`,
        }),
      );
  }
  checkCardLanguages(parsed, name, card, data, langs, problems);
  return { text, provenance };
}
