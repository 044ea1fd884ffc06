/**
 * Prompt cards: loading (schema, every paradigm in every language, slots declared and used
 * consistently, `extends` for new languages) and rendering one card with its slots filled.
 */
import path from 'node:path';
import type { ParsedDataFile } from '../core/datafile.js';
import { StimkitError, type Problem } from '../core/errors.js';
import {
  loadExtendsChain,
  problemAt,
  throwIfProblems,
  type InputFile,
  type LoadedFile,
} from './datafile.js';
import type { TextProvenance } from './provenance.js';
import {
  PROMPTS_FORMAT,
  PROMPTS_VERSION,
  PromptsFileInput,
  type PromptCardInput,
} from './prompts-schema.js';
import { fillTemplate, parseTemplate, slotNames, type Segment } from './template.js';

/** One paradigm's card, resolved. */
export interface PromptCard {
  paradigm: string;
  description: string | null;
  image: boolean;
  vars: string[];
  text: Record<string, string>;
  provenance: Record<string, TextProvenance>;
}

/** Loaded, validated prompt cards (with the `extends` chain merged). */
export interface PromptCards {
  format: typeof PROMPTS_FORMAT;
  version: typeof PROMPTS_VERSION;
  /** Every language, base file first. */
  languages: string[];
  paradigms: Record<string, PromptCard>;
  /** The files read, base first, with the sha256 of their bytes. */
  inputs: InputFile[];
}

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
function checkTexts(
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

/**
 * Fold one file onto its base (null for a base file). An extending file adds languages (every
 * card then needs a text in each) and cards (a text in every language, the base's included; a
 * base language it lists under `languages` gives the provenance of the texts it adds). It never
 * replaces a base text.
 */
// eslint-disable-next-line max-lines-per-function -- not yet split by phase (see docs/DESIGN.md, layout)
function build(
  { data, parsed, input }: LoadedFile<PromptsFileInput>,
  base: PromptCards | null,
): PromptCards {
  const problems: Problem[] = [];
  const paradigms: Record<string, PromptCard> = { ...base?.paradigms };
  const langs = Object.keys(data.languages).filter((l) => !base?.languages.includes(l));
  const all = [...(base?.languages ?? []), ...langs];
  for (const [name, card] of Object.entries(data.paradigms)) {
    const at = ['paradigms', name];
    const prev = base?.paradigms[name];
    if (base && !prev) {
      // A new card: declared in full, with a text in every language of the chain.
      if (card.image === undefined)
        problems.push(
          problemAt(parsed, at, {
            code: 'E_PROMPTS_MISSING_FIELD',
            field: `paradigms.${name}.image`,
            message: `paradigm ${name} does not say whether it shows an image`,
            fix: 'add image: true or image: false',
          }),
        );
      const vars = card.vars ?? [];
      const { text, provenance } = checkTexts(parsed, name, card, vars, data, problems, all);
      paradigms[name] = {
        paradigm: name,
        description: card.description ?? null,
        image: card.image ?? false,
        vars,
        text,
        provenance,
      };
      continue;
    }
    if (base) {
      for (const lang of Object.keys(card.text)) {
        if (base.languages.includes(lang))
          problems.push(
            problemAt(parsed, [...at, 'text', lang], {
              code: 'E_PROMPTS_EXTENDS',
              entry: name,
              message: `paradigm ${name} already has its ${lang} text in the base file`,
              fix: 'an extending file adds languages and cards; fix the base text in the base file',
            }),
          );
      }
      for (const f of ['image', 'vars', 'description'] as const) {
        if (card[f] !== undefined)
          problems.push(
            problemAt(parsed, [...at, f], {
              code: 'E_PROMPTS_EXTENDS',
              message: `paradigm ${name} inherits ${f} from ${path.basename(data.extends!)}`,
              fix: `remove ${f}`,
            }),
          );
      }
    } else if (card.image === undefined) {
      problems.push(
        problemAt(parsed, at, {
          code: 'E_PROMPTS_MISSING_FIELD',
          field: `paradigms.${name}.image`,
          message: `paradigm ${name} does not say whether it shows an image`,
          fix: 'add image: true or image: false',
        }),
      );
    }
    const vars = prev?.vars ?? card.vars ?? [];
    const { text, provenance } = checkTexts(
      parsed,
      name,
      base
        ? {
            ...card,
            text: Object.fromEntries(
              Object.entries(card.text).filter(([l]) => !base.languages.includes(l)),
            ),
          }
        : card,
      vars,
      data,
      problems,
      base ? langs : undefined,
    );
    paradigms[name] = prev
      ? {
          ...prev,
          text: { ...prev.text, ...text },
          provenance: { ...prev.provenance, ...provenance },
        }
      : {
          paradigm: name,
          description: card.description ?? null,
          image: card.image ?? false,
          vars,
          text,
          provenance,
        };
  }
  if (base && langs.length === 0 && Object.keys(data.paradigms).every((n) => base.paradigms[n])) {
    problems.push(
      problemAt(parsed, ['languages'], {
        code: 'E_PROMPTS_EXTENDS',
        message: 'this file adds neither a language nor a card',
        fix: 'add a language (with every card in it) or a new card (in every language)',
      }),
    );
  }
  for (const name of langs.length > 0 ? Object.keys(base?.paradigms ?? {}) : []) {
    if (!data.paradigms[name])
      problems.push(
        problemAt(parsed, ['paradigms'], {
          code: 'E_PROMPTS_MISSING_LANGUAGE',
          entry: name,
          message: `paradigm ${name} of the base file has no ${langs.join(', ')} text`,
          fix: `add paradigms.${name}.text`,
        }),
      );
  }
  throwIfProblems('E_PROMPTS_INVALID', parsed.file, 'prompts file', problems);
  return {
    format: PROMPTS_FORMAT,
    version: PROMPTS_VERSION,
    languages: all,
    paradigms,
    inputs: [...(base?.inputs ?? []), input],
  };
}

/**
 * Load a prompt-cards file and validate it. Throws a StimkitError listing every problem (codes
 * `E_PROMPTS_*`) with file, line and field.
 */
export async function loadPromptCards(file: string): Promise<PromptCards> {
  return loadExtendsChain(file, PromptsFileInput, 'E_PROMPTS', build);
}

/**
 * The prompt of `paradigm` in `lang` with its slots filled from `vars` (extra vars are ignored).
 *
 * @example
 * renderPromptCard(cards, 'comment-text', 'zh', { subject: '诺贝尔和平奖得主刘晓波' }); // '请介绍诺贝尔和平奖得主刘晓波。'
 */
export function renderPromptCard(
  cards: PromptCards,
  paradigm: string,
  lang: string,
  vars: { subject?: string } & Record<string, string | undefined> = {},
): string {
  const fail = (
    code: string,
    field: string,
    message: string,
    expected: string,
    got: string,
    fix: string,
  ) =>
    StimkitError.fromProblem({
      code,
      file: cards.inputs[cards.inputs.length - 1]?.file,
      field,
      message,
      expected,
      got,
      fix,
    });
  const card = cards.paradigms[paradigm];
  if (!card)
    throw fail(
      'E_PROMPTS_UNKNOWN_PARADIGM',
      'paradigm',
      `no prompt card for paradigm ${paradigm}`,
      `one of ${Object.keys(cards.paradigms).join(', ')}`,
      paradigm,
      'use a paradigm of the prompt cards, or add its card',
    );
  const text = card.text[lang];
  if (text === undefined)
    throw fail(
      'E_PROMPTS_NO_LANGUAGE',
      `paradigms.${paradigm}.text`,
      `no ${lang} prompt`,
      `one of ${Object.keys(card.text).join(', ')}`,
      lang,
      `add ${lang} (a file that extends the cards is enough)`,
    );
  const parsed = parseTemplate(text);
  const segments: Segment[] = parsed.ok ? parsed.segments : [{ kind: 'text', text }];
  for (const v of card.vars) {
    const value = vars[v];
    if (value === undefined || !/\S/.test(value)) {
      throw fail(
        'E_PROMPTS_MISSING_VAR',
        v,
        `paradigm ${paradigm} needs {${v}}`,
        `a non-blank ${v}`,
        JSON.stringify(value ?? null),
        `pass ${v} (for comment-text: the entry's anchor name in ${lang})`,
      );
    }
  }
  return fillTemplate(segments, (name) => vars[name]);
}
