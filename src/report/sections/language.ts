/**
 * The language shift (the instrument paper's Fig. 4 / S3): each model's net bias in the first and
 * the second language of the analysed arm (en → zh by default) as a slopegraph, with the
 * across-model paired test of the shift.
 */
import type { ReportSection } from '../types.js';
import {
  hasInstrument,
  instrumentData,
  originColours,
  originOrder,
  r6,
} from './instrument-data.js';

export const languageSection: ReportSection = {
  id: 'instrument-language',
  title: 'The language shift',
  applies: async (ctx) =>
    (await hasInstrument(ctx)) && (await instrumentData(ctx)).analysis.languageShift !== null,
  build: async (ctx) => {
    const d = await instrumentData(ctx);
    const s = d.analysis.languageShift!;
    const rows = s.perModel.flatMap((m) => [
      [m.model, m.origin, s.from, r6(m.netFrom), r6(m.shift), m.cells, r6(m.pCells)],
      [m.model, m.origin, s.to, r6(m.netTo), r6(m.shift), m.cells, r6(m.pCells)],
    ]);
    const origins = originOrder(s.perModel.map((m) => m.origin));
    const t = s.test;
    const n = `n = ${s.perModel.length} models; each language's net bias from ${Math.round(d.cellsPerModel / Math.max(1, d.langs.length))} cell means per model`;
    const interval = t
      ? `Across models: mean shift ${t.meanShift.toFixed(3)} (95 % CI ${t.ci[0].toFixed(3)} to ${t.ci[1].toFixed(3)}, paired t ${t.t.toFixed(2)}, p ${t.pT.toPrecision(2)}; Wilcoxon signed-rank p ${t.pWilcoxon.toPrecision(2)} (${t.wilcoxonMethod}); dz ${t.dz.toFixed(2)}); per model: paired t over matched topic × framing cells (p_cells)`
      : 'Per model: paired t over matched topic × framing cells (p_cells); fewer than 2 models, so no across-model test';
    return {
      paragraphs: [
        `${s.negative} of ${s.perModel.length} models are more toward the minus pole in ${s.to} than in ${s.from}; ${s.positive} move the other way.`,
      ],
      charts: [
        {
          id: 'language-slopegraph',
          title: `Net bias in ${s.from} and ${s.to} per model`,
          alt: `Slopegraph of each model's net bias in ${s.from} and in ${s.to}`,
          data: {
            id: 'language-slopegraph',
            title: `Net bias per model and language (${s.from} → ${s.to})`,
            columns: ['model', 'origin', 'lang', 'net', 'shift', 'cells', 'p_cells'],
            rows,
            n,
            interval,
          },
          spec: {
            title: {
              text: `${s.from} → ${s.to}: net bias per model`,
              subtitle: [
                n,
                t
                  ? `mean shift ${t.meanShift.toFixed(2)}, 95 % CI ${t.ci[0].toFixed(2)} to ${t.ci[1].toFixed(2)} (paired t across models)`
                  : 'no across-model test',
              ],
            },
            width: 360,
            height: 380,
            encoding: {
              x: {
                field: 'lang',
                type: 'ordinal',
                sort: [s.from, s.to],
                title: 'language',
                axis: { labelAngle: 0 },
                scale: { padding: 0.3 },
              },
              y: { field: 'net', type: 'quantitative', title: 'net bias (keyed stance)' },
              color: {
                field: 'origin',
                type: 'nominal',
                title: 'origin',
                scale: { domain: origins, range: originColours(origins) },
              },
              detail: { field: 'model' },
            },
            layer: [
              { mark: { type: 'line', strokeWidth: 1.5 } },
              { mark: { type: 'point', filled: true, size: 50 } },
              {
                transform: [{ filter: `datum.lang === '${s.to}'` }],
                mark: { type: 'text', align: 'left', dx: 8, fontSize: 11 },
                encoding: { text: { field: 'model' } },
              },
            ],
          },
        },
      ],
      tables: [],
    };
  },
};
