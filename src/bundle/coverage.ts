/**
 * Language coverage of the corpus at bundle time: every entry a VLM paradigm uses needs a title
 * and the text of each of its expected facts in every language the paradigm runs in. Ingest checks
 * this for the corpus's own languages; a study may ask for more (a study in en, zh and ja over an
 * en/zh corpus), which would otherwise seal trials whose responses cannot be scored.
 */
import type { Problem } from '../core/errors.js';
import { relPosix } from '../core/fsio.js';
import type { Entry } from '../ingest/schema.js';
import type { LoadedStudy } from '../study/load.js';

/** What the check reads of an entry. */
export type CoverageEntry = Pick<Entry, 'id' | 'roles' | 'title' | 'expected_facts'>;

/** The entries a paradigm block selects (roles, optionally ids); selection errors are the plan's to report. */
function selected(
  block: LoadedStudy['paradigms'][number][1],
  entries: readonly CoverageEntry[],
): CoverageEntry[] {
  const roles = new Set(block.entries.roles);
  const ids = block.entries.ids ? new Set(block.entries.ids) : null;
  return entries.filter((e) => e.roles.some((r) => roles.has(r)) && (!ids || ids.has(e.id)));
}

/**
 * One problem per entry and language that lacks a title or an expected fact's text, naming the
 * entry, the first missing field (all of them in the message) and the paradigms that need it.
 */
export function checkLanguageCoverage(
  loaded: LoadedStudy,
  entries: readonly CoverageEntry[],
  manifestFile: string,
): Problem[] {
  const index = new Map(entries.map((e, i) => [e.id, i]));
  // entry id → language → { missing fields, paradigms }
  const gaps = new Map<string, Map<string, { fields: string[]; paradigms: string[] }>>();
  for (const [paradigm, block] of loaded.paradigms) {
    const langs = block.languages ?? loaded.study.languages;
    for (const e of selected(block, entries)) {
      const i = index.get(e.id)!;
      for (const lang of langs) {
        const fields: string[] = [];
        if (!e.title[lang]) fields.push(`entries[${i}].title.${lang}`);
        e.expected_facts.forEach((f, j) => {
          if (typeof (f as Record<string, unknown>)[lang] !== 'string')
            fields.push(`entries[${i}].expected_facts[${j}].${lang}`);
        });
        if (fields.length === 0) continue;
        const byLang =
          gaps.get(e.id) ?? new Map<string, { fields: string[]; paradigms: string[] }>();
        gaps.set(e.id, byLang);
        const gap = byLang.get(lang) ?? { fields, paradigms: [] };
        byLang.set(lang, gap);
        gap.paradigms.push(paradigm);
      }
    }
  }
  const shownManifest = relPosix(process.cwd(), manifestFile);
  const problems: Problem[] = [];
  for (const [id, byLang] of gaps) {
    for (const [lang, gap] of byLang) {
      problems.push({
        code: 'E_BUNDLE_LANGUAGE_COVERAGE',
        severity: 'error',
        file: manifestFile,
        field: gap.fields[0],
        entry: id,
        message: `the study runs ${gap.paradigms.join(', ')} in ${lang}, but this entry has no ${lang} text for ${gap.fields.map((f) => f.replace(/^entries\[\d+\]\./, '')).join(', ')}`,
        expected: `a title and every expected fact in ${lang}`,
        got: `${gap.fields.length} field(s) missing`,
        fix: `add ${gap.fields.map((f) => f.replace(/^entries\[\d+\]\./, '')).join(', ')} to entry ${id} in ${shownManifest} (and ${lang} to its languages), or drop ${lang} from the study's languages for these paradigms`,
      });
    }
  }
  return problems;
}
