/**
 * A study's own language packs (`language_packs` of the study): read and checked when the study
 * is planned (so `stimkit check` of the study validates them), sealed byte for byte in the bag as
 * `data/languages/<tag>.yaml`, and read back from there by every stage after `bundle`, so the
 * rules a bundle is scored with are the sealed ones, not the working copy. Only a study that names
 * packs gets them in its bag: a study without them seals the same bytes as before.
 */
import { readFileSync } from 'node:fs';
import { lineOf } from '../core/datafile.js';
import { StimkitError, type Problem } from '../core/errors.js';
import { isShippedRef, recordedRef } from '../core/shipped.js';
import { packFromText, type LoadedPack } from '../languages/load.js';
import type { LoadedStudy } from '../study/load.js';

/** A study pack as read: the loaded pack and its file's text (sealed as is). */
export interface StudyPack extends LoadedPack {
  text: string;
}

/** The payload path (under `data/`) of a sealed pack of tag `tag`. */
export function packPayloadPath(tag: string): string {
  return `languages/${tag}.yaml`;
}

/** The tags a pack answers to, lower case. */
const tagsOf = (p: LoadedPack) => [p.pack.tag, ...p.pack.aliases].map((t) => t.toLowerCase());

/**
 * The study's own packs, in study order. A pack that cannot be read or is invalid throws its
 * problems (E_LANGUAGE_PACK, naming the pack's file, field and line); two packs answering to one
 * tag are refused (E_STUDY_LANGUAGE_PACKS, at the study's line).
 */
export function loadStudyPacks(loaded: LoadedStudy): StudyPack[] {
  const refs = loaded.study.language_packs ?? [];
  const packs = refs.map((ref): StudyPack => {
    const file = loaded.resolve(ref);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw StimkitError.fromProblem(
        {
          code: 'E_LANGUAGE_PACK',
          file: loaded.file,
          field: `language_packs[${refs.indexOf(ref)}]`,
          line: lineOf(loaded.parsed, ['language_packs', refs.indexOf(ref)]),
          message: `cannot read the language pack ${ref}: ${(err as Error).message}`,
          fix: 'give the path of a stimkit.language file, relative to the study file (or stimkit:languages/<tag>.yaml)',
        },
        err,
      );
    }
    // a shipped pack keeps its stimkit: name (no install folder in messages)
    const named = isShippedRef(ref) ? ref : recordedRef(loaded.dir, file);
    return { ...packFromText(file, text, named), text };
  });
  const problems = duplicateTags(loaded, packs);
  if (problems.length > 0)
    throw new StimkitError(
      'E_STUDY_LANGUAGE_PACKS',
      `${loaded.file}: ${problems.length} language pack(s) answer to a tag another one does`,
      { fix: 'keep one pack per language in language_packs', problems },
    );
  return packs;
}

/** A problem for each pack whose tag or an alias an earlier pack of the list answers to. */
function duplicateTags(loaded: LoadedStudy, packs: readonly LoadedPack[]): Problem[] {
  const seen = new Map<string, number>();
  const problems: Problem[] = [];
  packs.forEach((p, i) => {
    const clash = tagsOf(p).find((t) => seen.has(t));
    if (clash !== undefined)
      problems.push({
        code: 'E_STUDY_LANGUAGE_PACKS',
        severity: 'error',
        file: loaded.file,
        field: `language_packs[${i}]`,
        line: lineOf(loaded.parsed, ['language_packs', i]),
        message: `${p.ref} answers to ${clash}, as language_packs[${seen.get(clash)}] does`,
        expected: 'one pack per language (tag and aliases)',
        got: `${clash} twice`,
        fix: `drop one of the two packs, or remove ${clash} from one pack's aliases`,
      });
    for (const t of tagsOf(p)) if (!seen.has(t)) seen.set(t, i);
  });
  return problems;
}
