/**
 * Small pieces of markup the rater app and the viewer share: the `<head>` links, the JSON data
 * block a page's script reads, and the `lang` of a text written by a model.
 */
import { languageShare, normalizeLang } from '../audit/language.js';
import { html, trusted, type Html } from '../core/html.js';

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

/**
 * The language tag for a text a model wrote in answer to a prompt in `promptLang`: the language
 * most of it is in (the D5 measure's `primary`), so that screen readers and fonts pick the right
 * one even when the model switched languages; `promptLang` when the text is in that language or
 * has no letters, `und` when its language cannot be told.
 *
 * @example
 * textLang('The image shows a cat.', 'zh') // → 'en'
 */
export function textLang(text: string, promptLang: string): string {
  const primary = languageShare(text, promptLang).primary;
  const want = normalizeLang(promptLang);
  if (primary === null || primary === want) return promptLang;
  if (primary === 'zh-*') return want === 'zh' || want === 'zh-Hant' ? promptLang : 'zh';
  if (primary === 'und-Latn') return NON_LATIN.has(want) ? 'und' : promptLang;
  return primary;
}
