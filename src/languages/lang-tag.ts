/**
 * What a language tag says about writing: its script(s) (ISO 15924) and its direction. Every page
 * that shows corpus, prompt or response text takes `lang` and `dir` from here, so that one place
 * decides: the language's pack when it has one (`own`: a study's packs, read before the shipped
 * ones; `scripts`, `direction`), else CLDR's likely
 * subtags through `Intl.Locale`.
 */
import { html, type Html } from '../core/html.js';
import { packFor, type LoadedPack } from './load.js';

/**
 * Scripts written right to left (ISO 15924). (`Intl.Locale`'s text info is not used: Node 20 says
 * `ltr` for `und-Arab`.)
 */
const RTL_SCRIPTS = new Set([
  'Adlm',
  'Arab',
  'Hebr',
  'Mand',
  'Mend',
  'Nkoo',
  'Rohg',
  'Samr',
  'Syrc',
  'Thaa',
  'Yezi',
]);

/** `new Intl.Locale(tag)`, or null for a tag Intl cannot read. */
function locale(tag: string): Intl.Locale | null {
  try {
    return new Intl.Locale(tag);
  } catch {
    return null;
  }
}

/**
 * The script(s) a language is written in (ISO 15924): the tag's own script subtag, else the likely
 * one (CLDR, `Intl.Locale.maximize`). Empty for an undetermined tag.
 *
 * @example
 * scriptsOf('ug') // ['Arab']; scriptsOf('zh-TW') // ['Hant']; scriptsOf('bo') // ['Tibt']
 */
export function scriptsOf(tag: string, own: readonly LoadedPack[] = []): string[] {
  const pack = packFor(tag, own)?.pack;
  if (pack) return [...pack.scripts];
  const l = locale(tag);
  if (!l) return [];
  if (!l.language || l.language === 'und') return l.script ? [l.script] : [];
  const script = l.maximize().script;
  return script ? [script] : [];
}

/**
 * The direction of text in a language: `rtl` for a right-to-left script (Uyghur, Arabic, Hebrew
 * …), else `ltr`; `auto` for an undetermined tag (`und`), whose direction the text itself tells.
 *
 * @example
 * textDirection('ug') // 'rtl'; textDirection('bo') // 'ltr'; textDirection('und') // 'auto'
 */
export function textDirection(
  tag: string,
  own: readonly LoadedPack[] = [],
): 'ltr' | 'rtl' | 'auto' {
  const pack = packFor(tag, own)?.pack;
  if (pack) return pack.direction;
  const scripts = scriptsOf(tag, own);
  if (scripts.length === 0) return 'auto';
  return scripts.some((s) => RTL_SCRIPTS.has(s)) ? 'rtl' : 'ltr';
}

/**
 * The ` lang="…" dir="…"` attributes of an element showing text in `tag` (with its leading space).
 *
 * @example
 * html`<pre${langDir('ug')}>…</pre>` // <pre lang="ug" dir="rtl">…</pre>
 */
export function langDir(tag: string, own: readonly LoadedPack[] = []): Html {
  return html` lang="${tag}" dir="${textDirection(tag, own)}"`;
}
