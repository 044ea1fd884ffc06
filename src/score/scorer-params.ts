/**
 * score.json's `params.scorers`: each scorer's parameters, by name, with absolute paths written
 * relative to the scores folder; a scorer marked `onlyWithTrials` only when the bundle holds trials
 * of its paradigms (types.ts).
 */
import path from 'node:path';
import { relPosix } from '../core/fsio.js';
import type { ScoreBundle } from './bundle.js';
import type { ParadigmScorer } from './types.js';

/** The `params.scorers` of a scoring of `bundle` into `out`. */
export function scorerParams(
  scorers: readonly ParadigmScorer[],
  bundle: ScoreBundle,
  out: string,
): Record<string, Record<string, unknown>> {
  const listed = scorers.filter(
    (s) => !s.onlyWithTrials || bundle.trials.some((t) => s.paradigms.includes(t.paradigm)),
  );
  return Object.fromEntries(listed.map((s) => [s.name, relativeFiles(s.params ?? {}, out)]));
}

/**
 * `params` with every absolute path under a `file` key (e.g. a judge ledger) written relative to
 * the scores folder, as the inputs are: score.json names no absolute path, so the same inputs give
 * the same bytes wherever the folders sit.
 */
function relativeFiles<T>(params: T, out: string): T {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [
        k,
        k === 'file' && typeof x === 'string' && path.isAbsolute(x) ? relPosix(out, x) : walk(x),
      ]),
    );
  };
  return walk(params) as T;
}
