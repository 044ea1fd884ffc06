/**
 * Audit sections: the abstraction ladder (D4 and D1 rates by variant A0–A6, the audit paper's
 * abstraction results), discourse-strategy shares among state-aligned responses (Figure 6a), and
 * response length by model and language (D6, medians excluding refusals, raw and cleaned as in
 * Appendix O, Table A17).
 */
import { median } from '../../audit/length.js';
import type { ReportSection } from '../types.js';
import { originColours, originOrder } from './instrument-data.js';
import { auditRows, groupBy, hasAudit, hasJudge, judgeNote, p4, rate } from './audit-data.js';

export const auditLadderSection: ReportSection = {
  id: 'audit-ladder',
  title: 'The abstraction ladder (A0–A6)',
  applies: async (ctx) => (await hasJudge(ctx)) && (await auditRows(ctx)).some((r) => r.paradigm === 'abstraction'),
  build: async (ctx) => {
    const rows = (await auditRows(ctx)).filter((r) => r.paradigm === 'abstraction');
    const table = groupBy(rows, ['variant']).flatMap(({ key: [variant], rows: rs }) =>
      (['d4_state_aligned', 'd1_refusal'] as const).map((col) => {
        const r = rate(rs, col);
        return [variant!, col === 'd4_state_aligned' ? 'D4 framing' : 'D1 refusal', r.x, r.n, p4(r.rate), p4(r.lower), p4(r.upper)];
      }),
    );
    const n = `n = abstraction responses per variant (${rows.length} in all)`;
    return {
      paragraphs: [judgeNote(rows), 'Rates by abstraction level: if framing rests on visual detail it declines as information is removed; if it rests on recognising an iconic shape it persists down to the silhouette (A6). The variant images are in the bundle (data/variants.json, data/images/).'],
      charts: [
        {
          id: 'audit-ladder',
          title: 'Rates by abstraction level',
          alt: 'Line chart of framing and refusal rates from A0 (original) to A6 (silhouette) with Wilson bands',
          data: { id: 'audit-ladder', title: 'Rates by variant', columns: ['variant', 'dimension', 'x', 'n', 'rate', 'lower', 'upper'], rows: table, n, interval: 'Wilson 95 % intervals' },
          spec: {
            title: { text: 'The abstraction ladder', subtitle: [n, 'bands: Wilson 95 % intervals'] },
            width: 420,
            height: 260,
            encoding: { x: { field: 'variant', type: 'ordinal', sort: ['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6'], title: 'variant (A0 original → A6 silhouette)', axis: { labelAngle: 0 } }, color: { field: 'dimension', type: 'nominal' } },
            layer: [
              { mark: { type: 'area', opacity: 0.15 }, encoding: { y: { field: 'lower', type: 'quantitative', title: 'rate', axis: { format: '%' } }, y2: { field: 'upper' } } },
              { mark: { type: 'line', point: true }, encoding: { y: { field: 'rate', type: 'quantitative' } } },
            ],
          },
        },
      ],
      tables: [],
    };
  },
};

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
        return [lang!, s, x, rs.length, p4(x / rs.length)];
      }),
    );
    const n = `n = ${pos.length} state-aligned (D4+) responses; shares are multi-label (a response may use several strategies)`;
    return {
      paragraphs: [judgeNote(all), 'DT1 overt endorsement, DT2 substitution/euphemism, DT3 deflection (Appendix E); denominator: all D4+ responses of the language (the audit paper\u2019s Figure 6a).'],
      charts: [
        {
          id: 'audit-strategies',
          title: 'Strategy shares among D4+ responses',
          alt: 'Bar chart of DT1, DT2 and DT3 shares among state-aligned responses by language',
          data: { id: 'audit-strategies', title: 'Strategy shares by language', columns: ['lang', 'strategy', 'x', 'n', 'share'], rows: table, n, interval: 'descriptive shares (no interval)' },
          spec: {
            title: { text: 'Discourse strategies (D4+)', subtitle: [n] },
            width: 300,
            height: 200,
            mark: 'bar',
            encoding: { x: { field: 'strategy', type: 'nominal', axis: { labelAngle: 0 } }, xOffset: { field: 'lang' }, y: { field: 'share', type: 'quantitative', axis: { format: '%' } }, color: { field: 'lang', type: 'nominal', title: 'language' } },
          },
        },
      ],
      tables: [],
    };
  },
};

export const auditLengthSection: ReportSection = {
  id: 'audit-length',
  title: 'Response length (D6)',
  applies: hasAudit,
  build: async (ctx) => {
    const rows = await auditRows(ctx);
    const judged = rows.some((r) => r.d1_refusal === '0' || r.d1_refusal === '1');
    const refusalCol = judged ? 'd1_refusal' : 'd1_refusal_lexical';
    const table = groupBy(rows.filter((r) => r.d6_length_raw !== ''), ['model', 'origin', 'lang']).map(({ key: [model, origin, lang], rows: rs }) => {
      const kept = rs.filter((r) => r[refusalCol] !== '1');
      return [model!, origin || 'unknown', lang!, kept.length, rs.length - kept.length, median(kept.map((r) => Number(r.d6_length_raw))), median(kept.map((r) => Number(r.d6_length_markdown))), median(kept.map((r) => Number(r.d6_length_clean)))];
    });
    const origins = originOrder(table.map((r) => String(r[1])));
    const n = `n = responses per model × language, refusals excluded (by ${judged ? 'the judge\u2019s D1' : 'the lexical refusal detector: no judge ran'})`;
    return {
      paragraphs: ['Median length in characters (Unicode code points) excluding refusals: raw, after markdown removal (Appendix O pass 1) and after removing scaffold lines and the trailing summary (pass 2).'],
      charts: [
        {
          id: 'audit-length',
          title: 'Median response length by model and language',
          alt: 'Bar chart of the median cleaned response length per model and language',
          data: { id: 'audit-length', title: 'Median length per model × language (ex-refusal)', columns: ['model', 'origin', 'lang', 'n', 'refusals_excluded', 'median_raw', 'median_markdown', 'median_clean'], rows: table, n, interval: 'medians (no interval)' },
          spec: {
            title: { text: 'Response length (D6, cleaned)', subtitle: [n] },
            width: 320,
            height: { step: 14 },
            mark: 'bar',
            encoding: { y: { field: 'model', type: 'nominal', title: null }, yOffset: { field: 'lang' }, x: { field: 'median_clean', type: 'quantitative', title: 'median characters (cleaned)' }, color: { field: 'lang', type: 'nominal', title: 'language' }, stroke: { field: 'origin', type: 'nominal', scale: { domain: origins, range: originColours(origins) }, legend: null } },
          },
        },
      ],
      tables: [],
    };
  },
};
