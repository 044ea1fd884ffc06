/**
 * D5 language consistency, measured rather than judged: the share of a response written in the
 * prompt's language, by script and by language identification. Consistent when that share is
 * over 70 % (the audit paper's Appendix E, item 5; Appendix F: "occasional proper nouns in
 * another language, e.g. 'Twitter' in a Chinese answer, do not count as switching").
 *
 * Units: a Han, kana or Hangul character is one unit, a word in any other script is one unit (a
 * Chinese word is one to two characters, an English word five letters; counting letters would let
 * one English name outweigh a Chinese clause; a Tibetan syllable is a unit). Proper nouns in a
 * minority script of a sentence do not count for either side: capitalised or all-caps Latin words
 * inside a CJK sentence or a sentence mostly in another script (Russian, Uyghur, Tibetan), and
 * CJK runs of at most four characters inside a Latin sentence. The prompt language's pack says
 * which scripts it is written in (`scripts`): units in those count for it.
 *
 * Languages: kana in a sentence makes its CJK units Japanese; Han text is Simplified (`zh`) or
 * Traditional (`zh-Hant`) by which script-specific characters dominate the response (OpenCC
 * character tables, opencc-js); Han text with no script-specific character matches either. Latin
 * text is identified with franc (trigram language identification, Node ESM) per sentence when the
 * sentence is long enough, else by the response's Latin text as a whole.
 */
import { franc } from 'franc';
import * as OpenCC from 'opencc-js';
import { isWordScript, scanUnits, type Script, type SentenceUnits } from './language-units.js';
import { d5CanRead, FRANC_LATIN } from '../languages/d5.js';
import { packFor, type LoadedPack } from '../languages/load.js';

/** The threshold of Appendix E: the primary language must exceed 70 %. */
const D5_THRESHOLD = 0.7;

/**
 * The code units of a text franc reads: franc 6 identifies `value.slice(0, 2048)` (its
 * `MAX_LENGTH`), so a text and its prefix of this length get the same answer, and the Latin words
 * of a long reply are joined only that far (test/audit/language-linear.test.ts holds franc to it).
 */
export const FRANC_READS = 2048;

/** Letters franc needs before its answer is trusted for one sentence. */
const MIN_LATIN_LETTERS = 40;

/** The result of D5 for one response. */
export interface LanguageShare {
  /** Units counted per language tag (`zh`, `zh-Hant`, `ja`, `ko`, `en`, `pt`, …; `zh-*` = Han without script-specific characters, `und-Latn` = unidentified Latin, `ru` = Cyrillic). */
  units: Record<string, number>;
  /** The language with most units, or null for a response with no letters. */
  primary: string | null;
  /** Share of the units in the prompt's language (Han without script-specific characters counts for zh and zh-Hant). */
  share: number | null;
  /** share > 0.7; null when the response has no letters (e.g. empty). */
  consistent: boolean | null;
}

/**
 * opencc-js's `Converter`, typed: its published types/full.d.ts imports './core' without the
 * extension that Node's ESM resolution needs, so TypeScript sees its types as unresolved.
 */
const makeConverter = OpenCC.Converter as unknown as (options: {
  from: string;
  to: string;
}) => (text: string) => string;

let toTrad: ((s: string) => string) | undefined;
let toSimp: ((s: string) => string) | undefined;

/** 1 for a Han character that exists only in Simplified script, 2 only in Traditional, else 0. */
const hanSeen = new Map<number, 0 | 1 | 2>();

function hanKind(cp: number): 0 | 1 | 2 {
  let k = hanSeen.get(cp);
  if (k === undefined) {
    const t = (toTrad ??= makeConverter({ from: 'cn', to: 't' }));
    const s = (toSimp ??= makeConverter({ from: 't', to: 'cn' }));
    const c = String.fromCodePoint(cp);
    k = t(c) !== c ? 1 : s(c) !== c ? 2 : 0;
    hanSeen.set(cp, k);
  }
  return k;
}

/** franc's answer among the Latin-script languages, as a study tag, or null. */
function identifyLatin(text: string): string | null {
  const code = franc(text, { only: Object.keys(FRANC_LATIN), minLength: 10 });
  return FRANC_LATIN[code] ?? null;
}

/** The study tag family: zh-Hans → zh, zh-CN → zh, zh-TW/zh-HK → zh-Hant; others their primary subtag. */
export function normalizeLang(tag: string): string {
  const t = tag.toLowerCase();
  if (
    t === 'zh-hant' ||
    t === 'zh-tw' ||
    t === 'zh-hk' ||
    t === 'zh-mo' ||
    t.startsWith('zh-hant-')
  )
    return 'zh-Hant';
  if (t.startsWith('zh')) return 'zh';
  return t.split('-')[0]!;
}

/**
 * The units of one sentence counted per language: Latin words under the sentence's own
 * identification (null: the response's, known only at the end), Han characters under the
 * response's Han script (likewise known only at the end, so counted apart).
 */
function countSentence(
  us: SentenceUnits,
  tally: Tally,
  own: ReadonlySet<Script>,
  want: string,
): void {
  const isCjk = (i: number) => !isWordScript(us.script(i));
  let cjk = 0;
  let latinUnits = 0;
  for (let i = 0; i < us.n; i++)
    if (isCjk(i)) cjk++;
    else if (us.script(i) === 'Latin') latinUnits++;
  const cjkSentence = cjk >= us.n - cjk;
  // Mostly another word script (Cyrillic, Arabic, Tibetan …): capitalised Latin words are names.
  const latinNames = !cjkSentence && latinUnits < us.n - latinUnits;
  // Latin words hold no white space: their letters are the joined text's non-blank characters.
  const latinLang =
    us.letters >= MIN_LATIN_LETTERS ? identifyLatin(us.latinText(FRANC_READS)) : null;
  const n = { latin: 0, ru: 0, ko: 0, ja: 0, han: 0 };
  const other = new Map<string, number>();
  let start = -1;
  for (let i = 0; i <= us.n; i++) {
    if (i < us.n && isCjk(i)) {
      if (start < 0) start = i;
      continue;
    }
    // CJK runs of at most four characters inside a Latin sentence are proper nouns.
    if (start >= 0 && (cjkSentence || i - start > 4))
      for (let j = start; j < i; j++) {
        const script = us.script(j);
        if (script === 'Hangul') n.ko++;
        else if (script === 'Kana' || us.kana) n.ja++;
        else n.han++;
      }
    start = -1;
    if (i === us.n || (cjkSentence && us.proper(i))) continue;
    const script = us.script(i);
    if (script === 'Latin') {
      if (!(latinNames && us.proper(i))) n.latin++;
    } else if (script === 'Cyrillic' && !own.has(script)) n.ru++;
    else {
      const lang = own.has(script) ? want : `und-${script}`;
      other.set(lang, (other.get(lang) ?? 0) + 1);
    }
  }
  for (const [lang, k] of other) tally.add(lang, k);
  tally.add(latinLang ?? DOC_LATIN, n.latin);
  tally.add('ru', n.ru);
  tally.add('ko', n.ko);
  tally.add('ja', n.ja);
  tally.add(HAN, n.han);
}

/** Stand-ins for the languages known only at the end: the response's Latin and its Han script. */
const DOC_LATIN = '\0latin';
const HAN = '\0han';

/** Units counted per language. */
class Tally {
  readonly counts: Record<string, number> = {};
  add(lang: string, n: number): void {
    if (n > 0) this.counts[lang] = (this.counts[lang] ?? 0) + n;
  }
  /** `stand-in`'s units counted under `lang`. */
  settle(standIn: string, lang: string): void {
    const n = this.counts[standIn] ?? 0;
    delete this.counts[standIn];
    this.add(lang, n);
  }
}

/**
 * The scripts of a pack whose units count for its language under their own tag: every script but
 * the five D5 names itself (Latin by franc, Han by its characters, kana, Hangul; Cyrillic counts
 * as `ru` unless the pack is written in it).
 */
function ownScripts(codes: readonly string[]): ReadonlySet<Script> {
  return new Set(
    codes
      .filter(
        (c) =>
          !['Latn', 'Hans', 'Hant', 'Hani', 'Jpan', 'Hira', 'Kana', 'Kore', 'Hang'].includes(c),
      )
      .map((c) => (c === 'Cyrl' ? 'Cyrillic' : c)),
  );
}

/**
 * D5 as a score column: `languageShare`, or null when the prompt language has no pack (D5 is then
 * not computed: `no_rules_for_language`).
 */
export function d5Share(
  response: string,
  promptLang: string,
  own: readonly LoadedPack[] = [],
): LanguageShare | null {
  const pack = packFor(promptLang, own)?.pack;
  // A language written in Latin script that franc does not know (Catalan, Swahili, Serbian in
  // Latin…): its words would be named as one franc knows, so D5 cannot tell it.
  return pack && d5CanRead(pack) ? languageShare(response, promptLang, own) : null;
}

/**
 * The language shares of one response to a prompt in `promptLang`, the units of the scripts of its
 * language pack counting for it (without a pack, only Latin, Han, kana, Hangul and Cyrillic units
 * are named by language; other scripts' units are `und-<script>`).
 *
 * @example
 * languageShare('照片右下角有Reuters的标志。', 'zh').consistent // → true (a proper noun does not flip it)
 */
export function languageShare(
  response: string,
  promptLang: string,
  own: readonly LoadedPack[] = [],
): LanguageShare {
  const pack = packFor(promptLang, own)?.pack;
  // The pack's own tag: an alias names its pack's language (yue-Hant-HK of zh-Hant-HK).
  const want = normalizeLang(pack?.tag ?? promptLang);
  const scripts = ownScripts(pack?.scripts ?? []);
  const han = new Set(pack?.scripts.filter((c) => c === 'Hans' || c === 'Hant' || c === 'Hani'));
  const tally = new Tally();
  const kinds = [0, 0, 0];
  const latin = scanUnits(
    response,
    {
      sentence: (us) => countSentence(us, tally, scripts, want),
      han: (cp) => kinds[hanKind(cp)]!++,
    },
    FRANC_READS,
  );
  // As for one sentence: fewer than MIN_LATIN_LETTERS letters are too few for franc ("A rocket
  // launch." reads as French), so they stay unidentified rather than named wrongly.
  const letters = latin.replace(/\s/g, '').length; // the words' letters, as a sentence's
  tally.settle(
    DOC_LATIN,
    (letters >= MIN_LATIN_LETTERS ? identifyLatin(latin) : null) ?? 'und-Latn',
  );
  tally.settle(HAN, kinds[1]! > kinds[2]! ? 'zh' : kinds[2]! > kinds[1]! ? 'zh-Hant' : 'zh-*');
  const counts = tally.counts;
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  if (total === 0) return { units: counts, primary: null, share: null, consistent: null };
  // Latin words franc cannot name (a reply of a few words: "A coffee.") may be in the prompt's
  // Latin-script language or not: D5 cannot tell, so it is empty, never 0 (primary `und-Latn`).
  if (pack?.scripts.includes('Latn') && Object.keys(counts).every((l) => l === 'und-Latn'))
    return { units: counts, primary: 'und-Latn', share: null, consistent: null };
  // Han characters count for Chinese by their form, and for another language written in Han
  // (Cantonese, a study's own) in the forms its pack names (Hans, Hant; Hani: either).
  const hanMatches = (lang: string): boolean => {
    if (want === 'zh' || want === 'zh-Hant') return lang === 'zh-*';
    if (lang === 'zh-*') return han.size > 0;
    if (lang === 'zh') return han.has('Hans') || han.has('Hani');
    return lang === 'zh-Hant' && (han.has('Hant') || han.has('Hani'));
  };
  const matching = (lang: string): boolean => lang === want || hanMatches(lang);
  const inLang = Object.entries(counts)
    .filter(([l]) => matching(l))
    .reduce((a, [, n]) => a + n, 0);
  const primary = Object.entries(counts).sort(
    (a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1),
  )[0]![0];
  const share = inLang / total;
  return { units: sortKeys(counts), primary, share, consistent: share > D5_THRESHOLD };
}

function sortKeys(o: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
}
