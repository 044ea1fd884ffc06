/**
 * D5 language consistency, measured rather than judged: the share of a response written in the
 * prompt's language, by script and by language identification. Consistent when that share is
 * over 70 % (the audit paper's Appendix E, item 5; Appendix F: "occasional proper nouns in
 * another language, e.g. 'Twitter' in a Chinese answer, do not count as switching").
 *
 * Units: a Han, kana or Hangul character is one unit, a Latin or Cyrillic word is one unit (a
 * Chinese word is one to two characters, an English word five letters; counting letters would let
 * one English name outweigh a Chinese clause). Proper nouns in a minority script of a sentence do
 * not count for either side: capitalised or all-caps Latin words inside a CJK sentence, and CJK
 * runs of at most four characters inside a Latin sentence.
 *
 * Languages: kana in a sentence makes its CJK units Japanese; Han text is Simplified (`zh`) or
 * Traditional (`zh-Hant`) by which script-specific characters dominate the response (OpenCC
 * character tables, opencc-js); Han text with no script-specific character matches either. Latin
 * text is identified with franc (trigram language identification, Node ESM) per sentence when the
 * sentence is long enough, else by the response's Latin text as a whole.
 */
import { franc } from 'franc';
import * as OpenCC from 'opencc-js';

/** The threshold of Appendix E: the primary language must exceed 70 %. */
const D5_THRESHOLD = 0.7;

/** Latin-script languages franc chooses among (ISO 639-3 → the study's tags). */
const LATIN_LANGS: Record<string, string> = {
  eng: 'en',
  por: 'pt',
  spa: 'es',
  fra: 'fr',
  deu: 'de',
  ita: 'it',
  nld: 'nl',
  ind: 'id',
  vie: 'vi',
  tur: 'tr',
  pol: 'pl',
};
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

type Script = 'Han' | 'Kana' | 'Hangul' | 'Latin' | 'Cyrillic';

/**
 * The units of a sentence, in order: their scripts, whether each is a proper noun (a Latin or
 * Cyrillic word starting with a capital), and the Latin words' text. Arrays rather than one
 * object per unit: a 4 MiB reply has a million words.
 */
interface Units {
  script: Script[];
  proper: boolean[];
  latin: string[];
}

/** The scripts a unit can be in, tried in this order (ー, Common, counts as kana). */
const SCRIPT_TESTS: ReadonlyArray<[Script, RegExp]> = [
  ['Han', /\p{Script=Han}/u],
  ['Kana', /[\p{Script=Hiragana}\p{Script=Katakana}ー]/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
];
const scriptSeen = new Map<number, Script | null>();
const upperSeen = new Map<number, boolean>();

/** The script of a code point among SCRIPT_TESTS, or null (ASCII letters are Latin). */
function scriptOf(cp: number): Script | null {
  if (cp < 0x80) return (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) ? 'Latin' : null;
  let s = scriptSeen.get(cp);
  if (s === undefined) {
    const ch = String.fromCodePoint(cp);
    s = SCRIPT_TESTS.find(([, re]) => re.test(ch))?.[0] ?? null;
    scriptSeen.set(cp, s);
  }
  return s;
}

/** `\p{Lu}`: an upper-case letter. */
function isUpper(cp: number): boolean {
  if (cp < 0x80) return cp >= 0x41 && cp <= 0x5a;
  let u = upperSeen.get(cp);
  if (u === undefined) {
    u = /\p{Lu}/u.test(String.fromCodePoint(cp));
    upperSeen.set(cp, u);
  }
  return u;
}

/** The end of the run of `script` code points from `from`. */
function runEnd(s: string, from: number, script: Script): number {
  let i = from;
  while (i < s.length) {
    const cp = s.codePointAt(i)!;
    if (scriptOf(cp) !== script) break;
    i += cp > 0xffff ? 2 : 1;
  }
  return i;
}

/**
 * The units of a sentence: what `/(\p{Script=Han})|([\p{Script=Hiragana}\p{Script=Katakana}ー])|
 * (\p{Script=Hangul})|(\p{Script=Latin}+(?:['’-]\p{Script=Latin}+)*)|(\p{Script=Cyrillic}+)/gu`
 * matches (one Han, kana or Hangul character; a Latin word, inner apostrophes and hyphens
 * included; a Cyrillic word), read in one scan.
 */
function units(sentence: string): Units {
  const out: Units = { script: [], proper: [], latin: [] };
  let i = 0;
  while (i < sentence.length) {
    const cp = sentence.codePointAt(i)!;
    const script = scriptOf(cp);
    let end = i + (cp > 0xffff ? 2 : 1);
    if (script === 'Cyrillic') end = runEnd(sentence, end, script);
    if (script === 'Latin') {
      end = runEnd(sentence, end, script);
      for (
        let j;
        "'’-".includes(sentence[end] ?? 'x') && (j = runEnd(sentence, end + 1, script)) > end + 1;
      )
        end = j;
      out.latin.push(sentence.slice(i, end));
    }
    if (script !== null) {
      out.script.push(script);
      out.proper.push((script === 'Latin' || script === 'Cyrillic') && isUpper(cp));
    }
    i = end;
  }
  return out;
}

/** Sentences: split after sentence-ending punctuation and at line breaks. */
function sentences(text: string): string[] {
  return text.split(/(?<=[.!?。！？;；])\s*|\n+/u).filter((s) => s.trim().length > 0);
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

/** Han characters of `text` that exist only in Simplified (`simp`) or only in Traditional (`trad`) script. */
export function hanScriptCounts(text: string): { simp: number; trad: number } {
  const t = (toTrad ??= makeConverter({ from: 'cn', to: 't' }));
  const s = (toSimp ??= makeConverter({ from: 't', to: 'cn' }));
  let simp = 0;
  let trad = 0;
  for (const m of text.matchAll(/\p{Script=Han}/gu)) {
    const c = m[0];
    if (t(c) !== c) simp++;
    else if (s(c) !== c) trad++;
  }
  return { simp, trad };
}

/** franc's answer among the Latin-script languages, as a study tag, or null. */
function identifyLatin(text: string): string | null {
  const code = franc(text, { only: Object.keys(LATIN_LANGS), minLength: 10 });
  return LATIN_LANGS[code] ?? null;
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
 * D5 for one response to a prompt in `promptLang`.
 *
 * @example
 * languageShare('照片右下角有Reuters的标志。', 'zh').consistent // → true (a proper noun does not flip it)
 */
export function languageShare(response: string, promptLang: string): LanguageShare {
  const counts: Record<string, number> = {};
  const add = (lang: string, n: number): void => {
    if (n > 0) counts[lang] = (counts[lang] ?? 0) + n;
  };
  const { simp, trad } = hanScriptCounts(response);
  const hanLang = simp > trad ? 'zh' : trad > simp ? 'zh-Hant' : 'zh-*';
  const sents = sentences(response).map(units);
  const allLatin = sents.flatMap((u) => u.latin).join(' ');
  const docLatin = identifyLatin(allLatin) ?? 'und-Latn';

  for (const us of sents) {
    const isCjk = (i: number) => us.script[i] !== 'Latin' && us.script[i] !== 'Cyrillic';
    const cjk = us.script.filter((_, i) => isCjk(i)).length;
    const alpha = us.script.length - cjk;
    const cjkSentence = cjk >= alpha;
    const kana = us.script.includes('Kana');
    let latinLang = docLatin;
    // Latin words hold no white space: their letters are the joined text's non-blank characters.
    if (us.latin.reduce((n, w) => n + w.length, 0) >= MIN_LATIN_LETTERS)
      latinLang = identifyLatin(us.latin.join(' ')) ?? docLatin;
    // CJK runs of at most four characters inside a Latin sentence are proper nouns.
    const shortCjk = new Set<number>();
    if (!cjkSentence) {
      let start = -1;
      for (let i = 0; i <= us.script.length; i++) {
        const cjkHere = i < us.script.length && isCjk(i);
        if (cjkHere && start < 0) start = i;
        if (!cjkHere && start >= 0) {
          if (i - start <= 4) for (let j = start; j < i; j++) shortCjk.add(j);
          start = -1;
        }
      }
    }
    us.script.forEach((script, i) => {
      if (cjkSentence && us.proper[i]) return;
      if (shortCjk.has(i)) return;
      if (script === 'Latin') add(latinLang, 1);
      else if (script === 'Cyrillic') add('ru', 1);
      else if (script === 'Hangul') add('ko', 1);
      else if (script === 'Kana' || kana) add('ja', 1);
      else add(hanLang, 1);
    });
  }
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  if (total === 0) return { units: counts, primary: null, share: null, consistent: null };
  const want = normalizeLang(promptLang);
  const matching = (lang: string): boolean =>
    lang === want || (lang === 'zh-*' && (want === 'zh' || want === 'zh-Hant'));
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
