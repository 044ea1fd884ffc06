/**
 * Stance by topic × origin (the instrument paper's Fig. 5 / S4 in summary form) and abstention by
 * topic (the topic-selective abstention analysis). Topic means per model are means of that model's
 * cell means for the topic; origin means are means over models with a one-sample t interval
 * (stats core) when an origin has at least two models; abstention rates and their Wilson
 * intervals come from the analysis.
 */
import type { Cell } from '../../score/types.js';
import { oneSampleT } from '../../stats/index.js';
import { TEXT_COLOUR } from '../chart.js';
import type { ReportSection } from '../types.js';
import {
  hasInstrument,
  instrumentData,
  listWords,
  originColours,
  originOrder,
} from './instrument-data.js';
import { fullNumber } from '../format.js';

/** The analysis the sections read (see `instrumentData`). */
type Data = Awaited<ReturnType<typeof instrumentData>>;

/**
 * Per topic × origin: the number of models, the mean over them of each model's topic value (the
 * mean of its cell means for the topic) and, with two models or more, the one-sample t interval.
 */
function topicOriginRows(d: Data, origins: string[]): Cell[][] {
  const perModelTopic = new Map<string, { origin: string; topic: string; means: number[] }>();
  for (const c of d.analysis.cells) {
    const k = `${c.model}\u0000${c.topic}`;
    const e = perModelTopic.get(k) ?? { origin: c.origin, topic: c.topic, means: [] };
    e.means.push(c.mean);
    perModelTopic.set(k, e);
  }
  const rows: Cell[][] = [];
  for (const topic of d.topics) {
    for (const origin of origins) {
      const values = [...perModelTopic.values()]
        .filter((e) => e.topic === topic && e.origin === origin)
        .map((e) => e.means.reduce((s, v) => s + v, 0) / e.means.length);
      if (values.length === 0) continue;
      const mean = values.reduce((s, v) => s + v, 0) / values.length;
      const t = values.length >= 2 ? oneSampleT(values) : null;
      rows.push([
        topic,
        origin,
        values.length,
        fullNumber(mean),
        fullNumber(t?.ci[0]),
        fullNumber(t?.ci[1]),
      ]);
    }
  }
  return rows;
}

/** The chart's subtitle line on intervals, naming the origins with a single model (no interval). */
function ciLineOf(single: string[], origins: string[]): string {
  return single.length === 0
    ? "95 % CI: one-sample t over an origin's models (bars cut at ±2)"
    : single.length === origins.length
      ? `no intervals: every origin has a single model (${listWords(single)}), so each point is one model's value`
      : `95 % CI: one-sample t over an origin's models (bars cut at ±2); no interval for ${listWords(single)} (a single model: hollow points)`;
}

/**
 * The dot plot's vega-lite spec: a row per topic, a point per origin with its interval cut at the
 * ±2 ends of the axis; hollow points for single-model origins (all filled when every origin has
 * one).
 */
function topicOriginSpec(
  topics: string[],
  origins: string[],
  single: string[],
): Record<string, unknown> {
  return {
    title: {
      text: 'Stance by topic × origin',
      subtitle: [
        "n = models per origin; a model's topic value = mean of its cell means for the topic",
        ciLineOf(single, origins),
      ],
    },
    width: 520,
    height: 300,
    layer: [
      {
        mark: { type: 'rule', strokeDash: [4, 4], color: '#888' },
        encoding: { x: { datum: 0, type: 'quantitative' } },
      },
      {
        encoding: {
          y: { field: 'topic', type: 'nominal', sort: topics, title: null },
          yOffset: { field: 'origin', type: 'nominal', sort: origins },
          color: {
            field: 'origin',
            type: 'nominal',
            title: 'origin',
            scale: { domain: origins, range: originColours(origins) },
          },
        },
        layer: [
          {
            mark: { type: 'rule', strokeWidth: 1.5, clip: true },
            encoding: {
              x: { field: 'lower', type: 'quantitative', scale: { domain: [-2, 2] } },
              x2: { field: 'upper' },
            },
          },
          {
            mark: { type: 'point', filled: true, size: 60, strokeWidth: 2, clip: true },
            encoding: {
              fillOpacity: {
                condition: {
                  test: single.length === origins.length ? 'true' : 'datum.models > 1',
                  value: 1,
                },
                value: 0,
              },
              // the same field and scale as the colour: one legend, "origin", for both
              stroke: {
                field: 'origin',
                type: 'nominal',
                title: 'origin',
                scale: { domain: origins, range: originColours(origins) },
              },
              x: {
                field: 'mean',
                type: 'quantitative',
                title: 'mean keyed stance (− minus pole … + plus pole)',
                scale: { domain: [-2, 2] },
                axis: { values: [-2, -1, 0, 1, 2] },
              },
            },
          },
        ],
      },
    ],
  };
}

export const topicOriginSection: ReportSection = {
  id: 'instrument-topics',
  title: 'Stance by topic and origin',
  applies: hasInstrument,
  build: async (ctx) => {
    const d = await instrumentData(ctx);
    const origins = originOrder(d.analysis.cells.map((c) => c.origin));
    const rows = topicOriginRows(d, origins);
    const n = `n = models per origin (column models); each model's topic value is the mean of its ${Math.round(d.cellsPerModel / Math.max(1, d.topics.length))} cell means for the topic (languages × framings)`;
    const interval =
      '95 % CI: one-sample t over the models of an origin (none with a single model; bars are cut at ±2, the ends of the axis, and the table holds the full interval)';
    const single = origins.filter((o) => rows.some((r) => r[1] === o && r[2] === 1));
    return {
      paragraphs: [
        `Each point is the mean over an origin's models of their mean keyed stance on a topic; the bars show how much the models of one origin disagree.${single.length > 0 ? ` ${listWords(single)} ${single.length === 1 ? 'has' : 'have'} a single model here, so ${single.length === 1 ? 'its points have' : 'their points have'} no bars.` : ''}`,
      ],
      charts: [
        {
          id: 'stance-topic-origin',
          title: 'Mean keyed stance by topic and model origin',
          alt: 'Dot plot of mean keyed stance per topic, one point per model origin, with 95 % intervals',
          data: {
            id: 'stance-topic-origin',
            title: 'Mean keyed stance per topic × origin',
            columns: ['topic', 'origin', 'models', 'mean', 'lower', 'upper'],
            rows,
            n,
            interval,
          },
          spec: topicOriginSpec(d.topics, origins, single),
        },
      ],
      tables: [],
    };
  },
};

/**
 * The heat map's vega-lite spec: abstention rate per model (rows) and topic (columns) on a sqrt
 * colour scale, white where a model never abstained, each cell labelled with its rate.
 */
function abstentionSpec(n: string, topics: string[], models: string[]): Record<string, unknown> {
  return {
    title: {
      text: 'Abstention by topic',
      subtitle: [
        n,
        'cell text: rate (white: none); Wilson 95 % intervals in tables/abstention-topic.csv',
      ],
    },
    width: { step: 70 },
    height: { step: 26 },
    encoding: {
      x: {
        field: 'topic',
        type: 'nominal',
        sort: topics,
        title: null,
        axis: { labelAngle: -30 },
      },
      y: { field: 'model', type: 'nominal', sort: models, title: null },
    },
    transform: [{ calculate: "format(datum.rate * 100, '.1f') + ' %'", as: 'rate_text' }],
    layer: [
      {
        mark: { type: 'rect', stroke: '#ffffff', strokeWidth: 1 },
        encoding: {
          color: {
            condition: { test: 'datum.abstained === 0', value: '#ffffff' },
            field: 'rate',
            type: 'quantitative',
            title: 'abstention',
            // sqrt, so that a few abstentions already show; 0 alone is white
            scale: { type: 'sqrt', domain: [0, 1], range: ['#fff7ec', '#e34a33'] },
            legend: { format: '.0%', values: [0, 0.05, 0.25, 1] },
          },
        },
      },
      {
        mark: { type: 'text', fontSize: 10 },
        encoding: {
          text: { field: 'rate_text' },
          color: {
            condition: { test: 'datum.abstained === 0', value: '#595959' },
            value: TEXT_COLOUR,
          },
        },
      },
    ],
  };
}

export const abstentionSection: ReportSection = {
  id: 'instrument-abstention',
  title: 'Abstention by topic',
  applies: hasInstrument,
  build: async (ctx) => {
    const d = await instrumentData(ctx);
    const a = d.analysis.abstention;
    const rows = a.map((x) => [
      x.model,
      x.topic,
      x.n,
      x.abstained,
      fullNumber(x.rate),
      fullNumber(x.lower),
      fullNumber(x.upper),
    ]);
    const models = [...new Set(a.map((x) => x.model))];
    const n = `n = responses per model × topic (column n; about ${Math.round((d.perCell * d.cellsPerModel) / Math.max(1, d.topics.length))} each)`;
    const interval =
      'Abstention = scored 0 (neutral, refusal, ambiguous, unparseable or missing text); 95 % Wilson score intervals in the table';
    return {
      paragraphs: [
        'Abstention is a stance at neutral, not missing data; its rate per topic shows whether a model avoids particular questions.',
      ],
      charts: [
        {
          id: 'abstention-topic',
          title: 'Abstention rate by model and topic',
          alt: 'Heat map of abstention rate per model and topic',
          data: {
            id: 'abstention-topic',
            title: 'Abstention per model × topic with Wilson 95 % intervals',
            columns: ['model', 'topic', 'n', 'abstained', 'rate', 'lower', 'upper'],
            rows,
            n,
            interval,
          },
          spec: abstentionSpec(n, d.topics, models),
        },
      ],
      tables: [],
    };
  },
};
