/**
 * Scores belong to the responses they were made from. `export inspect` and `release` pair a scores
 * folder with a ledger run by the run's label, and a label is not a run: a ledger run again (or
 * another ledger with a run of the same label) holds other responses, and pairing them would put
 * one run's scores beside another run's answers (a blocked, empty reply carrying an answer's D3 and
 * D6). Every scored response must be the run's final result for its model and trial: the same
 * outcome and the same text (`response_sha256`).
 */
import { StimkitError } from '../core/errors.js';
import { sha256 } from '../core/fsio.js';
import type { ScoreLine } from './format.js';

/** What a ledger run's final result must show of itself. */
export interface RunResult {
  model: string;
  trial_id: string;
  outcome: string;
  text: string | null;
}

/** Where the two came from, for the error. */
interface Pairing {
  code: string;
  /** The scores folder's score.json. */
  scores: string;
  ledger: string;
  run: string;
}

/**
 * Throw `where.code` when a scored response is not the run's result for its model and trial (or
 * the run has none); nothing to compare for scores written before `response_sha256`.
 */
export function checkScoresOfRun(
  lines: readonly ScoreLine[],
  results: Iterable<RunResult>,
  where: Pairing,
): void {
  const key = (model: string, trial: string) => `${model}\u0000${trial}`;
  const scored = new Map<string, ScoreLine>();
  // a turn the run never sent (a responses file from `run export` lists it, outcome not_sent) has
  // no result in the ledger, nor needs one
  for (const l of lines)
    if (l.response_sha256 !== undefined && l.outcome !== 'not_sent')
      scored.set(key(l.model, l.trial), l);
  if (scored.size === 0) return;
  let differ = 0;
  let first: string | undefined;
  for (const r of results) {
    const l = scored.get(key(r.model, r.trial_id));
    if (!l) continue;
    scored.delete(key(r.model, r.trial_id));
    const outcome = l.outcome != null && l.outcome !== r.outcome;
    if (outcome || (r.text === null ? null : sha256(r.text)) !== l.response_sha256) {
      differ++;
      first ??= `${r.model}, trial ${r.trial_id}: ${outcome ? `outcome ${l.outcome} in the scores, ${r.outcome} in the ledger` : 'the ledger holds another text than the one scored'}`;
    }
  }
  const absent = [...scored.values()];
  if (differ + absent.length === 0) return;
  throw StimkitError.fromProblem({
    code: where.code,
    file: where.scores,
    message: `${differ + absent.length} scored response(s) are not those of run "${where.run}" in ${where.ledger}: the scores were made from another run or ledger`,
    expected:
      'the responses the scores were made from (the same outcome and text per model and trial)',
    got:
      first ??
      `${absent.length} scored response(s) with no result in the run (first: ${absent[0]!.model}, trial ${absent[0]!.trial})`,
    fix: 'pass the ledger and run the scores were made from (score.json names its inputs), or score this run again (stimkit score --bundle B --ledger L --out DIR)',
  });
}
