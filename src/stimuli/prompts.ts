/**
 * Prompt cards: loading (schema, every paradigm in every language, slots declared and used
 * consistently, `extends` for new languages) and rendering one card with its slots filled.
 */
import type { ParsedDataFile } from '../core/datafile.js';
import { StimkitError, type Problem } from '../core/errors.js';
import {
  extendsList,
  extendsNames,
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
import { checkTexts } from './prompt-texts.js';
import { fillTemplate, parseTemplate, type Segment } from './template.js';

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

/** The file being folded onto its base, and what every phase of `build` reads. */
interface Fold {
  parsed: ParsedDataFile;
  data: PromptsFileInput;
  /** The languages this file adds (those its base does not have). */
  langs: string[];
  /** Every language of the chain, base first. */
  all: string[];
  problems: Problem[];
}

/** Push E_PROMPTS_MISSING_FIELD if `card` does not say whether it shows an image. */
function checkImageFlag(f: Fold, name: string, card: PromptCardInput): void {
  if (card.image === undefined)
    f.problems.push(
      problemAt(f.parsed, ['paradigms', name], {
        code: 'E_PROMPTS_MISSING_FIELD',
        field: `paradigms.${name}.image`,
        message: `paradigm ${name} does not say whether it shows an image`,
        fix: 'add image: true or image: false',
      }),
    );
}

/** A card declared in full (a base file's, or one new in an extending file): every language. */
function declaredCard(f: Fold, name: string, card: PromptCardInput): PromptCard {
  checkImageFlag(f, name, card);
  const vars = card.vars ?? [];
  const { text, provenance } = checkTexts(f.parsed, name, card, vars, f.data, f.problems, f.all);
  return {
    paradigm: name,
    description: card.description ?? null,
    image: card.image ?? false,
    vars,
    text,
    provenance,
  };
}

/** Push E_PROMPTS_EXTENDS for each base text and setting an extending file sets on a base card. */
function checkNoOverrides(f: Fold, base: PromptCards, name: string, card: PromptCardInput): void {
  const at = ['paradigms', name];
  for (const lang of Object.keys(card.text)) {
    if (base.languages.includes(lang))
      f.problems.push(
        problemAt(f.parsed, [...at, 'text', lang], {
          code: 'E_PROMPTS_EXTENDS',
          entry: name,
          message: `paradigm ${name} already has its ${lang} text in the base file`,
          fix: 'an extending file adds languages and cards; fix the base text in the base file',
        }),
      );
  }
  for (const field of ['image', 'vars', 'description'] as const) {
    if (card[field] !== undefined)
      f.problems.push(
        problemAt(f.parsed, [...at, field], {
          code: 'E_PROMPTS_EXTENDS',
          message: `paradigm ${name} inherits ${field} from ${extendsNames(f.data.extends)}`,
          fix: `remove ${field}`,
        }),
      );
  }
}

/** A base card with the texts of the languages this file adds (never a base text or setting). */
function extendedCard(
  f: Fold,
  base: PromptCards,
  name: string,
  card: PromptCardInput,
  prev: PromptCard,
): PromptCard {
  checkNoOverrides(f, base, name, card);
  const added = {
    ...card,
    text: Object.fromEntries(
      Object.entries(card.text).filter(([l]) => !base.languages.includes(l)),
    ),
  };
  const { text, provenance } = checkTexts(
    f.parsed,
    name,
    added,
    prev.vars,
    f.data,
    f.problems,
    f.langs,
  );
  return {
    ...prev,
    text: { ...prev.text, ...text },
    provenance: { ...prev.provenance, ...provenance },
  };
}

/**
 * Push E_PROMPTS_EXTENDS if an extending file adds nothing (and combines no files), and E_PROMPTS_MISSING_LANGUAGE for
 * each base card it leaves without a text in the languages it adds.
 */
function checkAdditions(f: Fold, base: PromptCards): void {
  const { data, langs } = f;
  const adds = langs.length > 0 || Object.keys(data.paradigms).some((n) => !base.paradigms[n]);
  if (!adds && extendsList(data.extends).length < 2) {
    f.problems.push(
      problemAt(f.parsed, ['languages'], {
        code: 'E_PROMPTS_EXTENDS',
        message: 'this file adds neither a language nor a card',
        fix: 'add a language (with every card in it) or a new card (in every language)',
      }),
    );
  }
  for (const name of langs.length > 0 ? Object.keys(base.paradigms) : []) {
    if (!data.paradigms[name])
      f.problems.push(
        problemAt(f.parsed, ['paradigms'], {
          code: 'E_PROMPTS_MISSING_LANGUAGE',
          entry: name,
          message: `paradigm ${name} of the base file has no ${langs.join(', ')} text`,
          fix: `add paradigms.${name}.text`,
        }),
      );
  }
}

/**
 * Fold one file onto its base (null for a base file). An extending file adds languages (every
 * card then needs a text in each) and cards (a text in every language, the base's included; a
 * base language it lists under `languages` gives the provenance of the texts it adds). It never
 * replaces a base text.
 */
function build(
  { data, parsed, input }: LoadedFile<PromptsFileInput>,
  base: PromptCards | null,
): PromptCards {
  const langs = Object.keys(data.languages).filter((l) => !base?.languages.includes(l));
  const f: Fold = {
    parsed,
    data,
    langs,
    all: [...(base?.languages ?? []), ...langs],
    problems: [],
  };
  const paradigms: Record<string, PromptCard> = { ...base?.paradigms };
  for (const [name, card] of Object.entries(data.paradigms)) {
    const prev = base?.paradigms[name];
    paradigms[name] =
      base && prev ? extendedCard(f, base, name, card, prev) : declaredCard(f, name, card);
  }
  if (base) checkAdditions(f, base);
  throwIfProblems('E_PROMPTS_INVALID', parsed.file, 'prompts file', f.problems);
  return {
    format: PROMPTS_FORMAT,
    version: PROMPTS_VERSION,
    languages: f.all,
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
