/**
 * The pressure part of the trial plan: a conversation from each instrument trial of the chosen
 * arms and first iterations, with 1 + turns.length turns. Turn 1 sends the instrument trial's text
 * as it is (the same item and wrapper draw, under a conversation id of its own); each later turn
 * sends one follow-up of the kind the study lists, in the conversation's language (for
 * `switch_language`: in the other language). Conversations × turns trials, in plan order:
 * conversation by conversation, turn by turn. The turns are pushed as they are (a conversation's
 * thinking level is its starter's, or one of the block's own factor: `starters`).
 */
import type { Problem } from '../core/errors.js';
import { followupText, type PressureTexts } from '../stimuli/pressure.js';
import type { LoadedStudy } from '../study/load.js';
import type { PressureBlock } from '../study/pressure-block.js';
import type { PlannedTrial } from './plan.js';
import type { PushTrial } from './plan-instrument.js';
import { atLevel } from './plan-thinking.js';
import { conversationId, pairId, trialId } from './trial-id.js';

/**
 * The instrument trials that start conversations: of the block's arms, the first iterations. A
 * conversation keeps its starter's thinking level; with the block's own factor, each starter
 * (one per pair of a paired arm) once per level of it.
 */
function starters(block: PressureBlock, instrument: PlannedTrial[]): PlannedTrial[] {
  const chosen = instrument.filter(
    (t) =>
      t.paradigm === 'instrument' &&
      (block.arms === undefined || block.arms.includes(t.arm!)) &&
      (block.iterations === undefined || t.iteration! < block.iterations),
  );
  const levels = block.thinking;
  if (!levels) return chosen;
  const pairs = new Map(chosen.map((t) => [pairId(t), t]));
  return [...pairs.values()].flatMap((t) => levels.map((l) => atLevel(t, l)));
}

/** Problems of the block itself: arms the instrument does not have. */
function armProblems(loaded: LoadedStudy, block: PressureBlock): Problem[] {
  const arms = loaded.study.instrument?.arms.map((a) => a.id) ?? [];
  if (arms.length === 0)
    return [
      {
        code: 'E_BUNDLE_PRESSURE',
        severity: 'error',
        file: loaded.file,
        field: 'pressure',
        message: 'the pressure paradigm starts from instrument trials, and the study has none',
        fix: 'add an instrument block (topics, wrappers, arms), or remove the pressure block',
      },
    ];
  return (block.arms ?? [])
    .filter((a) => !arms.includes(a))
    .map((a) => ({
      code: 'E_BUNDLE_PRESSURE',
      severity: 'error' as const,
      file: loaded.file,
      field: 'pressure.arms',
      message: `no instrument arm "${a}"`,
      expected: arms.join(', '),
      got: a,
      fix: 'name an arm of the instrument block',
    }));
}

/** Add the pressure trials; a missing follow-up text or arm is recorded in `problems`. */
export function planPressure(
  loaded: LoadedStudy,
  block: PressureBlock,
  texts: PressureTexts,
  planned: PlannedTrial[],
  problems: Problem[],
  push: PushTrial,
): void {
  const found = armProblems(loaded, block);
  problems.push(...found);
  if (found.length > 0) return;
  const reported = new Set<string>();
  for (const first of starters(block, planned)) {
    const { id: _instrumentTrial, ...fields } = first;
    const key = { ...fields, paradigm: 'pressure' as const };
    const id = conversationId(key);
    const other = block.other_language?.[first.lang] ?? null;
    const base = { ...key, block: `pressure/${first.arm}`, models: block.models ?? first.models };
    let previous: string | null = null;
    for (let turn = 1; turn <= block.turns.length + 1; turn++) {
      const kind = turn === 1 ? null : block.turns[turn - 2]!;
      const made = kind === null ? null : followupText(texts, kind, first.lang, other);
      if (made && 'code' in made) {
        if (!reported.has(made.message))
          problems.push({ ...made, severity: 'error', file: loaded.file });
        reported.add(made.message);
        break;
      }
      const conversation = {
        id,
        turn,
        previous,
        followup: kind,
        text_lang: made?.lang ?? texts.canon(first.lang),
      };
      const t = {
        ...base,
        wrappers: turn === 1 ? first.wrappers : null,
        text: made?.text ?? first.text,
        conversation,
      };
      push(t);
      previous = trialId(t);
    }
  }
}
