/**
 * "Pressure": how stances move when the answer is challenged over further turns (pressure.csv and
 * pressure-conversations.csv; the numbers of `stimkit analyze pressure`, src/analyze/pressure.ts,
 * with its default outcome rule). A chart of each model's share of conversations whose stance
 * differs from the first answer at each turn, with Wilson intervals; the `pressure` table per
 * model × language × turn; the conversation measures (FlipFlop, SYCON-Bench, the direction); and
 * in words what could not be computed. Shown when the scores folder has pressure.csv with rows.
 */
import { selectOutcomes } from '../../analyze/outcomes.js';
import {
  conversationsCsvRows,
  pressureConversations,
  pressureTurns,
  turnsCsvRows,
  type PressureConversationRow,
  type PressureTurnRow,
} from '../../analyze/pressure.js';
import { tableFromRows } from '../../analyze/table.js';
import type { Cell } from '../../score/types.js';
import { PRESSURE_COLUMNS } from '../columns/pressure.js';
import { fmt, fullNumber } from '../format.js';
import type { ReportChart, ReportContext, ReportSection, ReportTable } from '../types.js';
import {} from './audit-data.js';

type Row = Record<string, string>;

/** Line colours of the models (Okabe–Ito, distinguishable without colour vision), in model order. */
const MODEL_COLOURS = [
  '#0072B2',
  '#D55E00',
  '#009E73',
  '#CC79A7',
  '#E69F00',
  '#56B4E9',
  '#000000',
  '#F0E442',
];

interface PressureData {
  rows: Row[];
  turns: PressureTurnRow[];
  pooled: PressureTurnRow[];
  conversations: PressureConversationRow[] | null;
  /** Rows the default outcome rule left out, per outcome. */
  leftOut: Record<string, number>;
}

async function pressureData(ctx: ReportContext): Promise<PressureData | null> {
  return ctx.memo('pressure', async () => {
    const t = await ctx.table('pressure.csv');
    if (!t || t.rows.length === 0) return null;
    const { table, selection } = selectOutcomes(
      tableFromRows('pressure.csv', '', t.header, t.rows),
      'changed',
    );
    const kept = new Set(table.rows);
    const conv = await ctx.table('pressure-conversations.csv');
    return {
      rows: t.rows,
      turns: pressureTurns(t.rows, kept),
      pooled: pressureTurns(t.rows, kept, true),
      conversations: conv ? pressureConversations(conv.rows) : null,
      leftOut: selection?.left_out ?? {},
    };
  });
}

const rounded = (rows: Cell[][]): Cell[][] =>
  rows.map((r) =>
    r.map((c) => (typeof c === 'number' && !Number.isInteger(c) ? fullNumber(c) : c)),
  );

/** The turn-by-turn chart: per model, the share changed at each turn after the first. */
function turnChart(pooled: readonly PressureTurnRow[]): ReportChart {
  const later = pooled.filter((t) => t.turn > 1);
  const models = [...new Set(later.map((t) => t.model))];
  const rows: Cell[][] = later.map((t) => [
    t.model,
    t.turn,
    t.followup,
    t.changed.x,
    t.changed.n,
    fullNumber(t.changed.rate),
    fullNumber(t.changed.lower),
    fullNumber(t.changed.upper),
  ]);
  const empty = later.filter((t) => t.changed.n === 0);
  const nShort = 'n = conversations read at the turn and at turn 1';
  const n = `${nShort} (${later.reduce((s, t) => s + t.changed.n, 0)} in all, languages pooled)`;
  const gaps = empty.length
    ? `; no point where no conversation had a value (${empty.map((t) => `${t.model} turn ${t.turn}`).join(', ')})`
    : '';
  const y = { type: 'quantitative', scale: { domain: [0, 1] } };
  return {
    id: 'pressure-turns',
    title: 'Stance changed from the first answer, by turn',
    alt: `Line chart: for each of ${models.length} models, the share of conversations whose stance at turns 2 onwards differs from the first answer, with Wilson 95 % intervals.`,
    data: {
      id: 'pressure-turns',
      title: 'Share of conversations changed from turn 1, per model and turn',
      columns: ['model', 'turn', 'followup', 'x', 'n', 'rate', 'lower', 'upper'],
      rows,
      n,
      interval: `Wilson 95 % intervals (no continuity correction)${gaps}`,
      columnInfo: PRESSURE_COLUMNS,
    },
    spec: {
      title: {
        text: 'Stance changed from the first answer',
        subtitle: [nShort, 'bars: Wilson 95 % intervals'],
      },
      width: 420,
      height: 260,
      encoding: {
        x: {
          field: 'turn',
          type: 'ordinal',
          title: 'turn (2 = the first follow-up)',
          axis: { labelAngle: 0 },
          scale: { type: 'band', paddingInner: 0.4 },
        },
        xOffset: { field: 'model', type: 'nominal', scale: { type: 'point', padding: 0.5 } },
        color: {
          field: 'model',
          type: 'nominal',
          title: 'model',
          scale: {
            domain: models,
            range: models.map((_, i) => MODEL_COLOURS[i % MODEL_COLOURS.length]!),
          },
        },
      },
      layer: [
        {
          mark: { type: 'rule', strokeWidth: 1.5 },
          encoding: {
            y: { field: 'lower', ...y, title: 'share changed from turn 1', axis: { format: '%' } },
            y2: { field: 'upper' },
          },
        },
        {
          mark: { type: 'line', point: { filled: true, size: 40 } },
          encoding: { y: { field: 'rate', ...y } },
        },
      ],
    },
  };
}

function tablesOf(d: PressureData): ReportTable[] {
  const t = turnsCsvRows(d.turns);
  const tables: ReportTable[] = [
    {
      id: 'pressure',
      title: 'Stance changed from the first answer per model × language × turn',
      columns: t.header,
      rows: rounded(t.rows),
      n: `n = conversations whose stance was read at the turn and at turn 1 (${d.rows.length} planned turns in all)`,
      interval: 'Wilson 95 % interval (no continuity correction)',
      columnInfo: PRESSURE_COLUMNS,
    },
  ];
  if (d.conversations) {
    const all = conversationsCsvRows(d.conversations);
    // the page's short table: analyze pressure's without side_changed_ever and the SD of flips
    const keep = all.header.flatMap((h, i) =>
      h.startsWith('side_changed_ever') || h === 'flips_sd' ? [] : [i],
    );
    const c = {
      header: keep.map((i) => all.header[i]!),
      rows: all.rows.map((r) => keep.map((i) => r[i] as Cell)),
    };
    tables.push({
      id: 'pressure-conversations',
      title: 'Per conversation: changed ever, final change, flips and the turn of the first change',
      columns: c.header,
      rows: rounded(c.rows),
      n: `n = conversations per model × language (${d.conversations.reduce((s, r) => s + r.conversations, 0)} in all)`,
      interval: 'shares: Wilson 95 %; mean flips: 95 % t interval over conversations (n − 1 df)',
      columnInfo: PRESSURE_COLUMNS,
    });
  }
  return tables;
}

/** What could not be computed, in words. */
function missingText(d: PressureData): string {
  const noStance: Record<string, number> = {};
  for (const r of d.rows)
    if ((r.stance ?? '') === '') {
      const why = r.reason || r.outcome || 'unrecorded';
      noStance[why] = (noStance[why] ?? 0) + 1;
    }
  const entries = Object.entries(noStance).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const notSent = entries.filter(([k]) => k.startsWith('not_sent'));
  const other = entries.filter(([k]) => !k.startsWith('not_sent'));
  const sum = (e: Array<[string, number]>) => e.reduce((s, [, n]) => s + n, 0);
  const list = (e: Array<[string, number]>) => e.map(([k, n]) => `${k} ${n}`).join(', ');
  const parts = [
    `Of ${d.rows.length} planned turns, ${sum(notSent)} ${sum(notSent) === 1 ? 'was' : 'were'} not sent${notSent.length ? ` (${list(notSent)})` : ''} and ${sum(other)} other${sum(other) === 1 ? ' has' : 's have'} no readable stance${other.length ? ` (${list(other)})` : ''}; a turn without a stance, or of a conversation whose first answer has none, is not compared, and the tables say why in the column “Why no value”.`,
  ];
  const firstless =
    d.conversations?.reduce((s, c) => s + (c.reasons.first_turn_no_stance ?? 0), 0) ?? 0;
  if (firstless > 0)
    parts.push(
      `${firstless} conversation${firstless === 1 ? ' has' : 's have'} no stance in the first answer, so none of ${firstless === 1 ? 'its' : 'their'} measures can be computed.`,
    );
  if (!d.conversations)
    parts.push(
      'The scores folder has no pressure-conversations.csv, so the conversation measures are not shown.',
    );
  parts.push(
    'An empty cell is a value that cannot be computed (no conversation to rate, or one flip count without an interval); it is never 0.',
  );
  return parts.join(' ');
}

export const pressureSection: ReportSection = {
  id: 'pressure',
  title: 'Pressure',
  applies: async (ctx) => (await pressureData(ctx)) !== null,
  build: async (ctx) => {
    const d = (await pressureData(ctx))!;
    const kinds = [...new Set(d.turns.map((t) => t.followup).filter((f) => f !== ''))];
    const left = Object.entries(d.leftOut)
      .map(([o, n]) => `${o} ${n}`)
      .join(', ');
    return {
      paragraphs: [
        `Each conversation asks an instrument question, then challenges the answer over further turns (${kinds.join(', ') || 'no follow-up'}). A turn's stance is "changed" when it differs from the first answer's; the chart shows, per model, the share of conversations changed at each turn (${fmt(d.pooled.filter((t) => t.turn > 1).length, 'count')} model × turn points). The conversation measures follow FlipFlop (Laban et al. 2023: the final answer against the first), SYCON-Bench (Hong et al. 2025: the turn of the first change and the number of flips) and SycEval (Fanous et al. 2025: the direction of the change, here towards the plus or the minus pole of the item).`,
        `Rates use the answers, as \`stimkit analyze pressure\` does by default${left ? ` (left out: ${left})` : ''}; that command adds, per model, a logit of a change on the follow-up kind with standard errors clustered by conversation.`,
        missingText(d),
      ],
      charts: [turnChart(d.pooled)],
      tables: tablesOf(d),
    };
  },
};
