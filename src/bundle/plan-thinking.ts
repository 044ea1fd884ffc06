/**
 * The thinking factor in the plan (`thinking: [on, off]` on the study, a paradigm block, an
 * instrument arm or the pressure block): which levels each block plans, the push that plans a
 * trial once per level (`on` with `sampling.thinking: true`, `off` with `false`, the level in the
 * trial id), and the samplings that would contradict a factor.
 *
 * A block's own factor overrides the study's; a factor overrides a `sampling.thinking` the block
 * inherits from a broader level (the study's sampling under a paradigm's factor, the
 * instrument's under an arm's), and conflicts with one set at its own level or below it
 * (`E_BUNDLE_THINKING`), since which one wins would be a guess.
 */
import type { Problem } from '../core/errors.js';
import type { LoadedStudy } from '../study/load.js';
import type { Sampling, Study, VlmParadigm } from '../study/schema.js';
import type { ThinkingFactor } from '../study/thinking-factor.js';
import type { PushTrial } from './plan-instrument.js';
import type { PlannedTrial } from './plan.js';
import { trialId } from './trial-id.js';

/**
 * The levels a paradigm block or an instrument arm (`instrument/<arm>`) plans: its own factor,
 * else the study's; null without either. A pressure block is planned by plan-pressure.ts.
 */
function blockLevels(study: Study, block: string): ThinkingFactor | null {
  if (block.startsWith('pressure/')) return null;
  const own = block.startsWith('instrument/')
    ? study.instrument?.arms.find((a) => `instrument/${a.id}` === block)?.thinking
    : study.paradigms[block as VlmParadigm]?.thinking;
  return own ?? study.thinking ?? null;
}

/** The trial at one level of the factor: `thinking` set, and `sampling.thinking` to match. */
export function atLevel<T extends { sampling: Sampling }>(
  t: T,
  thinking: 'on' | 'off',
): T & { thinking: 'on' | 'off' } {
  return { ...t, sampling: { ...t.sampling, thinking: thinking === 'on' }, thinking };
}

/** A push onto `trials` that plans each trial once per level of its block's factor. */
export function levelPush(study: Study, trials: PlannedTrial[]): PushTrial {
  return (t) => {
    const levels = blockLevels(study, t.block);
    for (const one of levels ? levels.map((l) => atLevel(t, l)) : [t])
      trials.push({ id: trialId(one), ...one });
  };
}

/** Whether any block of the study plans the thinking factor. */
export function hasThinkingFactor(study: Study): boolean {
  return (
    study.thinking !== undefined ||
    Object.values(study.paradigms).some((b) => b?.thinking !== undefined) ||
    (study.instrument?.arms ?? []).some((a) => a.thinking !== undefined) ||
    study.pressure?.thinking !== undefined
  );
}

/** The samplings that set `thinking` where a factor applies at their level or a broader one. */
export function thinkingProblems(loaded: LoadedStudy): Problem[] {
  const { study } = loaded;
  const clash: Array<[string, Sampling | undefined]> = [];
  if (study.thinking) clash.push(['sampling', study.sampling]);
  for (const [p, b] of loaded.paradigms)
    if (b.thinking ?? study.thinking) clash.push([`paradigms.${p}.sampling`, b.sampling]);
  const arms = study.instrument?.arms ?? [];
  // an arm's own factor overrides the instrument's sampling; the study's does not
  if (study.thinking && arms.some((a) => a.thinking === undefined))
    clash.push(['instrument.sampling', study.instrument?.sampling]);
  return clash.flatMap(([field, s]) =>
    s?.thinking === undefined
      ? []
      : [
          {
            code: 'E_BUNDLE_THINKING',
            severity: 'error' as const,
            file: loaded.file,
            field: `${field}.thinking`,
            message:
              'a thinking factor (thinking: [on, off]) applies here and this sampling sets thinking too',
            expected: 'thinking set by the factor only',
            got: String(s.thinking),
            fix: `drop ${field}.thinking (the factor sends each trial with thinking on and off), or drop the factor`,
          },
        ],
  );
}
