/**
 * Font preflight: whether an installed font covers each study language, asked of fontconfig
 * (`fc-list :lang=<tag>`), which both the PNG charts (librsvg through sharp) and Chromium use.
 * A language no font covers would be drawn as empty boxes (.notdef); the warning names the Debian
 * package that provides its script (checked with `dpkg -c`: fonts-noto-core has Noto Sans Arabic,
 * Noto Naskh Arabic and Noto Serif Tibetan; fonts-noto-cjk the CJK fonts).
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { readCsvObjects } from '../core/csv.js';
import type { Problem } from '../core/errors.js';
import { scriptsOf } from './lang-tag.js';

const run = promisify(execFile);

/** The Debian package with a font for each script (ISO 15924); others: fonts-noto-extra. */
const PACKAGE_OF_SCRIPT: Record<string, string> = {
  Latn: 'fonts-noto-core',
  Cyrl: 'fonts-noto-core',
  Grek: 'fonts-noto-core',
  Arab: 'fonts-noto-core',
  Hebr: 'fonts-noto-core',
  Tibt: 'fonts-noto-core',
  Deva: 'fonts-noto-core',
  Thai: 'fonts-noto-core',
  Hans: 'fonts-noto-cjk',
  Hant: 'fonts-noto-cjk',
  Jpan: 'fonts-noto-cjk',
  Kore: 'fonts-noto-cjk',
};

/** The Debian package that provides a font for `tag`'s script. */
function fontPackage(tag: string): string {
  return PACKAGE_OF_SCRIPT[scriptsOf(tag)[0] ?? ''] ?? 'fonts-noto-extra';
}

/**
 * fontconfig's orthographies of languages written in more than one script, by script (its
 * fc-lang files: mn-mn is Cyrillic Mongolian, mn-cn the Mongolian script; sr Cyrillic, sh Latin…).
 */
const BY_SCRIPT: Record<string, Record<string, string>> = {
  mn: { Cyrl: 'mn-mn', Mong: 'mn-cn' },
  az: { Latn: 'az-az', Arab: 'az-ir' },
  ku: { Latn: 'ku-tr', Arab: 'ku-iq', Cyrl: 'ku-am' },
  pa: { Guru: 'pa', Arab: 'pa-pk' },
  sr: { Cyrl: 'sr', Latn: 'sh' },
};

/** fontconfig's name of a language (its orthographies: zh-cn, zh-tw, zh-hk, ug, bo, mn-cn …). */
export function fontconfigLang(tag: string): string {
  const l = new Intl.Locale(tag).maximize();
  if (l.language === 'zh') {
    if (l.region === 'HK' || l.region === 'MO') return 'zh-hk';
    return l.script === 'Hant' ? 'zh-tw' : 'zh-cn';
  }
  return BY_SCRIPT[l.language]?.[l.script ?? ''] ?? l.language;
}

/** One language's coverage: the fonts that cover it (null when fontconfig cannot be asked). */
export interface FontCoverage {
  lang: string;
  fontconfig: string;
  fonts: number | null;
  package: string;
}

/** `fc-list :lang=<lang> family`'s families, or null when fc-list is not there. */
async function families(fcLang: string): Promise<string[] | null> {
  try {
    const { stdout } = await run('fc-list', [`:lang=${fcLang}`, 'family'], { timeout: 20_000 });
    return stdout.split('\n').filter((l) => l.trim() !== '');
  } catch {
    return null;
  }
}

/** The font coverage of each language (in order, each once). */
export async function fontCoverage(langs: readonly string[]): Promise<FontCoverage[]> {
  const out: FontCoverage[] = [];
  for (const lang of [...new Set(langs)]) {
    const fontconfig = fontconfigLang(lang);
    const found = await families(fontconfig);
    out.push({ lang, fontconfig, fonts: found?.length ?? null, package: fontPackage(lang) });
  }
  return out;
}

/**
 * Warnings for the languages no installed font covers (W_FONTS_MISSING, naming the package to
 * install), or one W_FONTS_UNCHECKED when fontconfig cannot be asked. `file` is the file the
 * languages come from; `what` what would show empty boxes.
 */
export async function fontWarnings(
  langs: readonly string[],
  file: string,
  what = 'charts, PNGs and pages',
): Promise<Problem[]> {
  const cov = await fontCoverage(langs);
  if (cov.some((c) => c.fonts === null))
    return [
      {
        code: 'W_FONTS_UNCHECKED',
        severity: 'warning',
        file,
        message: `cannot tell whether the fonts cover ${cov.map((c) => c.lang).join(', ')}: fc-list (fontconfig) is not installed`,
        fix: 'install fontconfig (apt-get install fontconfig) to have the fonts checked',
      },
    ];
  return cov
    .filter((c) => c.fonts === 0)
    .map((c) => ({
      code: 'W_FONTS_MISSING',
      severity: 'warning' as const,
      file,
      message: `no installed font covers ${c.lang} (${scriptsOf(c.lang).join(', ') || 'its script'}; fc-list :lang=${c.fontconfig} lists none): its text in ${what} would be empty boxes`,
      expected: `a font for ${c.fontconfig}`,
      got: 'none',
      fix: `install ${c.package} (apt-get install ${c.package}; scripts/test-deps.sh in a clone)`,
    }));
}

/**
 * `fontWarnings` for the languages of a scores folder's `trials.csv` (its `language` column), for
 * `stimkit report`; none when the table is not there (the report says what it lacks).
 */
export async function scoresFontWarnings(scoresDir: string): Promise<Problem[]> {
  const file = path.join(scoresDir, 'trials.csv');
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return [];
  const langs = readCsvObjects(text).flatMap((r) => (r.language ? [r.language] : []));
  return fontWarnings(langs, file, 'the report’s charts and PNGs');
}
