/**
 * "Reasoning": the reasoning channel of the VLM and instrument answers (reasoning.csv;
 * src/analyze/reasoning.ts).
 * How visible each model's reasoning was (stacked counts per model), the rates of thought
 * suppression (a refusal or evasion with an empty or absent reasoning from a model that reasons
 * on its other trials) and of reasoning that states expected facts the answer leaves out, with
 * Wilson 95 % intervals; and, when the study planned thinking on and off, McNemar's test per model
 * and language. Shown when any row recorded how visible its reasoning was.
 */
import {
  ratesCsvRows,
  reasoningRates,
  thinkingCsvRows,
  thinkingTests,
  VISIBILITIES,
} from '../../analyze/reasoning.js';
import type { Cell } from '../../score/types.js';
import { TEXT_COLOUR } from '../chart.js';
import type { ColumnDefs } from '../dictionary.js';
import type { ReportChart, ReportContext, ReportSection, ReportTable } from '../types.js';
import {} from './audit-data.js';
import { fullNumber } from '../format.js';

type Row = Record<string, string>;

async function rowsOf(ctx: ReportContext): Promise<Row[]> {
  return ctx.memo('reasoning-rows', async () => (await ctx.table('reasoning.csv'))?.rows ?? []);
}

/** Colours of the visibilities (Okabe–Ito, distinguishable without colour vision). */
const VIS_COLOURS = ['#0072B2', '#56B4E9', '#E69F00', '#999999', '#D55E00', '#CCCCCC'];

/** Visibility per model, stacked. */
function visibilityChart(rows: readonly Row[]): ReportChart {
  const counts = new Map<string, number>();
  for (const r of rows) {
    const k = JSON.stringify([r.model ?? '', r.reasoning_visibility || 'not_recorded']);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const data = [...counts].map(([k, n]) => [...(JSON.parse(k) as string[]), n] as Cell[]);
  data.sort((a, b) =>
    String(a[0]) < String(b[0])
      ? -1
      : String(a[0]) > String(b[0])
        ? 1
        : VISIBILITIES.indexOf(String(a[1])) - VISIBILITIES.indexOf(String(b[1])),
  );
  return {
    id: 'reasoning-visibility',
    title: 'How visible the reasoning was, per model',
    alt: `Stacked bars: for each model, how many of its replies showed their reasoning in full, as a summary, redacted, absent, empty or not recorded (${rows.length} replies).`,
    spec: {
      title: {
        text: 'Reasoning visibility per model',
        subtitle: [`n = ${rows.length} replies`],
      },
      width: 420,
      height: { step: 22 },
      mark: { type: 'bar' },
      encoding: {
        y: { field: 'model', type: 'nominal', title: null },
        x: { field: 'replies', type: 'quantitative', stack: 'zero', title: 'replies' },
        color: {
          field: 'visibility',
          type: 'nominal',
          scale: { domain: VISIBILITIES, range: VIS_COLOURS },
          legend: { labelColor: TEXT_COLOUR, titleColor: TEXT_COLOUR },
        },
        order: { field: 'order', type: 'quantitative' },
      },
    },
    data: {
      id: 'reasoning-visibility',
      title: 'Replies per model and reasoning visibility',
      columns: ['model', 'visibility', 'replies', 'order'],
      rows: data.map((d) => [...d, VISIBILITIES.indexOf(String(d[1]))]),
      n: `n = ${rows.length} replies`,
      interval: 'counts; no interval',
      columnInfo: COLUMN_INFO,
    },
  };
}

const wilsonEnd = (side: string, what: string) =>
  `${side} end of the Wilson 95 % interval of the ${what}`;
const NOT_TOLD = 'no row of the group could be told (see the not-told count)';

/** The data dictionary of the section's columns. */
const COLUMN_INFO: ColumnDefs = {
  paradigm: ['Paradigm', 'text', 'The paradigm (a VLM paradigm or instrument)'],
  rows: ['Replies', 'count', 'Replies of the model in the language and paradigm'],
  visibility: ['Visibility', 'text', 'full, summary, redacted, absent, empty, or not_recorded'],
  replies: ['Replies', 'count', 'Replies with this visibility'],
  order: ['Stack order', 'count', 'Position of the visibility in the stack'],
  ...Object.fromEntries<ColumnDefs[string]>(
    VISIBILITIES.map((v) => [
      `visibility_${v}`,
      [`Visibility: ${v}`, 'count', `Replies whose reasoning visibility is ${v}`],
    ]),
  ),
  ...Object.fromEntries<ColumnDefs[string]>(
    (
      [
        [
          'thought_suppressed',
          'Thought suppressed',
          'a refusal or evasion with empty or absent reasoning from a model that reasons on its other trials',
        ],
        [
          'reasoning_exceeds_answer',
          'Reasoning exceeds answer',
          'reasoning that states an expected fact the answer does not',
        ],
      ] as const
    ).flatMap(([k, label, what]) => [
      [`${k}_x`, [`${label}`, 'count', `Rows flagged: ${what}`]],
      [`${k}_n`, [`${label} n`, 'count', 'Rows where the flag could be told']],
      [`${k}_rate`, [`${label} rate`, 'proportion', `Share of told rows flagged`, NOT_TOLD]],
      [`${k}_lower`, [`${label} 95 % CI low`, 'proportion', wilsonEnd('Lower', 'rate'), NOT_TOLD]],
      [`${k}_upper`, [`${label} 95 % CI high`, 'proportion', wilsonEnd('Upper', 'rate'), NOT_TOLD]],
      [
        `${k}_not_told`,
        [
          `${label} not told`,
          'count',
          'Rows where the flag could not be told (no reasoning recorded, the model never reasons, no facts to compare, not an answer)',
        ],
      ],
    ]),
  ),
  outcome: [
    'Outcome',
    'text',
    'd1_refusal_lexical (the answer refused, lexical detector) or d1_said_no_lexical (refused, blocked or suppressed)',
  ],
  pairs: ['Pairs', 'count', 'Trials with a value both with thinking on and off'],
  a: ['Both', 'count', 'Pairs with the outcome both with thinking on and off'],
  b: ['On only', 'count', 'Pairs with the outcome with thinking on only (discordant)'],
  c: ['Off only', 'count', 'Pairs with the outcome with thinking off only (discordant)'],
  d: ['Neither', 'count', 'Pairs without the outcome either way'],
  incomplete: ['Incomplete', 'count', 'Trials left out: one side missing or without a value'],
  rate_on: [
    'Rate, thinking on',
    'proportion',
    'Share of the pairs with the outcome with thinking on',
    'no complete pair',
  ],
  rate_off: [
    'Rate, thinking off',
    'proportion',
    'Share of the pairs with the outcome with thinking off',
    'no complete pair',
  ],
  p_exact: [
    'p (exact)',
    'p',
    'Exact binomial McNemar test on the discordant pairs',
    'no complete pair',
  ],
  p_midp: ['p (mid-p)', 'p', 'Mid-p McNemar test', 'no complete pair'],
  chi2_cc: ['χ² (cc)', 'statistic', 'McNemar χ² with continuity correction', 'no discordant pair'],
  p_chi2_cc: ['p (χ² cc)', 'p', 'p of the χ² with continuity correction', 'no discordant pair'],
};

const rounded = (rows: Cell[][]): Cell[][] =>
  rows.map((r) =>
    r.map((c) => (typeof c === 'number' && !Number.isInteger(c) ? fullNumber(c) : c)),
  );

function tablesOf(rows: readonly Row[]): ReportTable[] {
  const rates = ratesCsvRows(reasoningRates(rows));
  const tables: ReportTable[] = [
    {
      id: 'reasoning-rates',
      title:
        'Reasoning visibility, thought suppression and reasoning beyond the answer per model × language × paradigm',
      columns: rates.header,
      rows: rounded(rates.rows),
      n: `n = replies per model × language × paradigm (${rows.length} in all); rates over the rows where each flag could be told`,
      interval: 'Wilson 95 % interval (no continuity correction)',
      columnInfo: COLUMN_INFO,
    },
  ];
  const tests = thinkingTests(rows);
  if (tests.length > 0) {
    const t = thinkingCsvRows(tests);
    tables.push({
      id: 'thinking-mcnemar',
      title: 'Thinking on against off: refusal per model × language (paired)',
      columns: t.header,
      rows: rounded(t.rows),
      n: 'n = pairs: the same trial sent with thinking on and with it off',
      interval: "McNemar's test: exact binomial, mid-p, and χ² with continuity correction",
      columnInfo: COLUMN_INFO,
    });
  }
  return tables;
}

export const reasoningSection: ReportSection = {
  id: 'reasoning',
  title: 'Reasoning',
  applies: async (ctx) => (await rowsOf(ctx)).some((r) => (r.reasoning_visibility ?? '') !== ''),
  build: async (ctx) => {
    const rows = await rowsOf(ctx);
    const shown = rows.some((r) =>
      ['full', 'summary', 'redacted'].includes(r.reasoning_visibility ?? ''),
    );
    return {
      paragraphs: [
        'A reasoning model may think before it answers. How much of that the server showed is recorded per reply: full, summary, redacted (withheld), absent (no reasoning channel) or empty. The reasoning is read as the answer is: the expected facts it states, the lexical refusal, the narrative markers.',
        shown
          ? 'Thought suppressed: the answer refuses or evades while its reasoning is empty or absent, although the same model shows reasoning on its other trials with the same thinking setting (a model that never shows reasoning cannot be told apart, and is left out). Reasoning exceeds answer: the reasoning states an expected fact, by its wording or an alias, that the answer does not.'
          : 'No model showed any reasoning, so neither thought suppression nor reasoning beyond the answer can be told.',
      ],
      // a chart of replies that all lack a reasoning channel says no more than the line above
      charts: rows.some((r) => !['absent', ''].includes(r.reasoning_visibility ?? ''))
        ? [visibilityChart(rows)]
        : [],
      tables: shown ? tablesOf(rows) : [],
    };
  },
};
