/**
 * The study's languages by name, from their language packs (src/languages/): the English name and
 * the language's own name (`names.en`, `names.own`), e.g. `ug` "Uyghur", "ئۇيغۇرچە". The scored
 * bundle's own packs (`data/languages/<tag>.yaml`, when its study named some) are read before the
 * shipped ones, as score read them; a language no pack names is shown by its code, and the page
 * says so once. The own name is text in the language: shown with its `lang` and `dir`.
 */
import { textDirection } from '../languages/lang-tag.js';
import { packFor, type LoadedPack } from '../languages/load.js';
import type { ReportContext, ReportTable } from './types.js';

/** The packs the report names languages with, and why some language has none. */
export interface LanguageNames {
  /** The scored bundle's own packs (empty without a bundle or without own packs). */
  packs: readonly LoadedPack[];
}

/** The scored bundle's own packs (memoized per report); none when the bundle cannot be read. */
export function languageNames(ctx: ReportContext): Promise<LanguageNames> {
  return ctx.memo('language-names', async () => {
    const { bundle } = await ctx.bundle();
    return { packs: bundle ? await bundle.sealed.languagePacks() : [] };
  });
}

/** "Uyghur (ug)": the English name from the language's pack, or the code alone without one. */
export function languageLabel(names: LanguageNames, code: string): string {
  const pack = packFor(code, names.packs)?.pack;
  return pack ? `${pack.names.en} (${code})` : code;
}

/** The language's own name ("ئۇيغۇرچە"), or null when no pack names the language. */
function ownName(names: LanguageNames, code: string): string | null {
  return packFor(code, names.packs)?.pack.names.own ?? null;
}

/** The `lang` and `dir` of text in language `code`, by its pack (the bundle's own first). */
function textLang(names: LanguageNames, code: string): { lang: string; dir: string } {
  return { lang: code, dir: textDirection(code, names.packs) };
}

/** The sentence saying which languages no pack names (shown by their codes), or null. */
export function unnamedNote(names: LanguageNames, codes: readonly string[]): string | null {
  const none = [...new Set(codes)].filter((c) => packFor(c, names.packs) === null);
  return none.length > 0
    ? `No language pack names ${none.join(', ')}: shown by code (docs/formats/languages.md)`
    : null;
}

/**
 * `table` with the column `language_own` (the language's own name) after `language`, its cells
 * marked with the row language's `lang` and `dir` (the table's `lang` column holds the code).
 */
export function withOwnNames(table: ReportTable, names: LanguageNames): ReportTable {
  const at = table.columns.indexOf('language');
  const code = table.columns.indexOf('lang');
  if (at < 0 || code < 0) return table;
  const langs = table.rows.map((r) => String(r[code] ?? ''));
  return {
    ...table,
    columns: [...table.columns.slice(0, at + 1), 'language_own', ...table.columns.slice(at + 1)],
    rows: table.rows.map((r, i) => [
      ...r.slice(0, at + 1),
      ownName(names, langs[i]!),
      ...r.slice(at + 1),
    ]),
    cellLang: { ...table.cellLang, language_own: langs.map((l) => textLang(names, l)) },
  };
}
