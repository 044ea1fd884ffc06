/**
 * Audit sections on the instrument itself: the judges against the human majority (confusion
 * matrices per dimension, precision, recall, raters' AC1 and kappas; Appendix D, Figure A1 and
 * Table A5) with the Appendix G attenuation note and Rogan–Gladen corrected rates; and what the
 * lexical baselines see of the judge's labels (Appendix J). Baselines are never D4.
 */
import { raterAgreement } from '../../audit/agreement.js';
import { baselineRecall } from '../../audit/baseline-recall.js';
import { TEXT_COLOUR } from '../chart.js';
import { fmt, fullNumber } from '../format.js';
import type { ReportSection } from '../types.js';
import { auditRows, hasJudge, judgeNote, validationState } from './audit-data.js';

/** The columns of a reliability table (raters, or judges among themselves), a row per dimension. */
const RATER_COLUMNS = [
  'dim',
  'items',
  'raw_agreement',
  'gwet_ac1',
  'cohen_kappa_mean',
  'fleiss_kappa',
  'prevalence',
];

/** A reliability table's row: the dimension and its agreement coefficients, rounded. */
function reliabilityRow(dim: string, a: ReturnType<typeof raterAgreement>) {
  return [
    dim,
    a.items,
    fullNumber(a.raw_agreement),
    fullNumber(a.gwet_ac1),
    fullNumber(a.cohen_kappa_mean),
    fullNumber(a.fleiss_kappa),
    fullNumber(a.prevalence),
  ];
}

/** The validation report of these scores, as `validationState` holds it when it is shown. */
type Validation = NonNullable<Awaited<ReturnType<typeof validationState>>['report']>;

/** Per dimension × judge: confusion counts, agreement measures, Rogan–Gladen corrected rate. */
function judgeVsHumanRows(v: Validation) {
  return v.dimensions.flatMap((d) =>
    d.judges.map((j) => {
      const c = j.vs_majority;
      const rg = j.attenuation.correction;
      return [
        d.dimension,
        j.judge,
        c.tp,
        c.fn,
        c.fp,
        c.tn,
        c.n,
        fullNumber(c.agreement),
        fullNumber(c.precision),
        fullNumber(c.recall),
        fullNumber(c.specificity),
        fullNumber(c.cohen_kappa),
        rg ? fullNumber(rg.observed.rate) : null,
        rg ? fullNumber(rg.corrected) : null,
        rg ? fullNumber(rg.lower) : null,
        rg ? fullNumber(rg.upper) : null,
      ];
    }),
  );
}

/** Per dimension × judge, the four cells of its confusion matrix, as the chart plots them. */
function confusionCells(v: Validation) {
  return v.dimensions.flatMap((d) =>
    d.judges.flatMap((j) => {
      const c = j.vs_majority;
      return [
        ['TP', 'human +', 'judge +', c.tp],
        ['FN', 'human +', 'judge −', c.fn],
        ['FP', 'human −', 'judge +', c.fp],
        ['TN', 'human −', 'judge −', c.tn],
      ].map(([cell, h, jj, count]) => [d.dimension, j.judge, cell!, h!, jj!, count!]);
    }),
  );
}

/**
 * The vega-lite spec of the confusion-matrix grid: a 2 × 2 panel per dimension (columns) and
 * judge (rows).
 */
function confusionSpec() {
  return {
    title: {
      text: 'Judge vs human majority',
      subtitle: [
        'TP, TN (green, grey): the judge agrees with the human majority; FN (orange): it misses a human positive; FP (blue): it over-calls',
      ],
    },
    facet: {
      column: { field: 'dimension', type: 'nominal', title: null },
      row: {
        field: 'judge',
        type: 'nominal',
        title: null,
        header: {
          labelAngle: 0,
          labelAlign: 'left',
          labelFontWeight: 'bold',
          labelFontSize: 12,
        },
      },
    },
    spec: {
      width: 96,
      height: 96,
      encoding: {
        x: {
          field: 'judge_label',
          type: 'nominal',
          title: 'judge',
          sort: ['judge +', 'judge −'],
          axis: { labelAngle: 0, labelExpr: "replace(datum.label, 'judge ', '')" },
        },
        y: {
          field: 'human',
          type: 'nominal',
          title: 'humans',
          sort: ['human +', 'human −'],
          axis: { labelExpr: "replace(datum.label, 'human ', '')" },
        },
      },
      layer: [
        {
          mark: 'rect',
          encoding: {
            color: {
              field: 'cell',
              type: 'nominal',
              scale: {
                // right answers green (TP) and grey (TN), misses orange, over-calls blue
                domain: ['TP', 'TN', 'FN', 'FP'],
                range: ['#8fd1a8', '#e8e8e8', '#E69F00', '#56B4E9'],
              },
              title: 'cell',
            },
          },
        },
        {
          mark: { type: 'text', fontSize: 12 },
          encoding: {
            text: { field: 'count', type: 'quantitative' },
            color: { value: TEXT_COLOUR },
          },
        },
      ],
    },
  };
}

/** The section's tables: each judge against the human majority, and the raters' reliability. */
function validationTables(v: Validation) {
  return [
    {
      id: 'audit-judge-vs-human',
      title: 'Each judge against the human majority, with the Rogan–Gladen corrected rate',
      columns: [
        'dim',
        'judge',
        'TP',
        'FN',
        'FP',
        'TN',
        'n',
        'agreement',
        'precision',
        'recall',
        'specificity',
        'kappa',
        'judged_rate',
        'corrected_rate',
        'corrected_lower',
        'corrected_upper',
      ],
      rows: judgeVsHumanRows(v),
      n: `n = validation items with both labels; judged rate over all responses the judge labelled`,
      interval:
        'corrected rate: Rogan–Gladen with the validation sensitivity and specificity; 95 % delta-method interval including their sampling error',
    },
    {
      id: 'audit-raters',
      title: 'Inter-rater reliability (Table A5)',
      columns: RATER_COLUMNS,
      rows: v.dimensions.map((d) => reliabilityRow(d.dimension, d.raters)),
      n: `n = items with at least two ratings`,
      interval: 'point estimates',
    },
  ];
}

export const auditValidationSection: ReportSection = {
  id: 'audit-validation',
  title: 'Judges against human labels',
  applies: async (ctx) =>
    (await validationState(ctx)).report !== null || (await validationState(ctx)).note !== null,
  build: async (ctx) => {
    const state = await validationState(ctx);
    if (!state.report) return { paragraphs: [state.note!], charts: [], tables: [] };
    const v = state.report;
    return {
      paragraphs: [
        `${v.items} validation items labelled by ${v.raters.length} raters (${v.raters.join(', ')}); the human majority is the reference.${(v.simulated_raters ?? []).length > 0 ? ` SIMULATED raters: ${v.simulated_raters!.join(', ')} (labels drawn from the simulator\u2019s truth with a set accuracy; they test the pipeline, not the judges).` : ''} Gwet\u2019s AC1 is the primary reliability coefficient: kappa collapses when one label dominates (Appendix D).`,
        v.dimensions[3]?.judges[0]?.attenuation.note ?? '',
      ].filter(Boolean),
      charts: [
        {
          id: 'audit-confusion',
          title: 'Confusion matrices against the human majority',
          alt: 'Grid of 2 by 2 confusion matrices, one per dimension and judge',
          data: {
            id: 'audit-confusion',
            title: 'Confusion cells',
            columns: ['dimension', 'judge', 'cell', 'human', 'judge_label', 'count'],
            rows: confusionCells(v),
            n: `n = ${v.items} items (D3: image trials only)`,
            interval: 'counts',
          },
          spec: confusionSpec(),
        },
      ],
      tables: validationTables(v),
    };
  },
};

/** A 0/1 cell as a boolean; an empty cell (could not be told) as null. */
const flag = (v: string | undefined): boolean | null =>
  v === '1' ? true : v === '0' ? false : null;

export const auditBaselinesSection: ReportSection = {
  id: 'audit-baselines',
  title: 'What lexical baselines see (not D4)',
  applies: hasJudge,
  build: async (ctx) => {
    const rows = await auditRows(ctx);
    const b = baselineRecall(
      // An empty cell is a detector that could not tell (a language without its rules): left
      // out of that detector's positives, not counted as a miss.
      rows.map((r) => ({
        refusal_lexical: flag(r.d1_refusal_lexical),
        marker: flag(r.marker_flag),
        short: r.d6_length_clean ? Number(r.d6_length_clean) < 100 : null,
        ref_d1: r.d1_refusal === '' ? null : r.d1_refusal === '1',
        ref_d4: r.d4_state_aligned === '' ? null : r.d4_state_aligned === '1',
        ref_strategy: (r.d4_strategy ?? '').split('|').filter(Boolean),
      })),
    );
    const rec = (
      name: string,
      x: { positives: number; hits: number; recall: number | null; untold: number },
    ) => [name, x.hits, x.positives, fullNumber(x.recall), x.untold];
    return {
      paragraphs: [
        judgeNote(rows),
        `A keyword refusal detector, the entries\u2019 narrative-marker screen and a short-response detector, against the judge\u2019s labels (Appendix J). ${b.union_on_d4.recall === null ? 'No state-aligned responses were labelled.' : `${fmt(1 - fullNumber(b.union_on_d4.recall)!, 'proportion')} of state-aligned framing is invisible to all three (100 % minus the recall of "any of the three vs D4").`}`,
      ],
      charts: [],
      tables: [
        {
          id: 'audit-baselines',
          title: 'Recall of the lexical baselines against the judge',
          columns: ['baseline vs reference', 'hits', 'positives', 'recall', 'untold'],
          rows: [
            rec('refusal detector vs D1', b.refusal_on_d1),
            rec('refusal detector vs D4', b.refusal_on_d4),
            rec('marker screen vs D4', b.marker_on_d4),
            rec('short response vs D4', b.short_on_d4),
            rec('any of the three vs D4', b.union_on_d4),
            ...b.missed_by_strategy.map((s) => [
              `missed ${s.strategy}`,
              s.missed,
              s.positives,
              fullNumber(s.missed_share),
              s.untold,
            ]),
          ],
          n: 'n = responses the judge labelled positive',
          interval: 'proportions (no interval)',
        },
      ],
    };
  },
};

/** Agreement between several judges on the same responses (judges.csv), per dimension. */
export const auditJudgeAgreementSection: ReportSection = {
  id: 'audit-judge-agreement',
  title: 'Agreement between judges',
  applies: async (ctx) =>
    ((await ctx.table('judges.csv'))?.header.filter((h) => h.endsWith(':d4')).length ?? 0) >= 2,
  build: async (ctx) => {
    const t = (await ctx.table('judges.csv'))!;
    const judges = t.header.filter((h) => h.endsWith(':d4')).map((h) => h.slice(0, -3));
    const rows = (['d1', 'd2', 'd3', 'd4', 'd5'] as const).map((d) => {
      const a = raterAgreement(t.rows.map((r) => judges.map((j) => flag(r[`${j}:${d}`]))));
      return reliabilityRow(d, a);
    });
    return {
      paragraphs: [
        `${judges.length} judges (${judges.join(', ')}) labelled the same responses; the first is primary.`,
      ],
      charts: [],
      tables: [
        {
          id: 'audit-judge-agreement',
          title: 'Agreement between judges per dimension',
          columns: RATER_COLUMNS,
          rows,
          n: 'n = responses at least two judges labelled',
          interval: 'point estimates',
        },
      ],
    };
  },
};
