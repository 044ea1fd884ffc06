/**
 * Responses from a run ledger (`stimkit run`): the final result of every (model, trial) of one
 * run (the latest unless a label is given), through the ledger's reader API. The run must be of
 * the bundle being scored. Model metadata (origin, vendor, simulated) comes from the ledger's
 * record of the models file; a `--models` file, when given, takes precedence.
 */
import { StimkitError } from '../core/errors.js';
import { openLedger } from '../ledger/index.js';
import type { ScoreBundle } from './bundle.js';
import type { ModelMeta, ResponseRecord } from './types.js';

/** What a ledger yields for scoring. */
export interface LedgerResponses {
  run: string;
  responses: ResponseRecord[];
  models: Map<string, ModelMeta>;
}

/** Read one run's final results (responses and model metadata) for `bundle`. */
export function readLedgerResponses(
  file: string,
  bundle: ScoreBundle,
  runLabel?: string,
): LedgerResponses {
  const ledger = openLedger(file);
  try {
    const run = ledger.run(runLabel);
    if (run.bundle_digest !== bundle.digest) {
      throw StimkitError.fromProblem({
        code: 'E_SCORE_LEDGER_BUNDLE',
        file,
        field: `runs[${run.label}].bundle_digest`,
        message: 'this run answered a different bundle',
        expected: bundle.digest,
        got: run.bundle_digest,
        fix: 'pass the bundle the run used with --bundle (or pick another run with --run)',
      });
    }
    const models = new Map<string, ModelMeta>();
    for (const m of ledger.models(run.label)) {
      const info = m.info as { origin?: unknown; vendor?: unknown };
      models.set(m.model, {
        name: m.model,
        origin: typeof info.origin === 'string' ? info.origin : null,
        vendor: typeof info.vendor === 'string' ? info.vendor : null,
        simulated: m.provider === 'sim',
      });
    }
    const responses: ResponseRecord[] = [];
    for (const r of ledger.results({ run: run.label })) {
      responses.push({
        trial_id: r.trial_id,
        model: r.model,
        response: r.text,
        simulated: r.simulated,
        truth: r.truth,
        error: r.outcome === 'answer' ? null : r.outcome,
      });
    }
    return { run: run.label, responses, models };
  } finally {
    ledger.close();
  }
}
