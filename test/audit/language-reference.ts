/**
 * FROZEN COPY (test oracle) of src/audit/language.ts before its tokenizer became a scan: the
 * linear languageShare must give what this gives. Never imported by src/.
 *
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
 * sentence is long enough, else by the response's Latin text as a whole when that has 40 letters
 * or more, else not at all (`und-Latn`).
 */
import { franc } from 'franc';
import * as OpenCC from 'opencc-js';

/** The shipped packs written in Latin script (manifests/languages: scripts [Latn]). */
const LATIN_PROMPTS = new Set(['en', 'pt']);

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
interface Unit {
  script: Script;
  text: string;
  /** Latin/Cyrillic word starting with a capital or all caps. */
  proper: boolean;
}

const TOKEN =
  /(\p{Script=Han})|([\p{Script=Hiragana}\p{Script=Katakana}ー])|(\p{Script=Hangul})|(\p{Script=Latin}+(?:['’-]\p{Script=Latin}+)*)|(\p{Script=Cyrillic}+)/gu;

function units(sentence: string): Unit[] {
  const out: Unit[] = [];
  for (const m of sentence.matchAll(TOKEN)) {
    const script: Script = m[1]
      ? 'Han'
      : m[2]
        ? 'Kana'
        : m[3]
          ? 'Hangul'
          : m[4]
            ? 'Latin'
            : 'Cyrillic';
    const text = m[0];
    const proper = (script === 'Latin' || script === 'Cyrillic') && /^\p{Lu}/u.test(text);
    out.push({ script, text, proper });
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
function hanScriptCounts(text: string): { simp: number; trad: number } {
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
function normalizeLang(tag: string): string {
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
export function referenceLanguageShare(response: string, promptLang: string): LanguageShare {
  const counts: Record<string, number> = {};
  const add = (lang: string, n: number): void => {
    if (n > 0) counts[lang] = (counts[lang] ?? 0) + n;
  };
  const { simp, trad } = hanScriptCounts(response);
  const hanLang = simp > trad ? 'zh' : trad > simp ? 'zh-Hant' : 'zh-*';
  const sents = sentences(response).map(units);
  const allLatin = sents
    .flatMap((u) => u.filter((x) => x.script === 'Latin').map((x) => x.text))
    .join(' ');
  // as for a sentence: too few letters for franc to name the language
  const docLatin =
    (allLatin.replace(/\s/g, '').length >= MIN_LATIN_LETTERS ? identifyLatin(allLatin) : null) ??
    'und-Latn';

  for (const us of sents) {
    const cjk = us.filter((u) => u.script !== 'Latin' && u.script !== 'Cyrillic').length;
    const alpha = us.length - cjk;
    const cjkSentence = cjk >= alpha;
    // A sentence mostly in another word script (Cyrillic): capitalised Latin words are names.
    const latinUnits = us.filter((u) => u.script === 'Latin').length;
    const latinNames = !cjkSentence && latinUnits < us.length - latinUnits;
    const kana = us.some((u) => u.script === 'Kana');
    let latinLang = docLatin;
    const latinText = us
      .filter((u) => u.script === 'Latin')
      .map((u) => u.text)
      .join(' ');
    if (latinText.replace(/\s/g, '').length >= MIN_LATIN_LETTERS)
      latinLang = identifyLatin(latinText) ?? docLatin;
    // CJK runs of at most four characters inside a Latin sentence are proper nouns.
    const shortCjk = new Set<number>();
    if (!cjkSentence) {
      let start = -1;
      for (let i = 0; i <= us.length; i++) {
        const isCjk = i < us.length && us[i]!.script !== 'Latin' && us[i]!.script !== 'Cyrillic';
        if (isCjk && start < 0) start = i;
        if (!isCjk && start >= 0) {
          if (i - start <= 4) for (let j = start; j < i; j++) shortCjk.add(j);
          start = -1;
        }
      }
    }
    us.forEach((u, i) => {
      if (cjkSentence && u.proper) return;
      if (latinNames && u.script === 'Latin' && u.proper) return;
      if (shortCjk.has(i)) return;
      if (u.script === 'Latin') add(latinLang, 1);
      else if (u.script === 'Cyrillic') add('ru', 1);
      else if (u.script === 'Hangul') add('ko', 1);
      else if (u.script === 'Kana' || kana) add('ja', 1);
      else add(hanLang, 1);
    });
  }
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  if (total === 0) return { units: counts, primary: null, share: null, consistent: null };
  const want = normalizeLang(promptLang);
  // Only unnamed Latin words, for a prompt in a Latin-script language: D5 cannot tell.
  if (LATIN_PROMPTS.has(want) && Object.keys(counts).every((l) => l === 'und-Latn'))
    return { units: counts, primary: 'und-Latn', share: null, consistent: null };
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
