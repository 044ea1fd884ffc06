/**
 * Per-model net bias against swing (the instrument paper's Fig. 2): conviction on the y axis,
 * acquiescence magnitude on the x axis, each model's 95 % interval of net bias from the one-sample
 * t on its cell means, filled points for models whose net bias survives Holm across models.
 */
import { TEXT_COLOUR } from '../chart.js';
import type { ReportSection } from '../types.js';
import {
  absentSentence,
  hasInstrument,
  instrumentData,
  listWords,
  originColours,
  originOrder,
  paddedDomain,
} from './instrument-data.js';
import { fullNumber } from '../format.js';

/** The analysis the section reads (see `instrumentData`). */
type Data = Awaited<ReturnType<typeof instrumentData>>;

/** Per model: net bias, swing, raw agreement, the t interval of net bias, its Holm-adjusted p. */
function netSwingRows(d: Data) {
  return d.analysis.models.map((m) => {
    const holm = m.cellTest?.pTHolm ?? null;
    return [
      m.model,
      m.origin,
      fullNumber(m.net),
      fullNumber(m.swing),
      fullNumber(m.raw),
      fullNumber(m.cellTest?.ci[0]),
      fullNumber(m.cellTest?.ci[1]),
      m.cellTest?.n ?? null,
      fullNumber(m.cellTest?.pT),
      fullNumber(holm),
      holm !== null && holm < 0.05 ? 'yes' : 'no',
    ];
  });
}

/** The columns of `netSwingRows`, as the chart data and its CSV name them. */
const NET_SWING_COLUMNS = [
  'model',
  'origin',
  'net',
  'swing',
  'raw',
  'net_lower',
  'net_upper',
  'n_cells',
  'p_t',
  'p_holm',
  'holm_significant',
];

/**
 * The scatter's vega-lite spec: swing (x) against net bias (y) per model, interval bars in the
 * origin's colour, points filled when Holm-significant, each labelled with its model.
 */
function netSwingSpec(
  subtitle: string[],
  origins: string[],
  yDomain: [number, number],
): Record<string, unknown> {
  const colour = { domain: origins, range: originColours(origins) };
  return {
    title: { text: 'Net bias vs swing per model', subtitle },
    width: 560,
    height: 380,
    layer: [
      {
        mark: { type: 'rule', strokeDash: [4, 4], color: '#888' },
        encoding: { y: { datum: 0 } },
      },
      {
        mark: { type: 'rule', strokeWidth: 1.5 },
        encoding: {
          x: { field: 'swing', type: 'quantitative' },
          y: { field: 'net_lower', type: 'quantitative' },
          y2: { field: 'net_upper' },
          color: { field: 'origin', type: 'nominal', scale: colour },
        },
      },
      {
        mark: { type: 'point', size: 90, strokeWidth: 2, filled: true },
        encoding: {
          x: {
            field: 'swing',
            type: 'quantitative',
            title: 'swing (acquiescence magnitude)',
            scale: { zero: true },
            axis: { offset: 8 },
          },
          y: {
            field: 'net',
            type: 'quantitative',
            title: 'net bias (keyed stance)',
            scale: { domain: yDomain, nice: false },
            axis: { offset: 8 },
          },
          color: { field: 'origin', type: 'nominal', title: 'origin', scale: colour },
          stroke: { field: 'origin', type: 'nominal', title: 'origin', scale: colour },
          fillOpacity: {
            condition: { test: "datum.holm_significant === 'yes'", value: 1 },
            value: 0,
          },
        },
      },
      {
        mark: {
          type: 'text',
          align: 'left',
          dx: 8,
          dy: -6,
          fontSize: 11,
          color: TEXT_COLOUR,
        },
        encoding: {
          x: { field: 'swing', type: 'quantitative' },
          y: { field: 'net', type: 'quantitative' },
          text: { field: 'model' },
        },
      },
    ],
  };
}

export const netSwingSection: ReportSection = {
  id: 'instrument-net-swing',
  title: 'Conviction versus acquiescence: net bias against swing',
  applies: hasInstrument,
  build: async (ctx) => {
    const d = await instrumentData(ctx);
    const poles = 'positive = toward the plus pole, negative = toward the minus pole';
    const rows = netSwingRows(d);
    const origins = originOrder(d.analysis.models.map((m) => m.origin));
    const n = `n = ${d.analysis.counts.models} models; each point from ${d.cellsPerModel} cell means (topic × language × framing) of about ${d.perCell} responses each (arm ${d.arm})`;
    const interval =
      "Error bars: 95 % CI of net bias, one-sample t on the model's cell means; filled points: net bias ≠ 0 after Holm across models (t test, α 0.05); swing = |mean affirmative − mean reverse| / 2 is a point estimate";
    const noCi = d.analysis.models.filter((m) => !m.cellTest).map((m) => m.model);
    const bars = noCi.length
      ? `bars: 95 % CI (t on cell means); no bar for ${listWords(noCi)} (fewer than 2 cell means)`
      : 'bars: 95 % CI (t on cell means)';
    const yDomain = paddedDomain(rows.flatMap((r) => [r[2], r[5], r[6]] as Array<number | null>));
    return {
      paragraphs: [
        `Net bias is the mean keyed stance over both framings (${poles}); swing is half the difference between the framings, the part of the answers that follows the wording rather than the position. A heavy acquiescer sits far right near zero; a convinced respondent sits far from zero whatever its swing.`,
        ...(d.otherArms.length > 0
          ? [
              `Analysed arm: ${d.arm}. Other arms in these scores (not in these charts): ${d.otherArms.map((a) => `${a.arm} (${a.responses} responses)`).join(', ')}.`,
            ]
          : []),
        ...absentSentence(d),
      ],
      charts: [
        {
          id: 'net-vs-swing',
          title: 'Net bias against swing per model',
          alt: 'Scatter plot of swing (x) against net bias (y) per model, with 95 % intervals of net bias',
          data: {
            id: 'net-vs-swing',
            title: 'Net bias, swing and raw agreement per model',
            columns: NET_SWING_COLUMNS,
            rows,
            n,
            interval,
          },
          spec: netSwingSpec([n, `${bars}; filled: Holm p < 0.05`], origins, yDomain),
        },
      ],
      tables: [],
    };
  },
};
