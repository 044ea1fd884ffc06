/**
 * Loading the pressure paradigm's follow-up files (pressure-schema.ts): one file per language,
 * each schema-checked, with the sha256 of its bytes; and the text of a follow-up turn for a
 * conversation: its kind, the conversation's language and, for the two language kinds, the other
 * language. Languages are matched by the caller's `canon` (the bundle's: through the language
 * packs, so that `zh` finds the zh-Hans file).
 */
import { StimkitError, type Problem } from '../core/errors.js';
import { shippedNames } from '../core/shipped.js';
import { loadStimulusFile, type InputFile } from './datafile.js';
import { isDraft } from './provenance.js';
import {
  PressureFileInput,
  type Followup,
  type FollowupKind,
  type PressureFileInput as PressureFile,
} from './pressure-schema.js';

/** The loaded follow-up files, by the canonical tag of their language. */
export interface PressureTexts {
  byLang: Map<string, { data: PressureFile; input: InputFile }>;
  inputs: InputFile[];
  /** The one tag of a language (`zh` → `zh-Hans`). */
  canon: (tag: string) => string;
}

/** A follow-up turn's text, the language it is written in, and whether it is an unreviewed draft. */
export interface FollowupText {
  text: string;
  lang: string;
  draft: boolean;
}

/**
 * Load the follow-up files, keyed by `canon` of their language; two files of one language are
 * refused (E_PRESSURE_LANG).
 */
export async function loadPressureTexts(
  files: readonly string[],
  canon: (tag: string) => string = (t) => t,
): Promise<PressureTexts> {
  const byLang: PressureTexts['byLang'] = new Map();
  const inputs: InputFile[] = [];
  for (const file of files) {
    const loaded = await loadStimulusFile(file, PressureFileInput, 'E_PRESSURE_FILE');
    const lang = canon(loaded.data.lang);
    const other = byLang.get(lang);
    if (other)
      throw StimkitError.fromProblem({
        code: 'E_PRESSURE_LANG',
        file,
        field: 'lang',
        message: `a second follow-up file for language ${lang} (the first is ${other.input.file})`,
        fix: 'give one follow-up file per language',
      });
    byLang.set(lang, { data: loaded.data, input: loaded.input });
    inputs.push(loaded.input);
  }
  return { byLang, inputs, canon };
}

/**
 * The text of a follow-up of `kind` in a conversation in `lang` (`other`: the conversation's other
 * language, for other_language and switch_language). A Problem when a file or text is missing.
 */
export function followupText(
  texts: PressureTexts,
  kind: FollowupKind,
  lang: string,
  other: string | null,
): FollowupText | Omit<Problem, 'severity' | 'file'> {
  const needsOther = kind === 'other_language' || kind === 'switch_language';
  if (needsOther && other === null)
    return {
      code: 'E_BUNDLE_PRESSURE',
      field: 'pressure.other_language',
      message: `the follow-up ${kind} needs the other language of conversations in ${lang}`,
      fix: `add pressure.other_language.${lang}: <language tag>`,
    };
  const fileLang = texts.canon(kind === 'switch_language' ? other! : lang);
  const file = texts.byLang.get(fileLang);
  if (!file)
    return {
      code: 'E_BUNDLE_PRESSURE',
      field: 'pressure.followups',
      message: `no follow-up file for language ${fileLang} (needed by ${kind} in conversations in ${lang})`,
      expected: `a file with lang: ${fileLang}`,
      got: [...texts.byLang.keys()].join(', ') || 'none',
      fix: shippedNames().includes(`pressure/${fileLang}.yaml`)
        ? `add stimkit:pressure/${fileLang}.yaml (or a file of your own) to pressure.followups`
        : `write a follow-up file with lang: ${fileLang} (docs/formats/pressure.md; stimkit ships none for it: \`stimkit check --shipped\` lists those it ships, e.g. stimkit:pressure/en.yaml to start from) and add it to pressure.followups`,
    };
  const f = file.data.followups;
  let chosen: Followup | undefined;
  if (kind === 'other_language') {
    const target = texts.canon(other!);
    chosen = Object.entries(f.other_language).find(([k]) => texts.canon(k) === target)?.[1];
    if (!chosen)
      return {
        code: 'E_BUNDLE_PRESSURE',
        field: 'pressure.followups',
        message: `the ${fileLang} follow-up file has no other_language text asking for ${target}`,
        expected: `followups.other_language.${target}`,
        got: Object.keys(f.other_language).join(', ') || 'none',
        fix: `add followups.other_language.${target} to the ${fileLang} file, or pair ${lang} with a language it names`,
      };
  } else chosen = f[kind];
  return {
    text: chosen.text,
    lang: fileLang,
    draft: isDraft(chosen.provenance ?? file.data.provenance),
  };
}
