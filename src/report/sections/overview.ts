/**
 * The overview: what was scored, per model, with the zero reasons and what was not an answer, and
 * the columns not computed for a language without the rules they need.
 */
import { NO_VALUE_REASONS } from '../../score/outcome.js';
import { ZERO_REASONS } from '../../score/parse.js';
import type { ReportContext, ReportSection } from '../types.js';
import { languageLabel, languageNames } from '../languages.js';

/** One sentence per study language whose rules some columns lacked (score.json not_computed). */
async function notComputedSentences(ctx: ReportContext): Promise<string[]> {
  const list = ctx.header.counts.not_computed ?? [];
  if (list.length === 0) return [];
  const names = await languageNames(ctx);
  return list.map(
    (x) =>
      `Not computed for ${languageLabel(names, x.lang)}: ${x.columns.join(', ')} ${x.columns.length === 1 ? 'is' : 'are'} empty in its ${x.rows} row${x.rows === 1 ? '' : 's'} (no_rules_for_language: no language pack gives the rules they need; docs/formats/languages.md).`,
  );
}

export const overviewSection: ReportSection = {
  id: 'overview',
  title: 'What was scored',
  applies: (ctx) => ctx.header.counts.records > 0,
  build: async (ctx) => {
    const records = await ctx.records();
    const known: readonly string[] = [...ZERO_REASONS, ...NO_VALUE_REASONS];
    const reasons = [
      ...new Set(known),
      ...new Set(
        records.map((r) => r.reason).filter((r): r is string => r !== null && !known.includes(r)),
      ),
    ];
    const rows = ctx.header.counts.models.map((m) => {
      const mine = records.filter((r) => r.model === m.name);
      return [
        m.name,
        m.origin,
        m.vendor,
        m.simulated ? 1 : 0,
        mine.length,
        ...reasons.map((k) => mine.filter((r) => r.reason === k).length),
      ];
    });
    const paradigms = Object.entries(ctx.header.counts.by_paradigm)
      .map(([p, n]) => `${p} ${n}`)
      .join(', ');
    const unscored = Object.entries(ctx.header.counts.unscored);
    return {
      paragraphs: [
        `${ctx.header.counts.records} responses scored (${paradigms}).`,
        ...(await notComputedSentences(ctx)),
        ...(unscored.length > 0
          ? [
              `Not scored (no scorer for the paradigm yet): ${unscored.map(([p, n]) => `${p} ${n}`).join(', ')}.`,
            ]
          : []),
        'A forced-choice answer scores 0 when it is neutral, a refusal, ambiguous (two different options) or unparseable (free text; a judge could score it); the instrument has no midpoint, so these are the only zeros. A row that is not an answer has no score: no_response (an empty, suppressed reply or no text), provider_block (the provider’s filter), model_refusal (the model’s structured refusal), length (cut at the token limit), failed (no reply).',
      ],
      charts: [],
      tables: [
        {
          id: 'overview-models',
          title: 'Scored responses per model, why some score 0, and those that are not answers',
          columns: ['model', 'origin', 'vendor', 'simulated_respondent', 'responses', ...reasons],
          rows,
          n: `n = ${ctx.header.counts.records} scored responses`,
          interval: 'Counts; no intervals',
        },
      ],
    };
  },
};
