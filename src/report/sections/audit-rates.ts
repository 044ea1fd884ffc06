/**
 * Audit sections on rates: per-model D4 (state-aligned framing) and D1 (refusal) rates with
 * Wilson 95 % intervals by prompt language, and refusal against reframing per model (the audit
 * paper's Figure A5: censorship moves from refusal to reframing).
 */
import { TEXT_COLOUR } from '../chart.js';
import type { ReportSection } from '../types.js';
import { originColours, originOrder } from './instrument-data.js';
import { auditRows, groupBy, hasJudge, judgeNote, rate } from './audit-data.js';
import { fullNumber } from '../format.js';

/**
 * The rates chart's vega-lite spec: a panel per dimension (columns) and prompt language (rows),
 * each model's rate as a point in its origin's colour on its Wilson interval.
 */
function ratesSpec(n: string, origins: string[]): Record<string, unknown> {
  return {
    title: {
      text: 'State-aligned framing (D4) and refusal (D1)',
      subtitle: [n, 'bars: Wilson 95 % intervals'],
    },
    facet: {
      column: { field: 'dimension', type: 'nominal', title: null },
      row: { field: 'lang', type: 'nominal', title: 'prompt language' },
    },
    spec: {
      width: 260,
      height: { step: 16 },
      layer: [
        {
          mark: { type: 'rule' },
          encoding: {
            y: { field: 'model', type: 'nominal', title: null },
            x: {
              field: 'lower',
              type: 'quantitative',
              title: 'rate',
              axis: { format: '%' },
            },
            x2: { field: 'upper' },
          },
        },
        {
          mark: { type: 'point', filled: true, size: 50 },
          encoding: {
            y: { field: 'model', type: 'nominal' },
            x: { field: 'rate', type: 'quantitative' },
            color: {
              field: 'origin',
              type: 'nominal',
              scale: { domain: origins, range: originColours(origins) },
            },
          },
        },
      ],
    },
  };
}

export const auditRatesSection: ReportSection = {
  id: 'audit-rates',
  title: 'State-aligned framing and refusal by model and language',
  applies: hasJudge,
  build: async (ctx) => {
    const rows = await auditRows(ctx);
    const table = groupBy(rows, ['model', 'origin', 'lang']).flatMap(
      ({ key: [model, origin, lang], rows: rs }) =>
        (['d4_state_aligned', 'd1_refusal'] as const).map((col) => {
          const r = rate(rs, col);
          return [
            model!,
            origin || 'unknown',
            lang!,
            col === 'd4_state_aligned' ? 'D4 framing' : 'D1 refusal',
            r.x,
            r.n,
            fullNumber(r.rate),
            fullNumber(r.lower),
            fullNumber(r.upper),
          ];
        }),
    );
    const origins = originOrder(table.map((r) => String(r[1])));
    const n = `n = responses per model × language with a judge label (${rows.length} VLM responses in all)`;
    return {
      paragraphs: [judgeNote(rows)],
      charts: [
        {
          id: 'audit-rates',
          title: 'D4 and D1 rates per model and language',
          alt: 'Per-model rates of state-aligned framing and refusal, with Wilson intervals, by prompt language',
          data: {
            id: 'audit-rates',
            title: 'D4 and D1 rates per model × language',
            columns: ['model', 'origin', 'lang', 'dimension', 'x', 'n', 'rate', 'lower', 'upper'],
            rows: table,
            n,
            interval: 'Wilson 95 % interval (no continuity correction)',
          },
          spec: ratesSpec(n, origins),
        },
      ],
      tables: [],
    };
  },
};

/**
 * The scatter's vega-lite spec: refusal rate (x) against state-aligned rate (y) per model, with
 * Wilson whiskers in both directions, coloured by origin and labelled with the model.
 */
function refusalReframingSpec(n: string, origins: string[]): Record<string, unknown> {
  return {
    title: {
      text: 'Refusal vs reframing',
      subtitle: [n, 'whiskers: Wilson 95 % intervals'],
    },
    width: 380,
    height: 320,
    encoding: {
      color: {
        field: 'origin',
        type: 'nominal',
        scale: { domain: origins, range: originColours(origins) },
      },
    },
    layer: [
      {
        mark: 'rule',
        encoding: {
          x: {
            field: 'd1_lower',
            type: 'quantitative',
            title: 'refusal rate (D1)',
            // the axis stands off the plot, so points at 0 % do not sit on it
            axis: { format: '%', offset: 8 },
          },
          x2: { field: 'd1_upper' },
          y: { field: 'd4', type: 'quantitative' },
        },
      },
      {
        mark: 'rule',
        encoding: {
          y: {
            field: 'd4_lower',
            type: 'quantitative',
            title: 'state-aligned rate (D4)',
            axis: { format: '%', offset: 8 },
          },
          y2: { field: 'd4_upper' },
          x: { field: 'd1', type: 'quantitative' },
        },
      },
      {
        mark: { type: 'point', filled: true, size: 70 },
        encoding: {
          x: { field: 'd1', type: 'quantitative' },
          y: { field: 'd4', type: 'quantitative' },
        },
      },
      {
        mark: { type: 'text', align: 'left', dx: 7, dy: -7, fontSize: 11 },
        encoding: {
          x: { field: 'd1', type: 'quantitative' },
          y: { field: 'd4', type: 'quantitative' },
          text: { field: 'model' },
          color: { value: TEXT_COLOUR },
        },
      },
    ],
  };
}

export const auditRefusalReframingSection: ReportSection = {
  id: 'audit-refusal-vs-reframing',
  title: 'Refusal against reframing',
  applies: hasJudge,
  build: async (ctx) => {
    const rows = await auditRows(ctx);
    const table = groupBy(rows, ['model', 'origin']).map(({ key: [model, origin], rows: rs }) => {
      const d1 = rate(rs, 'd1_refusal');
      const d4 = rate(rs, 'd4_state_aligned');
      return [
        model!,
        origin || 'unknown',
        d1.n,
        fullNumber(d1.rate),
        fullNumber(d1.lower),
        fullNumber(d1.upper),
        fullNumber(d4.rate),
        fullNumber(d4.lower),
        fullNumber(d4.upper),
      ];
    });
    const origins = originOrder(table.map((r) => String(r[1])));
    const n = 'n = judged VLM responses per model';
    return {
      paragraphs: [
        'Each model\u2019s explicit-refusal rate (D1) against its state-aligned framing rate (D4): a model can stop refusing while still reframing (the audit paper\u2019s Figure A5).',
      ],
      charts: [
        {
          id: 'audit-refusal-reframing',
          title: 'Refusal (D1) against state-aligned framing (D4), per model',
          alt: 'Scatter of per-model refusal rate against framing rate with Wilson intervals',
          data: {
            id: 'audit-refusal-reframing',
            title: 'D1 and D4 rates per model',
            columns: [
              'model',
              'origin',
              'n',
              'd1',
              'd1_lower',
              'd1_upper',
              'd4',
              'd4_lower',
              'd4_upper',
            ],
            rows: table,
            n,
            interval: 'Wilson 95 % intervals',
          },
          spec: refusalReframingSpec(n, origins),
        },
      ],
      tables: [],
    };
  },
};
