/**
 * Every language of every instrument arm: per arm, each model's net bias in each language (with
 * its 95 % interval), the mean stance per topic in each language, and the language shifts as
 * slopegraphs — by default each language against the arm's first (English when the arm has it),
 * or the pairs `report --shift FROM:TO` names. Languages are named by their language packs (English
 * and own name). The arm with the most responses comes first, and its first shift keeps the chart id
 * `language-slopegraph` (the shift `stimkit analyze instrument` computes by default).
 */
import { analyzeArm, armCounts } from '../../analyze/instrument/arms.js';
import type { CellSummary } from '../../analyze/instrument/cells.js';
import { instrumentRowOf } from '../../analyze/instrument-csv.js';
import type { InstrumentRow } from '../../analyze/instrument/types.js';
import { StimkitError } from '../../core/errors.js';
import type { Cell } from '../../score/types.js';
import { oneSampleT } from '../../stats/index.js';
import type { ColumnDefs } from '../dictionary.js';
import {
  languageLabel,
  languageNames,
  unnamedNote,
  withOwnNames,
  type LanguageNames,
} from '../languages.js';
import type { ReportChart, ReportContext, ReportSection, ReportTable } from '../types.js';
import { hasInstrument } from './instrument-data.js';
import { shiftSentence, slopeChart } from './language-shift.js';
import { fullNumber } from '../format.js';

/** A shift asked for: from one language to another. */
interface ShiftPair {
  from: string;
  to: string;
}

/** The languages of rows in order of appearance, the arm's first (English when present) first. */
function armLanguages(rows: readonly InstrumentRow[]): string[] {
  const langs = [...new Set(rows.map((r) => r.lang))];
  return langs.includes('en') ? ['en', ...langs.filter((l) => l !== 'en')] : langs;
}

/** The pairs of one arm: the given ones it has both languages of, else each language against the first. */
function pairsOf(langs: string[], given: readonly ShiftPair[] | undefined): ShiftPair[] {
  if (given) return given.filter((p) => langs.includes(p.from) && langs.includes(p.to));
  return langs.slice(1).map((to) => ({ from: langs[0]!, to }));
}

/** A given pair no arm can compute is an error, naming the languages each arm has. */
function requirePairs(arms: Array<{ arm: string; langs: string[] }>, given: readonly ShiftPair[]) {
  for (const p of given) {
    if (arms.some((a) => a.langs.includes(p.from) && a.langs.includes(p.to))) continue;
    throw StimkitError.fromProblem({
      code: 'E_REPORT_SHIFT',
      field: '--shift',
      message: `no instrument arm has responses in both ${p.from} and ${p.to}`,
      expected: 'FROM:TO, two languages of one arm',
      got: `${p.from}:${p.to}; the arms have ${arms.map((a) => `${a.arm || '(no arm)'}: ${a.langs.join(', ')}`).join('; ')}`,
      fix: 'pass --shift with two languages of one arm, or leave it out for each language against the arm’s first',
    });
  }
}

const slug = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_') || 'none';

/** The cell fields the tables read. */
type Cells = ReadonlyArray<Pick<CellSummary, 'model' | 'origin' | 'topic' | 'lang' | 'mean'>>;

/** Per model × language: net bias (mean of its cell means there), its 95 % CI and the cells. */
export function netRows(cells: Cells, langs: string[], name: (l: string) => string) {
  const models = [...new Set(cells.map((c) => c.model))].sort();
  return models.flatMap((model) =>
    langs.flatMap((lang): Cell[][] => {
      const mine = cells.filter((c) => c.model === model && c.lang === lang);
      if (mine.length === 0) return [];
      const means = mine.map((c) => c.mean);
      const t = means.length >= 2 ? oneSampleT(means) : null;
      const net = means.reduce((a, b) => a + b, 0) / means.length;
      return [
        [
          model,
          mine[0]!.origin,
          lang,
          name(lang),
          fullNumber(net),
          fullNumber(t?.ci[0]),
          fullNumber(t?.ci[1]),
          mine.length,
        ],
      ];
    }),
  );
}

/** Per topic × language: the mean over models of each model's topic mean there, with a t CI over models. */
function stanceRows(cells: Cells, langs: string[], name: (l: string) => string) {
  const topics = [...new Set(cells.map((c) => c.topic))];
  return topics.flatMap((topic) =>
    langs.flatMap((lang): Cell[][] => {
      const byModel = new Map<string, number[]>();
      for (const c of cells)
        if (c.topic === topic && c.lang === lang)
          byModel.set(c.model, [...(byModel.get(c.model) ?? []), c.mean]);
      const values = [...byModel.values()].map((m) => m.reduce((a, b) => a + b, 0) / m.length);
      if (values.length === 0) return [];
      const t = values.length >= 2 ? oneSampleT(values) : null;
      const mean = values.reduce((a, b) => a + b, 0) / values.length;
      return [
        [
          topic,
          lang,
          name(lang),
          values.length,
          fullNumber(mean),
          fullNumber(t?.ci[0]),
          fullNumber(t?.ci[1]),
        ],
      ];
    }),
  );
}

const ci = (end: string, what: string, over: string, empty: string): ColumnDefs[string] => [
  `95 % CI ${end}`,
  'stance',
  `${end === 'low' ? 'Lower' : 'Upper'} end of the 95 % CI of the ${what}: one-sample t ${over}`,
  empty,
];
export const NET_COLUMNS: ColumnDefs = {
  net: ['Net bias', 'stance', 'Mean of the model’s cell means (topic × framing) in this language'],
  lower: ci('low', 'net bias', 'on its cell means', 'no interval: fewer than two cell means'),
  upper: ci('high', 'net bias', 'on its cell means', 'no interval: fewer than two cell means'),
  cells: ['Cells', 'count', 'Cell means (topic × framing) of the model in this language'],
};
const STANCE_COLUMNS: ColumnDefs = {
  models: ['Models', 'count', 'Models with answers on the topic in this language'],
  mean: ['Mean stance', 'stance', 'Mean over models of each model’s mean cell mean for the topic'],
  lower: ci('low', 'mean stance', 'over the models', 'no interval: a single model'),
  upper: ci('high', 'mean stance', 'over the models', 'no interval: a single model'),
};

/** The tables and charts of one arm. */
function armParts(
  arm: string,
  rows: InstrumentRow[],
  pairs: ShiftPair[],
  first: boolean,
  names: LanguageNames,
) {
  const name = (code: string) => languageLabel(names, code);
  const langs = armLanguages(rows);
  const { analysis } = analyzeArm(rows, { arm, shift: pairs[0] });
  const cells = analysis.cells;
  const where = arm === '' ? '' : ` (arm ${arm})`;
  const tables: ReportTable[] = [
    withOwnNames(
      {
        id: `language-net-${slug(arm)}`,
        title: `Net bias per model in each language${where}`,
        columns: ['model', 'origin', 'lang', 'language', 'net', 'lower', 'upper', 'cells'],
        rows: netRows(cells, langs, name),
        n: `n = cell means (topic × framing) per model and language; ${analysis.counts.models} models, ${langs.length} languages`,
        interval: '95 % CI: one-sample t on the model’s cell means in the language',
        columnInfo: NET_COLUMNS,
      },
      names,
    ),
    withOwnNames(
      {
        id: `language-stance-${slug(arm)}`,
        title: `Mean stance per topic in each language${where}`,
        columns: ['topic', 'lang', 'language', 'models', 'mean', 'lower', 'upper'],
        rows: stanceRows(cells, langs, name),
        n: `n = models per topic and language (${analysis.counts.models} in the arm)`,
        interval: '95 % CI: one-sample t over the models’ topic means',
        columnInfo: STANCE_COLUMNS,
      },
      names,
    ),
  ];
  const charts: ReportChart[] = [];
  const sentences: string[] = [];
  for (const [i, p] of pairs.entries()) {
    // each shift as `stimkit analyze instrument --arm ARM --shift FROM:TO` computes it
    const s =
      i === 0 ? analysis.languageShift : analyzeArm(rows, { arm, shift: p }).analysis.languageShift;
    if (!s) continue;
    const id =
      first && i === 0
        ? 'language-slopegraph'
        : `language-slopegraph-${slug(arm)}-${slug(p.from)}-${slug(p.to)}`;
    charts.push(slopeChart(id, cells, s, name));
    sentences.push(`${arm === '' ? '' : `Arm ${arm}: `}${shiftSentence(s, name)}`);
  }
  return { tables, charts, sentences, langs };
}

export const languageSection: ReportSection = {
  id: 'instrument-language',
  title: 'Every language: net bias, stance and the language shift',
  applies: hasInstrument,
  build: async (ctx: ReportContext) => {
    const all = (await ctx.table('instrument.csv'))!.rows.map(instrumentRowOf);
    const names = await languageNames(ctx);
    const name = (code: string) => languageLabel(names, code);
    const arms = armCounts(all).map((a) => {
      const rows = all.filter((r) => (r.arm ?? '') === a.arm);
      return { arm: a.arm, rows, langs: armLanguages(rows) };
    });
    if (ctx.shifts) requirePairs(arms, ctx.shifts);
    const parts = arms.map((a, i) =>
      armParts(a.arm, a.rows, pairsOf(a.langs, ctx.shifts ?? undefined), i === 0, names),
    );
    const how = ctx.shifts
      ? `The shifts asked for (${ctx.shifts.map((p) => `${p.from} → ${p.to}`).join(', ')}) in each arm that has both languages.`
      : 'Each language is compared with the arm’s first (English when the arm has it); stimkit report --shift FROM:TO chooses other pairs.';
    const langs = [...new Set(parts.flatMap((p) => p.langs))];
    const unnamed = unnamedNote(names, langs);
    return {
      paragraphs: [
        `Languages: ${langs.map(name).join(', ')}. ${how}`,
        ...(unnamed ? [`${unnamed}.`] : []),
        ...parts.flatMap((p) => p.sentences),
      ],
      charts: parts.flatMap((p) => p.charts),
      tables: parts.flatMap((p) => p.tables),
    };
  },
};
