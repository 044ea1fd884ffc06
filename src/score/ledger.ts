/**
 * Responses from a run ledger (`stimkit run`): the final result of every (model, trial) of one
 * run (the latest unless a label is given), through the ledger's reader API. The run must be of
 * the bundle being scored. Model metadata (origin, vendor, simulated) comes from the ledger's
 * record of the models file; a `--models` file, when given, takes precedence. The results are
 * streamed (better-sqlite3's `iterate`), so a ledger of any size is read in constant memory.
 */
import { StimkitError } from '../core/errors.js';
import { openLedger } from '../ledger/index.js';
import { openReader } from '../ledger/open.js';
import type { ScoreBundle } from './bundle.js';
import type { ModelMeta, ResponseRecord } from './types.js';

/** The run of a ledger that scoring reads, and its models. */
export interface LedgerRunInfo {
  run: string;
  models: Map<string, ModelMeta>;
  /** The models with results in the run, in name order (as JavaScript compares strings). */
  names: string[];
}

/** Resolve the run (`runLabel`, default the latest) and check it answered `bundle`. */
export function readLedgerRun(file: string, bundle: ScoreBundle, runLabel?: string): LedgerRunInfo {
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
    const names = ledger.resultModels(run.label).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return { run: run.label, models, names };
  } finally {
    ledger.close();
  }
}

/**
 * Stream the final results of run `run` (of one `model`, or all) as responses; the ledger is open
 * only while iterating.
 */
export function* streamLedgerResponses(
  file: string,
  run: string,
  model?: string,
): Generator<ResponseRecord> {
  const ledger = openLedger(file);
  try {
    for (const r of ledger.responses({ run, model })) {
      yield {
        trial_id: r.trial_id,
        model: r.model,
        response: r.text,
        simulated: r.simulated,
        truth: r.truth,
        error: r.outcome === 'answer' ? null : r.outcome,
        outcome: r.outcome,
        route: r.route,
        route_provider: r.route_provider,
        finish_reason: r.finish_reason,
        error_class: r.error_class,
        error_body: r.error_body,
        reasoning: r.reasoning,
        reasoning_visibility: r.reasoning_visibility,
        // a count the server reported; anything but a whole count is no count (an empty cell)
        reasoning_tokens:
          Number.isSafeInteger(r.reasoning_tokens) && r.reasoning_tokens! >= 0
            ? r.reasoning_tokens
            : null,
      };
    }
  } finally {
    ledger.close();
  }
}

/**
 * The turns of `model` that run `run` records as not sent (`unsent_turns`, ledger/turns.ts):
 * trial id → reason (`previous_turn_<outcome>`, `previous_turn_not_sent`). Empty for a ledger
 * written before the table existed.
 */
export function unsentTurns(file: string, run: string, model: string): Map<string, string> {
  const db = openReader(file);
  try {
    const has = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'unsent_turns'")
      .get();
    if (!has) return new Map();
    const rows = db
      .prepare(
        `SELECT u.trial_id, u.reason FROM unsent_turns u JOIN runs r ON r.run_id = u.run_id
         WHERE r.label = ? AND u.model = ? ORDER BY u.trial_id`,
      )
      .all(run, model) as Array<{ trial_id: string; reason: string }>;
    return new Map(rows.map((r) => [r.trial_id, r.reason]));
  } finally {
    db.close();
  }
}
