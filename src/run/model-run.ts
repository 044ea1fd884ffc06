/**
 * Running one HTTP model (OpenAI-compatible, Anthropic or Gemini: providers/): a pool of workers under an adaptive concurrency limit;
 * each trial is attempted until it has a final result, a permanent failure, or `maxAttempts`
 * attempts in this invocation. Every attempt is a ledger row, committed in flight before the
 * request leaves; the ledger is the only state.
 */
import type { Trial } from '../bundle/format.js';
import type { LedgerWriter } from '../ledger/write.js';
import type { ModelSpec } from '../models/schema.js';
import { backoffDelay, sleep, type Backoff } from './backoff.js';
import { classify, recordOf } from './classify.js';
import { addCost, costOfUsage } from './cost.js';
import type { ImageStore } from './images.js';
import { AdaptiveLimit } from './limiter.js';
import type { Redactor } from '../core/redact.js';
import { endpointsOf, providerOf } from './providers/index.js';
import { addUsage, bump, type ModelStats } from './stats.js';
import { maxResponseBytes, sendJson } from './transport.js';

/** What a model run needs. */
export interface ModelRunContext {
  model: ModelSpec;
  trials: Trial[];
  writer: LedgerWriter;
  images: ImageStore;
  apiKey: string | null;
  redactor: Redactor;
  stats: ModelStats;
  /** Attempts each trial already has in the ledger (numbering continues from there). */
  priorAttempts: Map<string, number>;
  maxAttempts: number;
  concurrency: number;
  backoff: Backoff;
  /** Set: send nothing new (Ctrl-C). */
  stopping: () => boolean;
  /** Aborts requests in flight (after the grace period). */
  abort: AbortSignal;
}

/** The endpoint as the ledger records it: without user info or query string (never credentials). */
export function recordedEndpoint(endpoint: string): string {
  return endpoint.replace(/^(https?:\/\/)[^/@]*@/, '$1').replace(/[?#].*$/, '');
}

/** Run a model's trials to the end (or until stopped). */
export async function runHttpModel(ctx: ModelRunContext): Promise<void> {
  const { model, stats } = ctx;
  const provider = providerOf(model);
  const endpoints = endpointsOf(model);
  const limiter = new AdaptiveLimit(ctx.concurrency);
  let next = 0;
  let authStop = false;
  const stopped = () => authStop || ctx.stopping();

  const runTrial = async (trial: Trial): Promise<void> => {
    const built = provider.build(trial, model);
    // The bytes this model is sent under its image block, and their record (send-image.ts).
    const sent = await ctx.images.sent.materialize(built.body, model.image, provider.imageStyle);
    const bodyText = JSON.stringify(sent.body);
    let attempt = ctx.priorAttempts.get(trial.id) ?? 0;
    for (let n = 1; ; n++) {
      attempt++;
      const endpoint = endpoints[next++ % endpoints.length]!;
      const id = await ctx.writer.group.run(() =>
        ctx.writer.startAttempt(
          model.name,
          trial.id,
          attempt,
          'run',
          built.sha256,
          recordedEndpoint(endpoint),
        ),
      );
      stats.inFlight++;
      const raw = await sendJson(
        provider.http(endpoint, model, ctx.apiKey),
        bodyText,
        model.timeout_s * 1000,
        ctx.abort,
        maxResponseBytes(model.max_response_mib),
      );
      stats.inFlight--;
      const v = classify(raw, provider.read);
      const latency = raw.latencyMs;
      const base = {
        request_sha256: built.sha256,
        dropped: built.dropped,
        attempts: n,
        latency_ms: latency,
        sent_images: sent.sent,
        endpoint: recordedEndpoint(endpoint), // the replica that answered (route.ts)
      };
      if (v.kind === 'final') {
        const r = v.reply;
        const rec = recordOf(r, base);
        const cost = costOfUsage(r.usage, model.price, sent.sent.length); // cost.ts
        await ctx.writer.group.run(() =>
          ctx.writer.recordFinal(
            id,
            model.name,
            trial.id,
            { ...rec.end, latency_ms: latency },
            { ...rec.final, cost_usd: cost },
          ),
        );
        stats.done++;
        bump(stats.outcomes, r.outcome);
        addUsage(stats, r.usage);
        addCost(stats, cost, r.usage);
        limiter.onSuccess();
        return;
      }
      if (v.kind === 'interrupted') {
        await ctx.writer.group.run(() =>
          ctx.writer.finishAttempt(id, {
            outcome: 'interrupted',
            error_class: 'interrupted',
            latency_ms: latency,
          }),
        );
        return;
      }
      if (v.kind === 'auth') {
        await ctx.writer.group.run(() =>
          ctx.writer.finishAttempt(id, {
            outcome: 'auth',
            error_class: `http_${v.httpStatus}`,
            http_status: v.httpStatus,
            error_body: v.body,
            latency_ms: latency,
          }),
        );
        if (!authStop) {
          authStop = true;
          const via = model.api_key_env
            ? `the key in $${model.api_key_env}`
            : 'no key (the model has no api_key_env)';
          stats.stopped = `HTTP ${v.httpStatus} from ${recordedEndpoint(endpoint)}: the server refused ${via}; stopped this model's run. ${ctx.redactor.cut(v.body, 200)}`;
        }
        return;
      }
      if (v.kind === 'failed' || n >= ctx.maxAttempts) {
        const errorClass = v.kind === 'failed' ? v.errorClass : v.errorClass;
        await ctx.writer.group.run(() =>
          ctx.writer.recordFinal(
            id,
            model.name,
            trial.id,
            {
              outcome: 'failed',
              error_class: errorClass,
              http_status: v.httpStatus,
              error_body: v.body,
              latency_ms: latency,
            },
            {
              ...base,
              outcome: 'failed',
              error_class: v.kind === 'failed' ? errorClass : `${errorClass} (after ${n} attempts)`,
              http_status: v.httpStatus,
              error_body: v.body,
            },
          ),
        );
        bump(stats.failed, errorClass);
        return;
      }
      await ctx.writer.group.run(() =>
        ctx.writer.finishAttempt(id, {
          outcome: 'retry',
          error_class: v.errorClass,
          http_status: v.httpStatus,
          error_body: v.body,
          latency_ms: latency,
        }),
      );
      bump(stats.retried, v.errorClass);
      if (v.errorClass === 'rate_limited') limiter.onRateLimited();
      const wait = backoffDelay(n, ctx.backoff, v.retryAfterMs);
      if (!(await sleep(wait, ctx.abort)) || stopped()) return;
    }
  };

  const running = new Set<Promise<void>>();
  let failure: unknown = null;
  for (const trial of ctx.trials) {
    await limiter.acquire();
    if (stopped() || failure) {
      limiter.release();
      break;
    }
    const p: Promise<void> = runTrial(trial)
      .catch((err) => {
        failure ??= err;
      })
      .finally(() => {
        limiter.release();
        running.delete(p);
      });
    running.add(p);
  }
  await Promise.all(running);
  stats.wallMs = performance.now() - stats.startedMs;
  if (failure) throw failure;
}
