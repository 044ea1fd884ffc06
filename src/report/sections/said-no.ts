/**
 * "Who said no": per model × route × language, how often the provider's filter blocked the
 * request or the output (`provider_block`), the model declined in a structured way
 * (`model_refusal`) or the reply came back empty at a normal stop (`suppressed`), each with its
 * Wilson 95 % interval; and the audit's D1 read both ways, so that "refused" can be read as "the
 * provider refused" or "the model refused". Reads trials.csv (its `outcome`, `route` and, for VLM
 * rows, `d1_refusal` columns). Shown when trials.csv records outcomes.
 */
import { countSaidNo, rateOf, SAID_NO, saidNoRates, type Rate } from '../../run/said-no.js';
import { currentOutcome, type Outcome } from '../../ledger/schema.js';
import type { Cell } from '../../score/types.js';
import type { ColumnDefs } from '../dictionary.js';
import type { ReportContext, ReportSection } from '../types.js';
import {} from './audit-data.js';
import { fullNumber } from '../format.js';

type Row = Record<string, string>;

/** trials.csv rows that carry an outcome. */
async function outcomeRows(ctx: ReportContext): Promise<Row[]> {
  return ctx.memo('said-no-rows', async () =>
    ((await ctx.table('trials.csv'))?.rows ?? []).filter((r) => (r.outcome ?? '') !== ''),
  );
}

const keyOf = (r: Row) => JSON.stringify([r.model ?? '', r.route || 'unknown', r.language ?? '']);
const outcomeOf = (r: Row): Outcome => currentOutcome(r.outcome!, null);

/**
 * D1 two ways in one group: `with_blocks` counts provider blocks and structured model refusals
 * as refusals among every reply; `model_only` leaves provider blocks out (the trials the model
 * itself answered or declined). Judge-labelled replies count by their `d1_refusal`.
 */
function d1Both(rows: readonly Row[]): { with_blocks: Rate; model_only: Rate } | null {
  let blocks = 0;
  let refusals = 0;
  let answers = 0;
  let judged = 0;
  let d1 = 0;
  for (const r of rows) {
    const o = outcomeOf(r);
    if (o === 'provider_block') blocks++;
    else if (o === 'model_refusal') refusals++;
    else if (o === 'answer') answers++;
    if (o === 'answer' && (r.d1_refusal === '0' || r.d1_refusal === '1')) {
      judged++;
      if (r.d1_refusal === '1') d1++;
    }
  }
  // answers without a judge's label: a D1 rate of the blocks and refusals alone would be 100 %
  if (answers > 0 && judged === 0) return null;
  return {
    with_blocks: rateOf(blocks + refusals + d1, blocks + refusals + judged),
    model_only: rateOf(refusals + d1, refusals + judged),
  };
}

const rateCells = (r: Rate): Cell[] => [
  r.x,
  fullNumber(r.rate),
  fullNumber(r.lower),
  fullNumber(r.upper),
];

/** The table rows: one per model × route × language. */
function tableRows(rows: readonly Row[]): Cell[][] {
  const groups = new Map<string, Row[]>();
  for (const r of rows) groups.set(keyOf(r), [...(groups.get(keyOf(r)) ?? []), r]);
  const counts = countSaidNo(
    rows.map((r) => ({
      model: r.model ?? '',
      route: r.route || 'unknown',
      lang: r.language ?? '',
      outcome: outcomeOf(r),
    })),
  );
  return counts.map((c) => {
    const rates = saidNoRates(c);
    const d1 = d1Both(groups.get(JSON.stringify([c.model, c.route, c.lang])) ?? []);
    const none = [null, null, null, null];
    return [
      c.model,
      c.route,
      c.lang,
      c.n,
      c.outcomes.answer,
      ...SAID_NO.flatMap((o) => rateCells(rates[o])),
      c.outcomes.length,
      c.outcomes.failed,
      ...(d1 ? [d1.with_blocks.n, ...rateCells(d1.with_blocks).slice(1)] : none),
      ...(d1 ? [d1.model_only.n, ...rateCells(d1.model_only).slice(1)] : none),
    ];
  });
}

/** The table's columns, in order. */
const SAID_NO_COLUMNS = [
  'model',
  'route',
  'lang',
  'n',
  'answer',
  ...SAID_NO.flatMap((o) => [o, `${o}_rate`, `${o}_lower`, `${o}_upper`]),
  'truncated',
  'failed',
  'd1_with_blocks_n',
  'd1_with_blocks',
  'd1_with_blocks_lower',
  'd1_with_blocks_upper',
  'd1_model_only_n',
  'd1_model_only',
  'd1_model_only_lower',
  'd1_model_only_upper',
];

const WORDS: Record<(typeof SAID_NO)[number], [string, string]> = {
  provider_block: ['Provider blocks', 'replies a filter outside the model stopped'],
  model_refusal: ['Model refusals', 'replies the model declined in a structured way'],
  suppressed: ['Suppressed', 'empty or whitespace-only replies at a normal stop'],
};
const wilsonEnd = (side: string, what: string) =>
  `${side} end of the Wilson 95 % interval of the ${what}`;
const NO_N = 'no reply in the row';
/** Why a D1 cell is empty. */
const NO_D1 =
  'no reply in the row, or no judge labelled its answers (D1 of the answers needs a judge: stimkit score … --judge NAME)';

/** The data dictionary of the table's columns. */
const SAID_NO_COLUMN_INFO: ColumnDefs = {
  route: [
    'Route',
    'text',
    'The serving route: the upstream provider a gateway named (OpenRouter’s provider), else the endpoint replica, else sim',
  ],
  n: ['Replies', 'count', 'Final results that are not failed (the denominator of every rate)'],
  answer: ['Answers', 'count', 'Replies with text at a normal stop'],
  ...Object.fromEntries(
    SAID_NO.flatMap((o): Array<[string, ColumnDefs[string]]> => [
      [o, [WORDS[o][0], 'count', `Number of ${WORDS[o][1]}`]],
      [`${o}_rate`, [`${WORDS[o][0]} rate`, 'proportion', `Share of ${WORDS[o][1]}`, NO_N]],
      [
        `${o}_lower`,
        [`${WORDS[o][0]} 95 % CI low`, 'proportion', wilsonEnd('Lower', 'rate'), NO_N],
      ],
      [
        `${o}_upper`,
        [`${WORDS[o][0]} 95 % CI high`, 'proportion', wilsonEnd('Upper', 'rate'), NO_N],
      ],
    ]),
  ),
  truncated: ['Truncated', 'count', 'Replies stopped at the token limit (outcome length)'],
  failed: ['Failed', 'count', 'Trials without a reply (left out of n)'],
  d1_with_blocks_n: [
    'D1 n (with blocks)',
    'count',
    'Provider blocks, structured refusals and judge-labelled replies',
    NO_D1,
  ],
  d1_with_blocks: [
    'D1 with blocks',
    'proportion',
    'Refusal rate counting provider blocks and structured refusals as refusals',
    NO_D1,
  ],
  d1_with_blocks_lower: [
    'D1 with blocks 95 % CI low',
    'proportion',
    wilsonEnd('Lower', 'D1 rate'),
    NO_D1,
  ],
  d1_with_blocks_upper: [
    'D1 with blocks 95 % CI high',
    'proportion',
    wilsonEnd('Upper', 'D1 rate'),
    NO_D1,
  ],
  d1_model_only_n: [
    'D1 n (model only)',
    'count',
    'Structured refusals and judge-labelled replies (provider blocks left out)',
    NO_D1,
  ],
  d1_model_only: [
    'D1 model only',
    'proportion',
    'The model’s own refusal rate: provider blocks left out',
    NO_D1,
  ],
  d1_model_only_lower: [
    'D1 model only 95 % CI low',
    'proportion',
    wilsonEnd('Lower', 'D1 rate'),
    NO_D1,
  ],
  d1_model_only_upper: [
    'D1 model only 95 % CI high',
    'proportion',
    wilsonEnd('Upper', 'D1 rate'),
    NO_D1,
  ],
};

export const saidNoSection: ReportSection = {
  id: 'said-no',
  title: 'Who said no',
  applies: async (ctx) => (await outcomeRows(ctx)).length > 0,
  build: async (ctx) => {
    const rows = await outcomeRows(ctx);
    const table = tableRows(rows);
    const judged = rows.some((r) => r.d1_refusal === '0' || r.d1_refusal === '1');
    return {
      paragraphs: [
        'A refusal rate that mixes a provider’s filter with the model’s own refusal measures neither. Each reply is counted once: provider_block (a filter outside the model stopped the request or the output: an HTTP error naming a policy, a content_filter finish, Anthropic’s stop_reason refusal from its streaming classifiers, a Gemini prompt or safety block), model_refusal (the model declined in a structured way: a refusal field), suppressed (an empty reply at a normal stop). A refusal written in the text is the audit’s D1, not one of these. Rates are of the n replies of the model through the route in the language (failed trials, which have no reply, are left out).',
        judged
          ? 'D1 is given two ways: “with blocks” counts provider blocks and structured refusals as refusals among every reply; “model only” leaves the provider’s blocks out, so it reads as the model’s own refusal rate.'
          : 'No judge ran, so the D1 columns are empty wherever the model answered: blocks and structured refusals alone would make every D1 rate 100 %. Score with a judge (stimkit score … --judge NAME) to fill them.',
      ],
      charts: [],
      tables: [
        {
          id: 'said-no',
          title:
            'Provider blocks, model refusals and suppressed replies per model × route × language',
          columns: SAID_NO_COLUMNS,
          rows: table,
          n: `n = replies (not failed) per model × route × language (${rows.length} trials with an outcome in all)`,
          interval: 'Wilson 95 % interval (no continuity correction)',
          columnInfo: SAID_NO_COLUMN_INFO,
        },
      ],
    };
  },
};
