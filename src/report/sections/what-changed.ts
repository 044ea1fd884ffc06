/**
 * "What changed" (`report <scores A> --compare <scores B>`): the comparison `stimkit compare`
 * makes of two runs of one sealed bundle, on the page: exact McNemar per model × paradigm ×
 * language × column with Holm across the cells of each column, the transitions that changed
 * something, and the trials scored on one side only. Shown when the report is given both.
 */
import { compareScores, type CompareResult } from '../../compare/index.js';
import type { Cell } from '../../score/types.js';
import type { ColumnDefs } from '../dictionary.js';
import type { ReportContext, ReportSection, ReportTable } from '../types.js';

/** The comparison of the report's scores (A) with `--compare`'s (B), made once per report. */
export const compared = (ctx: ReportContext): Promise<CompareResult> =>
  ctx.memo('what-changed', () => compareScores(ctx.scoresDir, ctx.compareDir ?? ''));

const NO_TEST = 'no pair has a binary value on both sides (see reason)';
const COLUMN_INFO: ColumnDefs = {
  paradigm: ['Paradigm', 'text', 'The trial paradigm'],
  column: [
    'Column',
    'text',
    'What is compared: outcome, the instrument label, or an audit label (d1_refusal … d5_language_consistent, d4_strategy)',
  ],
  positive: [
    'Counted as 1',
    'text',
    'The value McNemar counts as 1 (every other binary value is 0)',
  ],
  n: ['Pairs', 'count', 'Trials scored in both runs with a binary value on both sides'],
  excluded: [
    'Left out',
    'count',
    'Paired trials without a binary value on a side (a non-answer, no label)',
  ],
  a: ['1 → 1', 'count', 'Pairs with 1 in A and in B'],
  b: ['1 → 0', 'count', 'Pairs with 1 in A and 0 in B'],
  c: ['0 → 1', 'count', 'Pairs with 0 in A and 1 in B'],
  d: ['0 → 0', 'count', 'Pairs with 0 in A and in B'],
  p_exact: [
    'p (exact)',
    'p',
    'Exact McNemar: 2 · P(X ≤ min(b, c)), X ~ Bin(b + c, ½), capped at 1',
    NO_TEST,
  ],
  p_holm: [
    'p (Holm)',
    'p',
    'p (exact) adjusted by Holm across the cells of the same column',
    NO_TEST,
  ],
  reason: ['Why no test', 'text', 'Why p is empty', 'p was computed'],
  from: [
    'In A',
    'text',
    'The value in run A; an empty cell reads as outcome:<outcome>, reason:<reason>, judge:<status> or empty',
  ],
  to: ['In B', 'text', 'The value in run B, read the same way'],
  side: [
    'Scored in',
    'text',
    'The run (a or b) that scored the trial; the other has no score for it',
  ],
  trial: ['Trial', 'text', 'The trial id in the sealed bundle'],
};

function table(
  id: string,
  title: string,
  columns: string[],
  rows: Cell[][],
  n: string,
  interval: string,
): ReportTable {
  return { id, title, columns, rows, n, interval, columnInfo: COLUMN_INFO };
}

const CELL = ['model', 'paradigm', 'lang', 'column'];

export const whatChangedSection: ReportSection = {
  id: 'what-changed',
  title: 'What changed',
  applies: (ctx) => typeof ctx.compareDir === 'string',
  build: async (ctx) => {
    const r = await compared(ctx);
    const c = r.counts;
    const moved = r.transitions.filter((t) => t.from !== t.to);
    const unpaired: Cell[][] = [
      ...r.only_a.map((t) => ['a', t.trial, t.model, t.paradigm, t.language]),
      ...r.only_b.map((t) => ['b', t.trial, t.model, t.paradigm, t.language]),
    ];
    return {
      paragraphs: [
        `This report's scores (A) compared with the scores given with --compare (B, score.json sha256 ${r.b.score_json_sha256}), both of bundle ${r.bundle.digest}: ${c.paired} trial × model pairs, of which ${c.changed} changed in their outcome or a label; ${c.only_a} scored only in A and ${c.only_b} only in B (listed below, not dropped).`,
        'A value that is empty because the model did not answer reads as the outcome (outcome:provider_block), never as 0; an answer without a label reads as the scorer’s reason (reason:unparseable) or the judge’s status (judge:failed). Each binary column is tested per model × paradigm × language with the exact McNemar test (the binomial test of the discordant pairs b and c), and Holm’s correction is applied across the cells of each column.',
      ],
      charts: [],
      tables: [
        table(
          'what-changed-mcnemar',
          'Exact McNemar per model × paradigm × language × column',
          [...CELL, 'positive', 'n', 'excluded', 'a', 'b', 'c', 'd', 'p_exact', 'p_holm', 'reason'],
          r.mcnemar.map((m) => [
            m.model,
            m.paradigm,
            m.language,
            m.column,
            m.positive,
            m.n,
            m.excluded,
            m.a,
            m.b,
            m.c,
            m.d,
            m.p_exact,
            m.p_holm,
            m.reason,
          ]),
          'n = trials scored in both runs with a binary value on both sides',
          'exact McNemar (binomial, two-sided); Holm across the cells of each column',
        ),
        table(
          'what-changed-transitions',
          'Transitions that changed a value (A → B), per model × paradigm × language × column',
          [...CELL, 'from', 'to', 'n'],
          moved.map((t) => [t.model, t.paradigm, t.language, t.column, t.from, t.to, t.n]),
          'n = paired trials with that transition (unchanged ones are in compare’s transitions.csv)',
          'counts; no interval',
        ),
        ...(unpaired.length === 0
          ? []
          : [
              table(
                'what-changed-unpaired',
                'Trials scored in one run only',
                ['side', 'trial', 'model', 'paradigm', 'lang'],
                unpaired,
                'one row per trial × model scored in one run only',
                'none',
              ),
            ]),
      ],
    };
  },
};
