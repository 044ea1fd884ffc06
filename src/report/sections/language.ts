/**
 * The language shift (the instrument paper's Fig. 4 / S3): each model's net bias in the first and
 * the second language of the analysed arm (en → zh by default) as a slopegraph, each point with
 * the 95 % interval of that model's net bias in that language (one-sample t on its cell means in
 * the language), with the across-model paired test of the shift.
 */
import type { LanguageShift } from '../../analyze/instrument/shift.js';
import { oneSampleT } from '../../stats/index.js';
import { TEXT_COLOUR } from '../chart.js';
import { fmt } from '../format.js';
import type { ReportSection } from '../types.js';
import {
  hasInstrument,
  instrumentData,
  listWords,
  originColours,
  originOrder,
  paddedDomain,
  r6,
  type InstrumentData,
} from './instrument-data.js';

/** The 95 % CI of a model's net bias in one language: t on its cell means there (null below 2). */
function langCi(d: InstrumentData, model: string, lang: string): [number | null, number | null] {
  const means = d.analysis.cells
    .filter((c) => c.model === model && c.lang === lang)
    .map((c) => c.mean);
  if (means.length < 2) return [null, null];
  const t = oneSampleT(means);
  return [r6(t.ci[0]), r6(t.ci[1])];
}

const verb = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "2 of 3 models are more toward the minus pole in zh than in en; 1 moves the other way." */
export function shiftSentence(
  s: Pick<LanguageShift, 'from' | 'to' | 'negative' | 'positive' | 'perModel'>,
): string {
  const still = s.perModel.length - s.negative - s.positive;
  return `${s.negative} of ${s.perModel.length} model${s.perModel.length === 1 ? '' : 's'} ${s.negative === 1 ? 'is' : 'are'} more toward the minus pole in ${s.to} than in ${s.from}; ${verb(s.positive, 'moves', 'move')} the other way${still > 0 ? ` and ${verb(still, 'does', 'do')} not move` : ''}.`;
}

/** Per model and language (first, then second): net bias, its interval, cells, shift, p_cells. */
function slopeRows(d: InstrumentData, s: LanguageShift) {
  return s.perModel.flatMap((m) =>
    (
      [
        [s.from, m.netFrom],
        [s.to, m.netTo],
      ] as const
    ).map(([lang, net]) => {
      const cells = d.analysis.cells.filter((c) => c.model === m.model && c.lang === lang);
      return [
        m.model,
        m.origin,
        lang,
        r6(net),
        ...langCi(d, m.model, lang),
        cells.length,
        r6(m.shift),
        r6(m.pCells),
      ];
    }),
  );
}

/** The slopegraph data's interval sentence, with the across-model test when there is one. */
function slopeInterval(t: LanguageShift['test'], across: string): string {
  return t
    ? `Per point: 95 % CI of the model's net bias in that language, one-sample t on its cell means there. Across models: ${across}, t ${fmt(t.t, 'statistic')}, p ${fmt(t.pT, 'p')}; Wilcoxon signed-rank p ${fmt(t.pWilcoxon, 'p')} (${t.wilcoxonMethod}); dz ${fmt(t.dz, 'statistic')}. Per model: paired t over matched topic × framing cells (p_cells)`
    : "Per point: 95 % CI of the model's net bias in that language, one-sample t on its cell means there. Per model: paired t over matched topic × framing cells (p_cells); fewer than 2 models, so no across-model test";
}

/**
 * The slopegraph's vega-lite spec: one line per model from the first language to the second,
 * interval bars at both ends, coloured by origin, labelled at the second language.
 */
function slopeSpec(
  s: LanguageShift,
  subtitle: string[],
  origins: string[],
  yDomain: [number, number],
): Record<string, unknown> {
  return {
    title: { text: `${s.from} → ${s.to}: net bias per model`, subtitle },
    width: 420,
    height: 380,
    encoding: {
      x: {
        field: 'lang',
        type: 'ordinal',
        sort: [s.from, s.to],
        title: 'language',
        axis: { labelAngle: 0 },
        scale: { type: 'band', paddingInner: 0.55, paddingOuter: 0.25 },
      },
      xOffset: { field: 'model', type: 'nominal', scale: { type: 'point', padding: 0.5 } },
      y: {
        field: 'net',
        type: 'quantitative',
        title: 'net bias (keyed stance)',
        scale: { domain: yDomain, nice: false },
      },
      color: {
        field: 'origin',
        type: 'nominal',
        title: 'origin',
        scale: { domain: origins, range: originColours(origins) },
      },
      detail: { field: 'model' },
    },
    layer: [
      {
        mark: { type: 'rule', strokeWidth: 1.5 },
        encoding: { y: { field: 'lower', type: 'quantitative' }, y2: { field: 'upper' } },
      },
      { mark: { type: 'line', strokeWidth: 1.5 } },
      { mark: { type: 'point', filled: true, size: 50 } },
      {
        transform: [{ filter: `datum.lang === ${JSON.stringify(s.to)}` }],
        mark: { type: 'text', align: 'left', dx: 10, fontSize: 11, color: TEXT_COLOUR },
        encoding: { text: { field: 'model' }, color: { value: TEXT_COLOUR } },
      },
    ],
  };
}

export const languageSection: ReportSection = {
  id: 'instrument-language',
  title: 'The language shift',
  applies: async (ctx) =>
    (await hasInstrument(ctx)) && (await instrumentData(ctx)).analysis.languageShift !== null,
  build: async (ctx) => {
    const d = await instrumentData(ctx);
    const s = d.analysis.languageShift!;
    const rows = slopeRows(d, s);
    const noCi = [...new Set(rows.filter((r) => r[4] === null).map((r) => String(r[0])))];
    const origins = originOrder(s.perModel.map((m) => m.origin));
    const t = s.test;
    const n = `n = ${s.perModel.length} models; each language's net bias from ${Math.round(d.cellsPerModel / Math.max(1, d.langs.length))} cell means per model`;
    const across = t
      ? `mean shift ${fmt(t.meanShift, 'stance')}, 95 % CI ${fmt(t.ci[0], 'stance')} to ${fmt(t.ci[1], 'stance')} (paired t across models)`
      : 'no across-model test (fewer than 2 models)';
    const bars = noCi.length
      ? `bars: 95 % CI per model and language; no bar for ${listWords(noCi)} (fewer than 2 cell means)`
      : 'bars: 95 % CI per model and language (t on its cell means)';
    const yDomain = paddedDomain(rows.flatMap((r) => [r[3], r[4], r[5]] as Array<number | null>));
    return {
      paragraphs: [shiftSentence(s)],
      charts: [
        {
          id: 'language-slopegraph',
          title: `Net bias in ${s.from} and ${s.to} per model`,
          alt: `Slopegraph of each model's net bias in ${s.from} and in ${s.to}, with 95 % intervals`,
          data: {
            id: 'language-slopegraph',
            title: `Net bias per model and language (${s.from} → ${s.to})`,
            columns: [
              'model',
              'origin',
              'lang',
              'net',
              'lower',
              'upper',
              'cells',
              'shift',
              'p_cells',
            ],
            rows,
            n,
            interval: slopeInterval(t, across),
          },
          spec: slopeSpec(s, [n, across, bars], origins, yDomain),
        },
      ],
      tables: [],
    };
  },
};
