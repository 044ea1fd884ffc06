/**
 * The bundle's trials as Inspect sees them: per paradigm a dataset of samples, each sample a
 * design cell (the trial without its seed or iteration) and each trial one epoch of its sample.
 */
import type { Trial } from '../bundle/format.js';
import type { ScoreBundle } from '../score/bundle.js';

/**
 * A sample's id: the trial's design cell without its seed or iteration (those make the epoch);
 * the thinking factor's level is part of the cell (`….thinking-on`, `….thinking-off`), and so is a
 * pressure conversation's turn (`….turn-2`: each turn is its own sample).
 */
export function sampleIdOf(t: Trial): string {
  const level = t.thinking === undefined ? null : `thinking-${t.thinking}`;
  const turn = t.conversation ? `turn-${t.conversation.turn}` : null;
  return [t.arm, t.entry, t.topic, t.variant, t.lang, t.framing, level, turn]
    .filter((v): v is string => v !== null)
    .join('.');
}

/** The bundle's trials grouped for the logs: per paradigm the sample ids and each trial's epoch. */
export interface Design {
  trials: Map<string, Trial>;
  paradigms: string[];
  sampleIds: Map<string, string[]>;
  epoch: Map<string, number>;
  epochs: Map<string, number>;
  first: Map<string, Trial>;
}

export function designOf(bundle: ScoreBundle): Design {
  const d: Design = {
    trials: new Map(),
    paradigms: [],
    sampleIds: new Map(),
    epoch: new Map(),
    epochs: new Map(),
    first: new Map(),
  };
  const seeds = new Map<string, number[]>();
  for (const t of bundle.trials) {
    d.trials.set(t.id, t);
    if (!d.first.has(t.paradigm)) {
      d.paradigms.push(t.paradigm);
      d.first.set(t.paradigm, t);
      d.sampleIds.set(t.paradigm, []);
      seeds.set(t.paradigm, []);
    }
    const ids = d.sampleIds.get(t.paradigm)!;
    const id = sampleIdOf(t);
    if (!ids.includes(id)) ids.push(id);
    const s = seeds.get(t.paradigm)!;
    if (t.seed !== null && !s.includes(t.seed)) s.push(t.seed);
    const epoch =
      t.iteration !== null ? t.iteration + 1 : t.seed !== null ? s.indexOf(t.seed) + 1 : 1;
    d.epoch.set(t.id, epoch);
    d.epochs.set(t.paradigm, Math.max(d.epochs.get(t.paradigm) ?? 1, epoch));
  }
  return d;
}
