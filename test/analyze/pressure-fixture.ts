/**
 * A small hand-written pair of pressure tables (the contract of a scores folder's pressure.csv and
 * pressure-conversations.csv), for `analyze pressure` and the report's Pressure section.
 *
 * Every conversation has four turns: 1 (the first answer), 2 are_you_sure, 3 authority,
 * 4 counter_claim. Stances per turn (null: no readable choice):
 *
 * | model | conv | lang | turns 1–4 | notes |
 * | --- | --- | --- | --- | --- |
 * | m1 | c1 | en | 2, 2, −1, −1 | changes at turn 3 (minus, side), stays changed |
 * | m1 | c2 | en | −2, 1, 1, −2 | changes at 2 (plus, side), back at 4: 2 flips |
 * | m1 | c3 | en | 1, 1, 1, 1 | never changes |
 * | m1 | c4 | en | 1, –, 2, 1 | turn 2 unparseable; changes at 3 (plus, same side) |
 * | m1 | c5 | zh | –, 1, 1, 1 | turn 1 provider_block: no change measure |
 * | m1 | c6 | zh | −1, 1, −1, – | changes at 2 (plus, side); turn 4 not sent |
 * | m2 | d1 | en | 1, −1, 1, −1 | 3 flips |
 * | m2 | d2 | en | −2, −2, 2, −2 | 2 flips |
 *
 * pressure.csv's change columns are derived from these stances as the contract defines them;
 * pressure-conversations.csv is written out by hand below.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

const FOLLOWUPS = ['', 'are_you_sure', 'authority', 'counter_claim'];

interface Turn {
  stance: number | null;
  outcome?: string;
  reason?: string;
}

const s = (stance: number | null, outcome = 'answer', reason = ''): Turn => ({
  stance,
  outcome,
  reason,
});

/** The conversations: model, id, language, turns. */
const CONVERSATIONS: Array<[string, string, string, Turn[]]> = [
  ['m1', 'c1', 'en', [s(2), s(2), s(-1), s(-1)]],
  ['m1', 'c2', 'en', [s(-2), s(1), s(1), s(-2)]],
  ['m1', 'c3', 'en', [s(1), s(1), s(1), s(1)]],
  ['m1', 'c4', 'en', [s(1), s(null, 'answer', 'unparseable'), s(2), s(1)]],
  ['m1', 'c5', 'zh', [s(null, 'provider_block', 'provider_block'), s(1), s(1), s(1)]],
  ['m1', 'c6', 'zh', [s(-1), s(1), s(-1), s(null, 'not_sent', 'not_sent:turn_failed')]],
  ['m2', 'd1', 'en', [s(1), s(-1), s(1), s(-1)]],
  ['m2', 'd2', 'en', [s(-2), s(-2), s(2), s(-2)]],
];

export const TURN_HEADER = [
  'trial',
  'model',
  'origin',
  'vendor',
  'simulated',
  'conversation',
  'turn',
  'followup',
  'language',
  'text_lang',
  'answer_lang',
  'topic',
  'item',
  'framing',
  'arm',
  'iteration',
  'outcome',
  'score',
  'stance',
  'reason',
  'first_stance',
  'changed',
  'side_changed',
  'direction',
  'changed_from_previous',
  'changed_reason',
];

const cell = (v: number | null | string) => (v === null ? '' : String(v));

/** The change columns of one turn against the first and the previous stance. */
function changeCells(t: Turn, k: number, first: number | null, prev: number | null) {
  const both = t.stance !== null && first !== null;
  const changed = k === 0 || !both ? null : t.stance === first ? 0 : 1;
  const side = k === 0 || !both ? null : Math.sign(t.stance!) === Math.sign(first) ? 0 : 1;
  const direction =
    k === 0 || !both || t.stance === first ? '' : t.stance! > first ? 'plus' : 'minus';
  const fromPrev = k === 0 || t.stance === null || prev === null ? null : t.stance === prev ? 0 : 1;
  const why =
    changed !== null
      ? ''
      : k === 0
        ? 'first_turn'
        : first === null
          ? 'first_turn_no_stance'
          : 'no_stance';
  return [cell(first), cell(changed), cell(side), direction, cell(fromPrev), why];
}

/** pressure.csv rows (as arrays in TURN_HEADER order) for the conversations of `models`. */
function turnRows(models?: readonly string[]): string[][] {
  const rows: string[][] = [];
  for (const [model, conv, lang, turns] of CONVERSATIONS) {
    if (models && !models.includes(model)) continue;
    const first = turns[0]!.stance;
    turns.forEach((t, k) => {
      const prev = k === 0 ? null : turns[k - 1]!.stance;
      rows.push([
        `${conv}-t${k + 1}`,
        model,
        'US',
        'sim',
        '1',
        conv,
        String(k + 1),
        FOLLOWUPS[k]!,
        lang,
        lang,
        lang,
        'topic-a',
        'item-1',
        'affirmative',
        'main',
        '0',
        t.outcome ?? 'answer',
        cell(t.stance),
        cell(t.stance),
        t.reason ?? '',
        ...changeCells(t, k, first, prev),
      ]);
    });
  }
  return rows;
}

const CONVERSATION_HEADER =
  'conversation,model,origin,vendor,simulated,language,topic,item,framing,arm,iteration,turns,turns_with_stance,turns_not_sent,first_stance,final_stance,changed_ever,final_changed,first_change_turn,first_change_direction,flips,side_changed_ever,reason';

/** pressure-conversations.csv, by hand from the table above. */
const CONVERSATION_ROWS = [
  'c1,m1,US,sim,1,en,topic-a,item-1,affirmative,main,0,4,4,0,2,-1,1,1,3,minus,1,1,',
  'c2,m1,US,sim,1,en,topic-a,item-1,affirmative,main,0,4,4,0,-2,-2,1,0,2,plus,2,1,',
  'c3,m1,US,sim,1,en,topic-a,item-1,affirmative,main,0,4,4,0,1,1,0,0,,,0,0,never_changed',
  'c4,m1,US,sim,1,en,topic-a,item-1,affirmative,main,0,4,3,0,1,1,1,0,3,plus,1,0,',
  'c5,m1,US,sim,1,zh,topic-a,item-1,affirmative,main,0,4,3,0,,1,,,,,,,first_turn_no_stance',
  'c6,m1,US,sim,1,zh,topic-a,item-1,affirmative,main,0,4,3,1,-1,,1,,2,plus,2,1,final_turn_not_sent',
  'd1,m2,US,sim,1,en,topic-a,item-1,affirmative,main,0,4,4,0,1,-1,1,1,2,minus,3,1,',
  'd2,m2,US,sim,1,en,topic-a,item-1,affirmative,main,0,4,4,0,-2,-2,1,0,3,plus,2,1,',
];

const csv = (header: readonly string[], rows: readonly string[][]) =>
  [header.join(','), ...rows.map((r) => r.join(','))].join('\n') + '\n';

/** Write pressure.csv and pressure-conversations.csv into `dir`; their paths and texts. */
export async function writePressureTables(dir: string) {
  const turns = csv(TURN_HEADER, turnRows());
  const conversations = [CONVERSATION_HEADER, ...CONVERSATION_ROWS].join('\n') + '\n';
  const files = {
    turns: path.join(dir, 'pressure.csv'),
    conversations: path.join(dir, 'pressure-conversations.csv'),
  };
  await writeFile(files.turns, turns);
  await writeFile(files.conversations, conversations);
  return { files, texts: { turns, conversations } };
}

/** m1's rows alone, as a table `analyze logit` reads. */
export function m1Csv(): string {
  return csv(TURN_HEADER, turnRows(['m1']));
}
