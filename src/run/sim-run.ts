/**
 * Running a simulated respondent (`provider: sim`): no network; each trial's reply comes from
 * the simulator, deterministic in (params, model name, trial id), and is recorded with
 * `simulated = 1` and its true labels. Results are committed in chunks, one transaction each.
 * Conversations (the pressure paradigm) go turn by turn as an HTTP model's do (turns.ts): a turn
 * only after the one before it is answered, the turns after one without an answer recorded as
 * not sent.
 */
import type { Trial } from '../bundle/format.js';
import { sha256 } from '../core/fsio.js';
import { canonicalJson } from '../core/json.js';
import type { LedgerWriter } from '../ledger/write.js';
import type { ModelSpec } from '../models/schema.js';
import { simulate, type SimBundle } from '../sim/index.js';
import { addUsage, bump, type ModelStats } from './model-stats.js';
import { sendInTurns } from './turns.js';

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
  const send = (ready: Trial[]) =>
    simulateInto(model, ready, bundle, writer, stats, priorAttempts, stopping);
  if (trials.some((t) => t.conversation)) {
    const index = bundle.trials ?? new Map(trials.map((t) => [t.id, t]));
    const turns = await sendInTurns(writer, model.name, trials, index, async (ready) => {
      await send(ready.map((r) => r.trial));
      return { stopped: stopping() };
    });
    if (turns.unsent > 0) stats.outcomes.not_sent = turns.unsent;
  } else await send(trials);
  stats.wallMs = performance.now() - stats.startedMs;
}

/** Simulate `trials` into the ledger, a chunk at a time. */
async function simulateInto(
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
            : r.refusal
              ? 'model_refusal'
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
}
