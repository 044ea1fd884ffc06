/**
 * Running a simulated respondent (`provider: sim`): no network; each trial's reply comes from
 * the simulator, deterministic in (params, model name, trial id), and is recorded with
 * `simulated = 1` and its true labels. Results are committed in chunks, one transaction each.
 */
import type { Trial } from '../bundle/format.js';
import { sha256 } from '../core/fsio.js';
import { canonicalJson } from '../core/json.js';
import type { LedgerWriter } from '../ledger/write.js';
import type { ModelSpec } from '../models/schema.js';
import { simulate, type SimBundle } from '../sim/index.js';
import { addUsage, bump, type ModelStats } from './model-stats.js';

const CHUNK = 256;

/** The request hash of a simulated trial: the model's sim parameters and the trial id. */
function simRequestSha(model: ModelSpec, trial: Trial): string {
  return sha256(
    canonicalJson({ provider: 'sim', model: model.name, sim: model.sim ?? {}, trial: trial.id }),
  );
}

/** Simulate `trials` for `model` into the ledger. */
export async function runSimModel(
  model: ModelSpec,
  trials: Trial[],
  bundle: SimBundle,
  writer: LedgerWriter,
  stats: ModelStats,
  priorAttempts: Map<string, number>,
  stopping: () => boolean,
): Promise<void> {
  for (let i = 0; i < trials.length && !stopping(); i += CHUNK) {
    const rows = trials.slice(i, i + CHUNK).map((trial) => {
      const started = performance.now();
      const r = simulate(model.sim!, model.name, trial, bundle);
      const latency_ms = performance.now() - started;
      const outcome =
        r.finish_reason === 'content_filter'
          ? 'provider_block'
          : r.finish_reason === 'length'
            ? 'length'
            : r.text.trim() === ''
              ? 'suppressed'
              : 'answer';
      const requestSha256 = simRequestSha(model, trial);
      return {
        model: model.name,
        trialId: trial.id,
        attempt: (priorAttempts.get(trial.id) ?? 0) + 1,
        source: 'sim',
        requestSha256,
        endpoint: null,
        end: { outcome, latency_ms },
        final: {
          outcome,
          request_sha256: requestSha256,
          response_text: r.text,
          // Without a reasoning habit a simulated reply has no reasoning channel.
          reasoning_text: r.reasoning?.text ?? null,
          reasoning_visibility: r.reasoning?.visibility ?? 'absent',
          reasoning_tokens: r.reasoning?.tokens ?? null,
          finish_reason: r.finish_reason,
          usage: r.usage,
          served_model: `sim:${model.name}`,
          simulated: true,
          truth: r.truth,
          attempts: 1,
          latency_ms,
        },
      } as const;
    });
    writer.recordMany(rows.map((r) => ({ ...r, end: { ...r.end }, final: { ...r.final } })));
    for (const r of rows) {
      stats.done++;
      bump(stats.outcomes, r.final.outcome);
      addUsage(stats, r.final.usage);
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  stats.wallMs = performance.now() - stats.startedMs;
}
