/**
 * What the run cost per model, respondents and judges: the tokens and USD its results recorded
 * from each reply's usage and the model's price (the scores folder's `cost.csv`, score/cost.ts).
 * Shown when any result reported usage.
 */
import type { ReportSection } from '../types.js';

const num = (s: string | undefined): number | null =>
  s === undefined || s === '' ? null : Number(s);

export const costSection: ReportSection = {
  id: 'cost',
  title: 'Cost per model',
  applies: async (ctx) =>
    ((await ctx.table('cost.csv'))?.rows ?? []).some((r) => (num(r.with_usage) ?? 0) > 0),
  build: async (ctx) => {
    const t = (await ctx.table('cost.csv'))!;
    const rows = t.rows.map((r) => [
      r.model!,
      r.role!,
      num(r.results),
      num(r.input_tokens),
      num(r.cached_input_tokens),
      num(r.output_tokens),
      num(r.cost_usd),
      num(r.unpriced),
    ]);
    const priced = t.rows.filter((r) => num(r.cost_usd) !== null);
    const total = priced.reduce((a, r) => a + num(r.cost_usd)!, 0);
    const unpriced = t.rows.filter((r) => (num(r.unpriced) ?? 0) > 0).map((r) => r.model!);
    return {
      paragraphs: [
        `The recorded cost of the scored run is $${total.toFixed(4)} over ${priced.length} priced model(s), judges included. Each result's cost is its reply's usage at the model's price (the models file's price block, batch discount applied to batch results).`,
        ...(unpriced.length > 0
          ? [
              `Without a price, and so not counted: ${unpriced.join(', ')} (their tokens are shown).`,
            ]
          : []),
      ],
      charts: [],
      tables: [
        {
          id: 'cost-per-model',
          title: 'Tokens and cost per model',
          columns: [
            'model',
            'role',
            'results',
            'input tokens',
            'cached input tokens',
            'output tokens',
            'cost (USD)',
            'results with usage but no price',
          ],
          rows,
          n: `n = ${t.rows.length} model rows (respondents of the run, and its judges)`,
          interval: 'none: sums of recorded costs, no sampling',
        },
      ],
    };
  },
};
