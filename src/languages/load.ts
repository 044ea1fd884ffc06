/**
 * Language packs: the shipped ones (`manifests/languages/<tag>.yaml`, named
 * `stimkit:languages/<tag>.yaml`) and a user's own by path, read synchronously (scorers prepare
 * without awaiting) and checked against the zod schema, every problem at once.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { lineOf, parseDataText, zodProblems, type ParsedDataFile } from '../core/datafile.js';
import { StimkitError, type Problem } from '../core/errors.js';
import { sha256 } from '../core/fsio.js';
import { SHIPPED_DIR } from '../core/shipped.js';
import { nonLinearReason } from './linear.js';
import { LanguagePackSchema, type LanguagePack } from './schema.js';

/** The folder of shipped packs. */
const PACKS_DIR = path.join(SHIPPED_DIR, 'languages');

/** A pack as read: its rules, where it came from and the sha256 of its bytes. */
export interface LoadedPack {
  pack: LanguagePack;
  /** `stimkit:languages/<tag>.yaml` for a shipped pack, else the path given. */
  ref: string;
  sha256: string;
}

const CODE = 'E_LANGUAGE_PACK';

/** A D1 cue's problem: where it is, and what is wrong with it. */
function cueProblem(
  parsed: ParsedDataFile,
  where: [string, string, number],
  p: Pick<Problem, 'message' | 'expected' | 'fix'>,
  got: string,
): Problem {
  return {
    code: CODE,
    severity: 'error',
    file: parsed.file,
    line: lineOf(parsed, where),
    field: `${where[0]}.${where[1]}[${where[2]}]`,
    got,
    ...p,
  };
}

/**
 * Each D1 cue must compile as a regular expression with the `iu` flags, and be linear
 * (linear.ts): it runs over model text, which may be made to stall a backtracking one.
 */
function patternProblems(parsed: ParsedDataFile, pack: LanguagePack): Problem[] {
  const problems: Problem[] = [];
  for (const [cls, list] of Object.entries(pack.d1_refusal ?? {}))
    list.forEach((p, i) => {
      const where: [string, string, number] = ['d1_refusal', cls, i];
      try {
        new RegExp(p, 'iu');
      } catch (err) {
        problems.push(
          cueProblem(
            parsed,
            where,
            {
              message: `not a regular expression: ${(err as Error).message}`,
              expected: 'a JavaScript regular expression (flags iu)',
              fix: 'escape the special characters, or write the cue as plain words',
            },
            p,
          ),
        );
        return;
      }
      const why = nonLinearReason(p);
      if (why)
        problems.push(
          cueProblem(
            parsed,
            where,
            {
              message: `the cue can take super-linear time on model text: ${why}`,
              expected:
                'a linear cue: literal words, alternatives, character classes and bounded repeats; no backreferences, lookarounds or repeats that can take the same characters',
              fix: 'write the cue as words and alternatives (e.g. `cannot (?:identify|tell)`), bound the repeat (`\\s{1,3}`), or split it into several cues',
            },
            p,
          ),
        );
    });
  return problems;
}

/**
 * Check the text of a pack (`file` for messages, `ref` for the record): the schema, then each
 * cue; every problem at once (E_LANGUAGE_PACK).
 */
export function packFromText(file: string, text: string, ref = file): LoadedPack {
  const parsed = parseDataText(file, text, CODE);
  const result = LanguagePackSchema.safeParse(parsed.value);
  const problems = result.success
    ? patternProblems(parsed, result.data)
    : zodProblems(parsed, result.error, CODE, LanguagePackSchema);
  if (!result.success || problems.length > 0)
    throw new StimkitError(CODE, `${file}: ${problems.length} problem(s) in the language pack`, {
      fix: 'correct each field listed below (docs/formats/languages.md describes the format)',
      problems,
    });
  return { pack: result.data, ref, sha256: sha256(text) };
}

/** Read and check the pack in `file`. */
export function readLanguagePack(file: string, ref = file): LoadedPack {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw StimkitError.fromProblem(
      {
        code: CODE,
        file,
        message: `cannot read the language pack: ${(err as Error).message}`,
        fix: 'give the path of a stimkit.language file (or stimkit:languages/<tag>.yaml)',
      },
      err,
    );
  }
  return packFromText(file, text, ref);
}

/** The file names of the shipped packs, in order. */
const packFiles = (): string[] =>
  readdirSync(PACKS_DIR)
    .filter((n) => n.endsWith('.yaml'))
    .sort();

let shipped: LoadedPack[] | undefined;

/** Every shipped pack, by file name. */
export function shippedPacks(): LoadedPack[] {
  shipped ??= packFiles().map((n) =>
    readLanguagePack(path.join(PACKS_DIR, n), `stimkit:languages/${n}`),
  );
  return shipped;
}

/** Whether `pack` is the one for study language `tag` (its tag or an alias, any case). */
function names(pack: LanguagePack, tag: string): boolean {
  const t = tag.toLowerCase();
  return pack.tag.toLowerCase() === t || pack.aliases.some((a) => a.toLowerCase() === t);
}

/**
 * The pack for study language `tag`: among `own` (the study's packs by path) first, then the
 * shipped ones; null when none names it.
 *
 * @example
 * packFor('zh')?.pack.tag // → 'zh-Hans'
 */
export function packFor(tag: string, own: readonly LoadedPack[] = []): LoadedPack | null {
  return [...own, ...shippedPacks()].find((p) => names(p.pack, tag)) ?? null;
}

let digests: Record<string, string> | undefined;

/**
 * The sha256 of every shipped pack, by reference: what a scorer's parameters record. The same
 * sha256 as `shippedPacks()` gives, of the text alone: scorers build their parameters when
 * their module loads, and checking every pack (the schema, each cue's linearity) is left to the
 * first use of a pack.
 */
export function packDigests(): Record<string, string> {
  digests ??= Object.fromEntries(
    packFiles().map((n) => [
      `stimkit:languages/${n}`,
      sha256(readFileSync(path.join(PACKS_DIR, n), 'utf8')),
    ]),
  );
  return { ...digests };
}

/** The shipped packs' tags, for messages. */
export function shippedTags(): string {
  return shippedPacks()
    .map((p) => p.pack.tag)
    .join(', ');
}

/** How a pack compares text: its Unicode normalization, and whether joiners are ignored. */
export interface MatchForm {
  normalization: 'NFC' | 'NFKC';
  ignoreJoiners: boolean;
}

/** ZERO WIDTH NON-JOINER and ZERO WIDTH JOINER: dropped for matching when a pack ignores them. */
const JOINERS = /[\u200c\u200d]/g;

/** `s` normalized for matching as `form` says (before lower case and any further mapping). */
export function matchForm(s: string, form: MatchForm): string {
  // typographic single quotes as the ASCII apostrophe: "I can’t help" is "I can't help" to every
  // cue (word processors and many models write ’; the packs' cues are written with ')
  const t = s.normalize(form.normalization).replace(QUOTES, "'");
  return form.ignoreJoiners ? t.replace(JOINERS, '') : t;
}

/** LEFT and RIGHT SINGLE QUOTATION MARK (not U+02BC, a letter in some orthographies). */
const QUOTES = /[\u2018\u2019]/g;

/** `chars` escaped for a character class of a regular expression built from a pack. */
export function classChars(chars: readonly string[]): string {
  return chars.map((c) => c.replace(/[\\\]^-]/g, '\\$&')).join('');
}
