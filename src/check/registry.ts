/**
 * The formats `stimkit check` knows: one line each, mapping a file's `format` field to a check
 * that loads the file with its stage's own loader (every rule, the `extends` chain followed) and
 * returns a short summary. A check throws a StimkitError listing its problems; a new format adds
 * one line here, e.g.
 *
 *   fmt('stimkit.example', 'example file', /\.example\.(ya?ml|json)$/, async (f) => { await (await import('../example/load.js')).loadExample(f); return {}; }),
 *
 * Loaders are imported when used, so a check of one file does not load every stage.
 */
import type { Problem } from '../core/errors.js';

/** What a check reports about a valid file (shown in the summary), and any warnings. */
export interface CheckSummary {
  [key: string]: unknown;
  warnings?: Problem[];
}

/** One registered format. */
export interface FormatCheck {
  format: string;
  /** What the file is, for messages ("topics file"). */
  what: string;
  /** File names that are probably this format, for files without a `format` field. */
  names: RegExp;
  check: (file: string) => Promise<CheckSummary>;
}

const fmt = (
  format: string,
  what: string,
  names: RegExp,
  check: FormatCheck['check'],
): FormatCheck => ({ format, what, names, check });

export const FORMATS: FormatCheck[] = [
  fmt('stimkit.entries', 'entries manifest', /\.entries\.(ya?ml|json)$/, async (f) =>
    (await import('./entries.js')).checkEntries(f),
  ),
  fmt('stimkit.topics', 'topics file', /\.topics\.(ya?ml|json)$/, async (f) => {
    const { loadTopics, missingItems } = await import('../stimuli/topics.js');
    const t = await loadTopics(f);
    const warnings = Object.entries(missingItems(t)).map(([lang, ids]) => ({
      code: 'W_TOPICS_PARTIAL_LANGUAGE',
      severity: 'warning' as const,
      file: f,
      field: 'topics',
      message: `${ids.length} of ${t.topics.length} topics have no ${lang} item (${ids.join(', ')}); a study can use ${lang} only with the other topics (instrument.topic_ids)`,
    }));
    return {
      languages: t.languages,
      topics: t.topics.map((x) => x.id),
      files: t.inputs.length,
      ...(warnings.length > 0 ? { warnings } : {}),
    };
  }),
  fmt('stimkit.wrappers', 'wrapper pools', /wrappers.*\.(ya?ml|json)$/, async (f) => {
    const w = await (await import('../stimuli/wrappers.js')).loadWrapperPools(f);
    return {
      languages: w.languages,
      pools: Object.fromEntries(
        Object.values(w.pools).map((p) => [
          p.lang,
          `${p.prefixes.length} prefixes × ${p.suffixes.length} suffixes`,
        ]),
      ),
      files: w.inputs.length,
    };
  }),
  fmt('stimkit.prompts', 'prompt cards', /prompts.*\.(ya?ml|json)$/, async (f) => {
    const c = await (await import('../stimuli/prompts.js')).loadPromptCards(f);
    return { languages: c.languages, cards: Object.keys(c.paradigms), files: c.inputs.length };
  }),
  fmt('stimkit.study', 'study design', /\.study\.(ya?ml|json)$/, async (f) =>
    (await import('./study.js')).checkStudyFile(f),
  ),
  fmt('stimkit.recipe', 'variants recipe', /recipe.*\.(ya?ml|json)$/, async (f) => {
    const r = await (await import('../variants/recipe.js')).resolveRecipe(f);
    return { recipe: r.format };
  }),
  fmt('stimkit.corpus', 'corpus lock', /corpus\.lock\.json$/, async (f) => {
    const l = await (await import('../ingest/lock.js')).readCorpusLock(f);
    return {
      corpus: l.corpus,
      entries: l.entries.length,
      warnings: l.warnings.map((w) => ({ ...w, severity: 'warning' as const, file: f })),
    };
  }),
  fmt('stimkit.variants', 'variants lock', /variants.*\.lock\.json$/, async (f) => {
    const l = await (await import('../variants/lock.js')).readVariantsLock(f);
    return { corpus: l.corpus, entries: l.entries.length };
  }),
  fmt('stimkit.models', 'models file', /\.models\.(ya?ml|json)$/, async (f) => {
    const m = await (await import('../models/load.js')).loadModelsFile(f);
    return { models: m.models.map((x) => x.name) };
  }),
  fmt(
    'stimkit.language',
    'language pack',
    /languages?\/[^/]+\.ya?ml$|\.language\.(ya?ml|json)$/,
    async (f) => {
      const { pack } = (await import('../languages/load.js')).readLanguagePack(f);
      const sections = ['instrument', 'd1_refusal', 'summary', 'headings'] as const;
      return {
        tag: pack.tag,
        aliases: pack.aliases,
        scripts: pack.scripts,
        direction: pack.direction,
        rules: sections.filter((s) => pack[s] !== undefined),
        warnings: sections
          .filter((s) => pack[s] === undefined)
          .map((s) => ({
            code: 'W_NO_RULES_FOR_LANGUAGE',
            severity: 'warning' as const,
            file: f,
            field: s,
            message: `the pack has no ${s} rules: the columns that need them are left empty for ${pack.tag}`,
          })),
      };
    },
  ),
  fmt(
    'stimkit.pressure',
    'pressure follow-ups',
    /pressure\/[^/]+\.ya?ml$|\.pressure\.(ya?ml|json)$/,
    async (f) => {
      const t = await (await import('../stimuli/pressure.js')).loadPressureTexts([f]);
      const [lang, { data }] = [...t.byLang][0]!;
      return {
        lang,
        followups: Object.keys(data.followups),
        other_language: Object.keys(data.followups.other_language),
      };
    },
  ),
  fmt('stimkit.rubric', 'judge rubric', /rubric.*\.(ya?ml|json)$/, async (f) => {
    const r = await (await import('../study/rubric.js')).loadRubric(f);
    return { digest: r.digest };
  }),
];

/** The check of `format`, if registered. */
export function formatCheck(format: string): FormatCheck | undefined {
  return FORMATS.find((c) => c.format === format);
}

/** The check a file name suggests (for files without a `format` field). */
export function guessFormat(file: string): FormatCheck | undefined {
  return FORMATS.find((c) => c.names.test(file));
}
