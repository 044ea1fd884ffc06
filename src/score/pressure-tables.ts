/**
 * The pressure tables, written from whole groups of rows (types.ts, "grouped table"): every
 * planned turn of every conversation × model is a row of `pressure.csv`, whether the source has a
 * response for it (scored by pressure.ts), records it as not sent (a ledger's `unsent_turns`:
 * outcome `not_sent`, reason `not_sent:<why>`) or has nothing for it yet (outcome empty, reason
 * `unrecorded`); each conversation × model is a row of `pressure-conversations.csv`. A model that
 * takes part in the paradigm (tookPart) gets the conversations of the pressure block's model set
 * (every model when the study names no sets), and any model any conversation it has a response or
 * an unsent turn in. Rows are sorted by model,
 * conversation id, then turn. The turns' change measures are written into their records'
 * `pressure` object too.
 */
import type { Trial } from '../bundle/format.js';
import type { ScoreBundle } from './bundle.js';
import {
  CONVERSATION_COLUMNS,
  TURN_COLUMNS,
  type ConversationRow,
  type TurnRow,
} from './pressure-columns.js';
import { conversationMeasures, turnMeasures } from './pressure-measures.js';
import { answerLang, conversationOf } from './pressure-lang.js';
import type { GroupReader, GroupedTables, ModelMeta, RowGroup, TableRow } from './types.js';

const PRESSURE_FILE = 'pressure.csv';
const PRESSURE_CONVERSATIONS_FILE = 'pressure-conversations.csv';

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The bundle's conversations: turns in turn order, conversations by id. */
function conversationsOf(bundle: ScoreBundle): Trial[][] {
  const by = new Map<string, Trial[]>();
  for (const t of bundle.trials) {
    if (t.paradigm !== 'pressure') continue;
    const id = conversationOf(bundle, t).id;
    by.set(id, [...(by.get(id) ?? []), t]);
  }
  return [...by.keys()]
    .sort(byName)
    .map((id) => by.get(id)!.sort((a, b) => a.conversation!.turn - b.conversation!.turn));
}

/** Whether the study's model sets give `trial` to `model` (as `stimkit run` selects). */
function inSet(bundle: ScoreBundle, trial: Trial, model: string): boolean {
  const sets = bundle.study.modelSets;
  if (trial.models === null || Object.keys(sets).length === 0) return true;
  return (sets[trial.models] ?? []).includes(model);
}

/**
 * Whether `model` takes part in the pressure paradigm: the models file gives it `pressure` among
 * its `paradigms`, or (no list, or no models file) the source has a pressure turn of it, answered
 * or not sent. A model outside the paradigm (a VLM respondent) gets no rows, not unrecorded ones.
 */
function tookPart(
  model: ModelMeta,
  rows: ReadonlyMap<string, TableRow>,
  unsent: ReadonlyMap<string, string>,
): boolean {
  if (model.paradigms) return model.paradigms.includes('pressure');
  return rows.size > 0 || unsent.size > 0;
}

/** One planned turn of `model`: from its scored row, its unsent record, or nothing. */
function turnOf(
  bundle: ScoreBundle,
  trial: Trial,
  model: ModelMeta,
  row: TableRow | undefined,
  unsent: string | undefined,
): Omit<TurnRow, 'measures'> {
  const answer = answerLang(bundle, trial);
  if (row) {
    const r = row.record;
    const outcome = r.outcome ?? (r.pressure?.outcome as string | null | undefined) ?? null;
    const { score, stance, reason, simulated } = r;
    return { trial, model, outcome, answerLang: answer, score, stance, reason, simulated };
  }
  const reason = unsent === undefined ? 'unrecorded' : `not_sent:${unsent}`;
  return {
    trial,
    model,
    outcome: unsent === undefined ? null : 'not_sent',
    answerLang: answer,
    score: null,
    stance: null,
    reason,
    simulated: model.simulated,
  };
}

/** The turn rows and the conversation row of one conversation × model; fills records' measures. */
function conversation(
  bundle: ScoreBundle,
  turns: Trial[],
  model: ModelMeta,
  rows: ReadonlyMap<string, TableRow>,
  unsent: ReadonlyMap<string, string>,
): { turns: TurnRow[]; conversation: ConversationRow } {
  const read = turns.map((t) => turnOf(bundle, t, model, rows.get(t.id), unsent.get(t.id)));
  const measures = turnMeasures(read.map((t) => t.stance));
  const out = read.map((t, i) => ({ ...t, measures: measures[i]! }));
  for (const t of out) {
    const record = rows.get(t.trial.id)?.record;
    if (record?.pressure) Object.assign(record.pressure, t.measures);
  }
  const conv = conversationMeasures(
    out.map((t) => ({ stance: t.stance, notSent: t.outcome === 'not_sent' })),
  );
  return {
    turns: out,
    conversation: {
      trial: turns[0]!,
      model,
      simulated: out.some((t) => t.simulated),
      measures: conv,
    },
  };
}

/** score.json `counts.pressure`. */
interface Counts {
  conversations: number;
  turns: number;
  turns_with_stance: number;
  turns_not_sent: number;
  turns_unrecorded: number;
  changed_ever: number;
}

function reader(bundle: ScoreBundle, conversations: Trial[][]): GroupReader {
  const counts: Counts = {
    conversations: 0,
    turns: 0,
    turns_with_stance: 0,
    turns_not_sent: 0,
    turns_unrecorded: 0,
    changed_ever: 0,
  };
  const read = (group: RowGroup) => {
    const turnCells: ReturnType<GroupReader['read']>[string] = [];
    const convCells: ReturnType<GroupReader['read']>[string] = [];
    const byModel = new Map<string, Map<string, TableRow>>();
    for (const r of group.rows) {
      if (r.trial.paradigm !== 'pressure') continue;
      const mine = byModel.get(r.model.name) ?? new Map<string, TableRow>();
      byModel.set(r.model.name, mine.set(r.trial.id, r));
    }
    for (const model of group.models) {
      const rows = byModel.get(model.name) ?? new Map<string, TableRow>();
      const unsent = group.unsent.get(model.name) ?? new Map<string, string>();
      const takesPart = tookPart(model, rows, unsent);
      for (const turns of conversations) {
        const mine =
          (takesPart && inSet(bundle, turns[0]!, model.name)) ||
          turns.some((t) => rows.has(t.id) || unsent.has(t.id));
        if (!mine) continue;
        const c = conversation(bundle, turns, model, rows, unsent);
        for (const t of c.turns) turnCells.push(TURN_COLUMNS.map((col) => col.value(t)));
        convCells.push(CONVERSATION_COLUMNS.map((col) => col.value(c.conversation)));
        count(counts, c);
      }
    }
    return { [PRESSURE_FILE]: turnCells, [PRESSURE_CONVERSATIONS_FILE]: convCells };
  };
  return { read, counts: () => ({ ...counts }) };
}

function count(counts: Counts, c: { turns: TurnRow[]; conversation: ConversationRow }): void {
  counts.conversations += 1;
  counts.turns += c.turns.length;
  counts.turns_with_stance += c.conversation.measures.turns_with_stance;
  counts.turns_not_sent += c.conversation.measures.turns_not_sent;
  counts.turns_unrecorded += c.turns.filter((t) => t.reason === 'unrecorded').length;
  if (c.conversation.measures.changed_ever === 1) counts.changed_ever += 1;
}

/** The pressure scorer's grouped tables. */
export const pressureGrouped: GroupedTables = {
  tables: [
    {
      file: PRESSURE_FILE,
      doc: 'one row per planned pressure turn × model, sent or not: the reading of the answer and the change against turn 1 and the turn before',
      columns: TURN_COLUMNS.map(({ name, doc }) => ({ name, doc })),
    },
    {
      file: PRESSURE_CONVERSATIONS_FILE,
      doc: 'one row per conversation × model: the flip measures of FlipFlop, SYCON-Bench and SycEval',
      columns: CONVERSATION_COLUMNS.map(({ name, doc }) => ({ name, doc })),
    },
  ],
  start: (bundle) => {
    const conversations = conversationsOf(bundle);
    return conversations.length === 0 ? null : reader(bundle, conversations);
  },
};
