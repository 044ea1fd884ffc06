/**
 * Small pieces of markup the rater app and the viewer share: the `<head>` links, the JSON data
 * block a page's script reads, and the `lang` of a text written by a model.
 */
import { languageShare, normalizeLang } from '../audit/language.js';
import { html, trusted, type Html } from '../core/html.js';
import { scriptsOf, textDirection } from '../languages/lang-tag.js';
import type { LoadedPack } from '../languages/load.js';

/** The style sheet and the icon, as files (the Content-Security-Policy allows nothing inline). */
export const HEAD_LINKS: Html = html`<link rel="stylesheet" href="/static/app.css"><link rel="icon" href="/favicon.svg" type="image/svg+xml">`;

/** The `lang` of a page in interface language `ui` (`zh-Hans` for zh: the fonts' script). */
export const pageLang = (ui: string): string => (ui === 'zh' ? 'zh-Hans' : ui);

/**
 * A JSON data block for the page's script (`<script type="application/json">`: not run, so the
 * Content-Security-Policy allows it). `<`, `>`, `&`, U+2028 and U+2029 are written as \u escapes:
 * no value can end the element.
 */
export function jsonData(id: string, value: unknown): Html {
  const text = JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return html`<script type="application/json" id="${id}">${trusted(text)}</script>`;
}

const NON_LATIN = new Set(['zh', 'zh-Hant', 'ja', 'ko', 'ru']);

/** Whether two language tags are written in different scripts (Latin vs. Han, kana, Hangul, Cyrillic). */
export const otherScript = (a: string, b: string): boolean =>
  NON_LATIN.has(normalizeLang(a)) !== NON_LATIN.has(normalizeLang(b));

/** Scripts a model's text is counted in to tell whether it left its study language's script. */
const TEXT_SCRIPTS = [
  'Latn',
  'Hani',
  'Cyrl',
  'Arab',
  'Tibt',
  'Hang',
  'Kana',
  'Hira',
  'Grek',
  'Hebr',
  'Deva',
  'Thai',
];
/** Scripts written without spaces between words: counted by letter; the others by word. */
const BY_LETTER = new Set(['Hani', 'Kana', 'Hira', 'Tibt', 'Thai']);
const SCRIPT_RES = new Map(
  TEXT_SCRIPTS.map((s) => [
    s,
    BY_LETTER.has(s)
      ? new RegExp(`(?=\\p{L})\\p{Script=${s}}`, 'gu')
      : new RegExp(`\\p{Script=${s}}[\\p{Script=${s}}\\p{M}]*`, 'gu'),
  ]),
);

/** The scripts a language's text counts in (Han for Hans and Hant; Japanese and Korean mixes). */
function countedScripts(tag: string, own: readonly LoadedPack[]): Set<string> {
  const out = new Set<string>();
  for (const s of scriptsOf(tag, own)) {
    if (s === 'Hans' || s === 'Hant' || s === 'Hani') out.add('Hani');
    else if (s === 'Jpan') ['Hani', 'Hira', 'Kana'].forEach((x) => out.add(x));
    else if (s === 'Kore') ['Hani', 'Hang'].forEach((x) => out.add(x));
    else out.add(s);
  }
  return out;
}

/**
 * The script most of a text is in (among TEXT_SCRIPTS; words, or letters in scripts without spaces,
 * so that a brand name in Latin letters does not outweigh a Chinese or Tibetan answer), or null
 * when it has no letters.
 */
function dominantScript(text: string): string | null {
  let best: string | null = null;
  let most = 0;
  for (const [s, re] of SCRIPT_RES) {
    const n = text.match(re)?.length ?? 0;
    if (n > most) [best, most] = [s, n];
  }
  return best;
}

/** The language of a model's text, as `textLang` tells it. */
export interface TextLang {
  lang: string;
  dir: 'ltr' | 'rtl' | 'auto';
  /** True when the text left its study language's script and its language is a guess. */
  guessed: boolean;
}

/**
 * The language of a text a model wrote in answer to a prompt in `studyLang`: the study language
 * while most of its letters are in that language's script (or it has none), so no language is
 * guessed for it (an English answer is never called French by a guess); only when most are in
 * another script (the model drifted) is its language guessed — the D5 measure's `primary` when
 * that is written in the script, else `und-<script>` — and `guessed` says so. `packs`: the study's
 * own language packs, read before the shipped ones.
 *
 * @example
 * textLang('The image shows a cat.', 'zh') // → { lang: 'en', dir: 'ltr', guessed: true }
 */
export function textLang(
  text: string,
  studyLang: string,
  packs: readonly LoadedPack[] = [],
): TextLang {
  const own = { lang: studyLang, dir: textDirection(studyLang, packs), guessed: false };
  const script = dominantScript(text);
  if (script === null || countedScripts(studyLang, packs).has(script)) return own;
  const primary = languageShare(text, studyLang, packs).primary;
  const tag = primary === 'zh-*' ? 'zh' : primary;
  const lang = tag && countedScripts(tag, packs).has(script) ? tag : `und-${script}`;
  return { lang, dir: textDirection(lang, packs), guessed: true };
}

/** ` lang dir` of a model's text, and `data-lang-guessed` when its language is a guess. */
export function textLangAttrs(t: TextLang): Html {
  return html` lang="${t.lang}" dir="${t.dir}"${t.guessed ? html` data-lang-guessed="true"` : null}`;
}

/** A model's text in a `<pre>` with its `lang` and `dir`, flagged when its language is a guess. */
export function modelText(
  text: string,
  studyLang: string,
  shown: string,
  packs: readonly LoadedPack[] = [],
): Html {
  const t = textLang(text, studyLang, packs);
  return html`<pre class="verbatim"${textLangAttrs(t)}>${shown}</pre>${guessNote(t, `language guessed: not in ${studyLang}`)}`;
}

/** The visible flag under a model's text whose language is a guess (`note` says so), or null. */
export function guessNote(t: TextLang, note: string): Html | null {
  return t.guessed ? html`<p class="meta lang-guess">${note} (<bdi>${t.lang}</bdi>)</p>` : null;
}
