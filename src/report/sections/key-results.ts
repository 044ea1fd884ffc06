/**
 * Key results, first on the page: D4 (state-aligned framing) and D1 (refusal) per model ×
 * language with Wilson intervals, the instrument's net bias per model × language, who said no per
 * model × route, what the run cost, and example responses shown inline (from the run ledger),
 * each with the trial id that `stimkit view` opens. Every number is also in a later section.
 */
import { countSaidNo, rateOf } from '../../run/said-no.js';
import { currentOutcome } from '../../ledger/schema.js';
import type { Cell } from '../../score/types.js';
import type { ColumnDefs } from '../dictionary.js';
import { languageLabel, languageNames, withOwnNames } from '../languages.js';
import type { ReportContext, ReportSection, ReportTable } from '../types.js';
import { auditRows, groupBy, hasJudge, rate } from './audit-data.js';
import { exampleResponses } from './examples.js';
import { hasInstrument, instrumentData } from './instrument-data.js';
import { NET_COLUMNS, netRows } from './language.js';
import { fullNumber } from '../format.js';

const NO_JUDGE =
  'no judge ran: D4 and D1 are a judge’s labels (stimkit score … --judge NAME fills them)';
const wilsonCols = (dim: string, what: string): ColumnDefs => ({
  [`${dim}_x`]: [`${dim.toUpperCase()} yes`, 'count', `Answers labelled ${what}`, NO_JUDGE],
  [`${dim}_n`]: [
    `${dim.toUpperCase()} n`,
    'count',
    `Answers with a ${dim.toUpperCase()} label`,
    NO_JUDGE,
  ],
  [dim]: [`${dim.toUpperCase()} rate`, 'proportion', `Share of answers labelled ${what}`, NO_JUDGE],
  [`${dim}_lower`]: [
    `${dim.toUpperCase()} 95 % CI low`,
    'proportion',
    'Lower end of the Wilson 95 % interval',
    NO_JUDGE,
  ],
  [`${dim}_upper`]: [
    `${dim.toUpperCase()} 95 % CI high`,
    'proportion',
    'Upper end of the Wilson 95 % interval',
    NO_JUDGE,
  ],
});
const AUDIT_COLUMNS: ColumnDefs = {
  answers: [
    'Answers',
    'count',
    'Rows of audit.csv the rates use (answers; for D1 also structured refusals)',
  ],
  ...wilsonCols('d4', 'state-aligned framing'),
  ...wilsonCols('d1', 'an explicit refusal'),
};

/** D4 and D1 per model × language, with Wilson intervals; empty cells with a reason without a judge. */
async function auditTable(ctx: ReportContext): Promise<ReportTable | null> {
  const rows = await auditRows(ctx);
  if (rows.length === 0) return null;
  const judged = await hasJudge(ctx);
  const names = await languageNames(ctx);
  const cells = (r: ReturnType<typeof rate>): Cell[] =>
    judged
      ? [r.x, r.n, fullNumber(r.rate), fullNumber(r.lower), fullNumber(r.upper)]
      : [null, null, null, null, null];
  return withOwnNames(
    {
      id: 'key-audit',
      title: 'State-aligned framing (D4) and refusal (D1) per model and language',
      columns: [
        'model',
        'origin',
        'lang',
        'language',
        'answers',
        'd4_x',
        'd4_n',
        'd4',
        'd4_lower',
        'd4_upper',
        'd1_x',
        'd1_n',
        'd1',
        'd1_lower',
        'd1_upper',
      ],
      rows: groupBy(rows, ['model', 'origin', 'lang']).map(
        ({ key: [model, origin, lang], rows: rs }) => [
          model!,
          origin || 'unknown',
          lang!,
          languageLabel(names, lang!),
          rs.length,
          ...cells(rate(rs, 'd4_state_aligned')),
          ...cells(rate(rs, 'd1_refusal')),
        ],
      ),
      n: `n = judged answers per model × language (${rows.length} VLM rows)`,
      interval: 'Wilson 95 % interval (no continuity correction)',
      columnInfo: AUDIT_COLUMNS,
      sources: ['audit.csv'],
    },
    names,
  );
}

const ROUTE_COLUMNS: ColumnDefs = {
  route: [
    'Route',
    'text',
    'The serving route (a gateway’s upstream provider, else the endpoint replica, else sim)',
  ],
  n: ['Replies', 'count', 'Final results that are not failed'],
  answer: ['Answers', 'count', 'Replies with text at a normal stop'],
  provider_block: ['Provider blocks', 'count', 'Replies a filter outside the model stopped'],
  model_refusal: ['Model refusals', 'count', 'Replies the model declined in a structured way'],
  suppressed: ['Suppressed', 'count', 'Empty replies at a normal stop'],
  said_no: ['Said no', 'count', 'Provider blocks + model refusals + suppressed replies'],
  said_no_rate: ['Said no rate', 'proportion', 'said no / replies', 'no reply'],
  said_no_lower: [
    'Said no 95 % CI low',
    'proportion',
    'Lower end of the Wilson 95 % interval',
    'no reply',
  ],
  said_no_upper: [
    'Said no 95 % CI high',
    'proportion',
    'Upper end of the Wilson 95 % interval',
    'no reply',
  ],
};

/** Who said no per model × route (all languages together), from trials.csv's outcomes. */
async function routeTable(ctx: ReportContext): Promise<ReportTable | null> {
  const rows = ((await ctx.table('trials.csv'))?.rows ?? []).filter(
    (r) => (r.outcome ?? '') !== '',
  );
  if (rows.length === 0) return null;
  const counts = countSaidNo(
    rows.map((r) => ({
      model: r.model ?? '',
      route: r.route || 'unknown',
      lang: '',
      outcome: currentOutcome(r.outcome!, null),
    })),
  );
  return {
    id: 'key-said-no',
    title: 'Who said no, per model and route',
    columns: [
      'model',
      'route',
      'n',
      'answer',
      'provider_block',
      'model_refusal',
      'suppressed',
      'said_no',
      'said_no_rate',
      'said_no_lower',
      'said_no_upper',
    ],
    rows: counts.map((c) => {
      const o = c.outcomes;
      const no = o.provider_block + o.model_refusal + o.suppressed;
      const r = rateOf(no, c.n);
      return [
        c.model,
        c.route,
        c.n,
        o.answer,
        o.provider_block,
        o.model_refusal,
        o.suppressed,
        no,
        fullNumber(r.rate),
        fullNumber(r.lower),
        fullNumber(r.upper),
      ];
    }),
    n: `n = replies (not failed) per model × route (${rows.length} trials with an outcome); per language in “Who said no”`,
    interval: 'Wilson 95 % interval (no continuity correction)',
    columnInfo: ROUTE_COLUMNS,
    sources: ['trials.csv'],
  };
}

/** The instrument's net bias per model × language in the analysed arm (as its language section). */
async function instrumentTable(ctx: ReportContext): Promise<ReportTable | null> {
  if (!(await hasInstrument(ctx))) return null;
  const d = await instrumentData(ctx);
  const names = await languageNames(ctx);
  const langs = d.langs.includes('en') ? ['en', ...d.langs.filter((l) => l !== 'en')] : d.langs;
  return withOwnNames(
    {
      id: 'key-instrument',
      title: `Net bias per model and language${d.arm ? ` (arm ${d.arm})` : ''}`,
      columns: ['model', 'origin', 'lang', 'language', 'net', 'lower', 'upper', 'cells'],
      rows: netRows(d.analysis.cells, langs, (l) => languageLabel(names, l)),
      n: `n = cell means (topic × framing) per model and language; ${d.analysis.counts.models} models${d.absent.length ? `; no estimate for ${d.absent.map((m) => `${m.model} (${m.reason})`).join(', ')}` : ''}`,
      interval: '95 % CI: one-sample t on the model’s cell means in the language',
      columnInfo: NET_COLUMNS,
      sources: ['instrument.csv'],
    },
    names,
  );
}

/** The cost in one sentence, from cost.csv (null when no result reported usage). */
async function costSentence(ctx: ReportContext): Promise<string | null> {
  const rows = (await ctx.table('cost.csv'))?.rows ?? [];
  if (!rows.some((r) => Number(r.with_usage || 0) > 0)) return null;
  const priced = rows.filter((r) => (r.cost_usd ?? '') !== '');
  const total = priced.reduce((a, r) => a + Number(r.cost_usd), 0);
  const unpriced = rows.filter((r) => Number(r.unpriced || 0) > 0).map((r) => r.model!);
  const none = unpriced.length > 0 ? `no price for ${unpriced.join(', ')}, so not counted` : '';
  if (priced.length === 0)
    return `Cost: no model has a price in the models file, so no cost is computed (${none}); the tokens are in “Cost per model”.`;
  return `Cost: $${total.toFixed(4)} recorded for ${priced.length} priced model(s), judges included${none ? `; ${none}` : ''} (“Cost per model”).`;
}

export const keyResultsSection: ReportSection = {
  id: 'key-results',
  title: 'Key results',
  applies: (ctx) => ctx.header.counts.records > 0,
  build: async (ctx) => {
    const tables = [
      await instrumentTable(ctx),
      await auditTable(ctx),
      await routeTable(ctx),
    ].filter((t): t is ReportTable => t !== null);
    const cost = await costSentence(ctx);
    const examples = await exampleResponses(ctx);
    const judged = await hasJudge(ctx);
    const audit = (await auditRows(ctx)).length > 0;
    return {
      paragraphs: [
        `${ctx.header.counts.records} responses of ${ctx.header.counts.models.length} model(s). The sections below give each number with its test; this one gathers the first ones to read.`,
        ...(audit && !judged ? [`D4 and D1 are empty: ${NO_JUDGE}.`] : []),
        ...(cost ? [cost] : []),
        ...examples.paragraphs,
      ],
      charts: [],
      tables: [...tables, ...examples.tables],
      examples: examples.examples,
    };
  },
};
