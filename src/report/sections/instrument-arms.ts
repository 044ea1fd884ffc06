/**
 * One part per instrument arm (the main arm and every other, e.g. the Portuguese third-language
 * control), each computed exactly as `stimkit analyze instrument --arm ID` computes it (the same
 * `analyzeArm`), so every number here is the CLI's: per-model net bias, swing and tests, the
 * language shift within the arm, and its variance partition.
 */
import { analyzeArm, armCounts, type ArmAnalysis } from '../../analyze/instrument/arms.js';
import { instrumentRowOf } from '../../analyze/instrument-csv.js';
import { INSTRUMENT_COLUMNS } from '../columns/instrument.js';
import type { ReportSection, ReportTable } from '../types.js';
import { hasInstrument } from './instrument-data.js';
import { modelColumns, varianceTables } from './tests.js';

function modelsTable(a: ArmAnalysis): ReportTable {
  const x = a.analysis;
  return {
    id: `arm-${a.arm}-models`,
    title: `Arm ${a.arm}: net bias per model`,
    columnInfo: INSTRUMENT_COLUMNS['model-tests'],
    ...modelColumns(x, [
      'model',
      'origin',
      'net',
      'ci_lower',
      'ci_upper',
      'swing',
      'raw',
      'n_cells',
      'p_t',
      'p_wilcoxon',
      'p_holm',
      'net_answered',
      'abstained_share',
    ]),
    n: `n = ${x.counts.cells} cells (topic × language × framing) of ${x.counts.models} models, ${x.counts.scored} scored responses (${x.counts.abstained} scored 0) in arm ${a.arm}`,
    interval:
      "95 % CI and p_t: one-sample t of net bias on the model's cell means; p_wilcoxon: Wilcoxon signed-rank on the same; p_holm: Holm across the arm's models; the same as `stimkit analyze instrument --arm " +
      a.arm +
      '`',
  };
}

function shiftSentence(a: ArmAnalysis): string {
  const s = a.analysis.languageShift;
  if (!s?.test)
    return `Arm ${a.arm}: no ${a.shift.from} → ${a.shift.to} shift (the arm lacks a language or has too few models).`;
  const t = s.test;
  return `Arm ${a.arm}: ${s.from} → ${s.to} shift of net bias, mean ${t.meanShift.toFixed(3)} [${t.ci[0].toFixed(3)}, ${t.ci[1].toFixed(3)}] (paired t over models, p = ${t.pT.toPrecision(3)}); ${s.negative} of ${s.perModel.length} models shift negative.`;
}

export const instrumentArmsSection: ReportSection = {
  id: 'instrument-arms',
  title: 'Each instrument arm on its own',
  // one arm: the other instrument sections already show it, so it is not repeated here
  applies: async (ctx) =>
    (await hasInstrument(ctx)) &&
    armCounts((await ctx.table('instrument.csv'))!.rows.map(instrumentRowOf)).length > 1,
  build: async (ctx) => {
    const rows = (await ctx.table('instrument.csv'))!.rows.map(instrumentRowOf);
    const arms = armCounts(rows);
    const parts = arms.map((x) => analyzeArm(rows, { arm: x.arm }));
    return {
      paragraphs: [
        `The instrument's arms (${arms.map((x) => `${x.arm} ${x.responses} responses`).join(', ')}) are analysed one at a time; the other instrument sections show ${arms[0]?.arm ?? 'the largest arm'}, the arm with the most responses. Each part below equals \`stimkit analyze instrument --arm ID\` on instrument.csv.`,
        ...parts.map(shiftSentence),
      ],
      charts: [],
      tables: parts.flatMap((a) => [
        modelsTable(a),
        ...varianceTables(a.analysis, { id: `arm-${a.arm}-`, title: `Arm ${a.arm}: ` }),
      ]),
    };
  },
};
