/**
 * Audit sections: discourse-strategy shares among state-aligned responses (Figure 6a), and
 * response length by model and language (D6, medians excluding refusals, raw and cleaned as in
 * Appendix O, Table A17). The abstraction ladder is in audit-ladder.ts.
 */
import { medianLengths } from '../../audit/length.js';
import type { Cell } from '../../score/types.js';
import { wilson } from '../../stats/index.js';
import { TEXT_COLOUR } from '../chart.js';
import type { ReportSection } from '../types.js';
import { auditRows, groupBy, hasAudit, judgeNote, type AuditRow } from './audit-data.js';
import { fullNumber } from '../format.js';

/**
 * The strategies chart's vega-lite spec: a bar per strategy and language (share of that
 * language's D4+ responses) with its Wilson whisker.
 */
function strategiesSpec(n: string): Record<string, unknown> {
  return {
    title: {
      text: 'Discourse strategies (D4+)',
      subtitle: [n, 'whiskers: Wilson 95 % intervals'],
    },
    width: 300,
    height: 200,
    encoding: {
      x: { field: 'strategy', type: 'nominal', axis: { labelAngle: 0 } },
      xOffset: { field: 'language', type: 'nominal' },
      color: { field: 'language', type: 'nominal', title: 'language (n)' },
    },
    layer: [
      {
        mark: 'bar',
        encoding: {
          y: {
            field: 'share',
            type: 'quantitative',
            title: 'share of D4+ responses',
            axis: { format: '%' },
            scale: { domain: [0, 1] },
          },
        },
      },
      {
        mark: { type: 'rule', color: TEXT_COLOUR },
        encoding: {
          y: { field: 'lower', type: 'quantitative' },
          y2: { field: 'upper' },
          color: { value: TEXT_COLOUR },
        },
      },
    ],
  };
}

export const auditStrategiesSection: ReportSection = {
  id: 'audit-strategies',
  title: 'Discourse strategies of state-aligned responses',
  applies: async (ctx) => (await auditRows(ctx)).some((r) => r.d4_state_aligned === '1'),
  build: async (ctx) => {
    const all = await auditRows(ctx);
    const pos = all.filter((r) => r.d4_state_aligned === '1');
    const table = groupBy(pos, ['lang']).flatMap(({ key: [lang], rows: rs }) =>
      ['DT1', 'DT2', 'DT3'].map((s) => {
        const x = rs.filter((r) => (r.d4_strategy ?? '').split('|').includes(s)).length;
        const w = wilson(x, rs.length);
        return [
          `${lang!} (n = ${rs.length})`,
          lang!,
          s,
          x,
          rs.length,
          fullNumber(w.pHat),
          fullNumber(w.lower),
          fullNumber(w.upper),
        ];
      }),
    );
    const perLang = groupBy(pos, ['lang']).map(
      ({ key: [lang], rows: rs }) => `${lang} ${rs.length}`,
    );
    const n = `n = ${pos.length} state-aligned (D4+) responses (${perLang.join(', ')}); shares are multi-label (a response may use several strategies)`;
    return {
      paragraphs: [
        judgeNote(all),
        'DT1 overt endorsement, DT2 substitution/euphemism, DT3 deflection (Appendix E); denominator: all D4+ responses of the language (the audit paper\u2019s Figure 6a).',
      ],
      charts: [
        {
          id: 'audit-strategies',
          title: 'Strategy shares among D4+ responses',
          alt: 'Bar chart of DT1, DT2 and DT3 shares among state-aligned responses by language, with Wilson intervals',
          data: {
            id: 'audit-strategies',
            title: 'Strategy shares by language',
            columns: ['language', 'lang', 'strategy', 'x', 'n', 'share', 'lower', 'upper'],
            rows: table,
            n,
            interval:
              'Wilson 95 % intervals of each share (each strategy on its own: shares are multi-label)',
          },
          spec: strategiesSpec(n),
        },
      ],
      tables: [],
    };
  },
};

/**
 * The rows of the D6 table per model × language (audit/length.ts's medians): a cleaned length
 * left empty (a language without pass 2 rules) leaves its cell's cleaned median empty, not 0.
 */
function lengthTable(rows: AuditRow[], refusalCol: string): Cell[][] {
  const measured = rows.filter((r) => r.d6_length_raw !== '');
  const origins = new Map(measured.map((r) => [r.model!, r.origin || 'unknown']));
  return medianLengths(
    measured.map((r) => ({
      model: r.model!,
      lang: r.lang!,
      lengths: {
        raw: Number(r.d6_length_raw),
        markdown: Number(r.d6_length_markdown),
        clean: r.d6_length_clean === '' ? null : Number(r.d6_length_clean),
      },
      refused: r[refusalCol] === '1',
    })),
  ).map((c) => [
    c.model,
    origins.get(c.model)!,
    c.lang,
    c.n,
    c.refusals_excluded,
    c.median_raw,
    c.median_markdown,
    c.median_clean,
  ]);
}

export const auditLengthSection: ReportSection = {
  id: 'audit-length',
  title: 'Response length (D6)',
  applies: hasAudit,
  build: async (ctx) => {
    const rows = await auditRows(ctx);
    const judged = rows.some((r) => r.d1_refusal === '0' || r.d1_refusal === '1');
    const refusalCol = judged ? 'd1_refusal' : 'd1_refusal_lexical';
    const table = lengthTable(rows, refusalCol);
    const labels = [...new Set(table.map((r) => `${r[0]} (${r[1]})`))];
    const n = `n = responses per model × language, refusals excluded (by ${judged ? 'the judge\u2019s D1' : 'the lexical refusal detector: no judge ran'})`;
    // A cell without a cleaned median has no bar: the chart and the text say which and why.
    const undrawn = table.filter((r) => r[7] === null).map((r) => `${r[0]} (${r[1]}) ${r[2]}`);
    const notComputed =
      undrawn.length > 0
        ? [
            `Cleaned median not computed (no pass 2 rules for the language), not drawn: ${undrawn.join(', ')}`,
          ]
        : [];
    return {
      paragraphs: [
        'Median length in characters (Unicode code points) excluding refusals: raw, after markdown removal (Appendix O pass 1) and after removing scaffold lines and the trailing summary (pass 2).',
        ...notComputed.map((t) => `${t}.`),
      ],
      charts: [
        {
          id: 'audit-length',
          title: 'Median response length by model and language',
          alt: 'Bar chart of the median cleaned response length per model and language',
          data: {
            id: 'audit-length',
            title: 'Median length per model × language (ex-refusal)',
            columns: [
              'model',
              'origin',
              'lang',
              'n',
              'refusals_excluded',
              'median_raw',
              'median_markdown',
              'median_clean',
            ],
            rows: table,
            n,
            interval: 'medians (no interval)',
          },
          spec: {
            title: { text: 'Response length (D6, cleaned)', subtitle: [n, ...notComputed] },
            width: 320,
            height: { step: 14 },
            // the model's origin is part of its label (no unexplained outline colour)
            transform: [
              { calculate: "datum.model + ' (' + datum.origin + ')'", as: 'model_origin' },
            ],
            mark: 'bar',
            encoding: {
              y: { field: 'model_origin', type: 'nominal', title: 'model (origin)', sort: labels },
              yOffset: { field: 'lang' },
              x: {
                field: 'median_clean',
                type: 'quantitative',
                title: 'median characters (cleaned)',
              },
              color: { field: 'lang', type: 'nominal', title: 'language' },
            },
          },
        },
      ],
      tables: [],
    };
  },
};
