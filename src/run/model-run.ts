/**
 * Running one HTTP model (OpenAI-compatible, Anthropic or Gemini: providers/): a pool of workers under an adaptive concurrency limit;
 * each trial is attempted until it has a final result, a permanent failure, or `maxAttempts`
 * attempts in this invocation. Every attempt is a ledger row, claimed (committed in flight with
 * this writer's id) before the request leaves; a trial another writer claimed is left to it, and a
 * writer that lost its lock stops sending (ledger/claim.ts). The ledger is the only state.
 */
import type { Trial } from '../bundle/format.js';
import { keyRefusedStop } from '../client/refused-key.js';
import { lostLock, type ClaimRefusal } from '../ledger/claim.js';
import type { LedgerWriter } from '../ledger/write.js';
import type { ModelSpec } from '../models/schema.js';
import { backoffDelay, sleep, type Backoff } from '../client/backoff.js';
import { classify, recordOf, type Reply, type Verdict } from '../client/classify.js';
import { addCost, costOfUsage } from './cost.js';
import type { ImageStore } from '../client/images.js';
import { AdaptiveLimit } from '../client/limiter.js';
import type { Redactor } from '../core/redact.js';
import { endpointsOf, providerOf, type Provider } from '../client/providers/index.js';
import type { BuiltBody } from '../client/providers/types.js';
import { redirectStop } from '../client/redirect.js';
import type { SentImage } from '../client/send-image.js';
import { addUsage, bump, type ModelStats } from './stats.js';
import { maxResponseBytes, sendJson } from '../client/transport.js';

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
  // eslint-disable-next-line regexp/no-super-linear-move -- an endpoint of the models file, which refuses `?` and `#` in it (models/schema.ts): nothing to rescan
  return endpoint.replace(/^(https?:\/\/)[^/@]*@/, '$1').replace(/[?#].*$/, '');
}

/** One model's run in progress: its context and what all its trials share. */
interface HttpRun {
  ctx: ModelRunContext;
  provider: Provider;
  endpoints: string[];
  limiter: AdaptiveLimit;
  /** Round-robin position in `endpoints`. */
  next: number;
  /** Set once the server refused the key or redirected: nothing new is sent. */
  authStop: boolean;
  /** Trials left to another writer that claimed them first. */
  claimedElsewhere: number;
}

/** A trial ready to send: its built body and the images it carries, the same for every attempt. */
interface PreparedTrial {
  trial: Trial;
  built: BuiltBody;
  sent: SentImage[];
  bodyText: string;
}

/** One attempt sent and answered: its ledger row, the replica, and what the reply means. */
interface SentAttempt {
  id: number;
  /** The attempt's number in this invocation (1 first). */
  n: number;
  endpoint: string;
  latency: number;
  verdict: Verdict;
}

const stoppedOf = (run: HttpRun): boolean => run.authStop || run.ctx.stopping();

/** Run a model's trials to the end (or until stopped). */
export async function runHttpModel(ctx: ModelRunContext): Promise<void> {
  const run: HttpRun = {
    ctx,
    provider: providerOf(ctx.model),
    endpoints: endpointsOf(ctx.model),
    limiter: new AdaptiveLimit(ctx.concurrency),
    next: 0,
    authStop: false,
    claimedElsewhere: 0,
  };
  const { limiter } = run;
  const running = new Set<Promise<void>>();
  // Set by a trial that threw (in a callback, so not narrowed here): no new trial starts.
  let failure = null as { error: unknown } | null;
  for (const trial of ctx.trials) {
    await limiter.acquire();
    if (stoppedOf(run) || failure) {
      limiter.release();
      break;
    }
    const p: Promise<void> = runTrial(run, trial)
      .catch((error: unknown) => {
        failure ??= { error };
      })
      .finally(() => {
        limiter.release();
        running.delete(p);
      });
    running.add(p);
  }
  await Promise.all(running);
  ctx.stats.wallMs = performance.now() - ctx.stats.startedMs;
  if (failure) throw failure.error;
  if (run.claimedElsewhere > 0)
    ctx.stats.stopped ??= `${run.claimedElsewhere} trial(s) were claimed by another writer of this ledger and left to it (nothing was sent twice); run the same command again once it has finished`;
}

/** Attempt one trial until it has a final result, a permanent failure, or the attempts run out. */
async function runTrial(run: HttpRun, trial: Trial): Promise<void> {
  const { ctx } = run;
  const prepared = await prepareTrial(run, trial);
  let attempt = ctx.priorAttempts.get(trial.id) ?? 0;
  for (let n = 1; ; n++) {
    attempt++;
    const sent = await sendAttempt(run, prepared, attempt, n);
    if ('refused' in sent) return refused(run, sent);
    if (sent.verdict.kind !== 'retry' || n >= ctx.maxAttempts) {
      await recordEnd(run, prepared, sent);
      return;
    }
    const wait = await recordRetry(run, sent, sent.verdict);
    if (!(await sleep(wait, ctx.abort)) || stoppedOf(run)) return;
  }
}

/** A claim refused: the trial is left to the writer that has it; a lost lock stops this run. */
function refused(run: HttpRun, r: ClaimRefusal): void {
  if (r.refused === 'lost_lock') throw lostLock(r, run.ctx.writer.file);
  run.claimedElsewhere++;
}

/** Build the trial's request body with the bytes this model is sent under its image block. */
async function prepareTrial(run: HttpRun, trial: Trial): Promise<PreparedTrial> {
  const { ctx, provider } = run;
  const built = provider.build(trial, ctx.model);
  // The bytes this model is sent under its image block, and their record (client/send-image.ts).
  const sent = await ctx.images.sent.materialize(built.body, ctx.model.image, provider.imageStyle);
  return { trial, built, sent: sent.sent, bodyText: JSON.stringify(sent.body) };
}

/** Claim the attempt (committed in flight), send it to the next replica, and classify the reply. */
async function sendAttempt(
  run: HttpRun,
  prepared: PreparedTrial,
  attempt: number,
  n: number,
): Promise<SentAttempt | ClaimRefusal> {
  const { ctx, provider } = run;
  const { model, stats } = ctx;
  const endpoint = run.endpoints[run.next++ % run.endpoints.length]!;
  const id = await ctx.writer.group.run(() =>
    ctx.writer.claim(
      model.name,
      prepared.trial.id,
      attempt,
      'run',
      prepared.built.sha256,
      recordedEndpoint(endpoint),
    ),
  );
  if (typeof id !== 'number') return id; // not this writer's to send
  stats.inFlight++;
  const raw = await sendJson(
    provider.http(endpoint, model, ctx.apiKey),
    prepared.bodyText,
    model.timeout_s * 1000,
    ctx.abort,
    maxResponseBytes(model.max_response_mib),
  );
  stats.inFlight--;
  const verdict = classify(raw, (json, status) => provider.read(json, status));
  return { id, n, endpoint, latency: raw.latencyMs, verdict };
}

/** The fields every final result of an attempt carries. */
function resultBase(prepared: PreparedTrial, sent: SentAttempt) {
  return {
    request_sha256: prepared.built.sha256,
    dropped: prepared.built.dropped,
    attempts: sent.n,
    latency_ms: sent.latency,
    sent_images: prepared.sent,
    endpoint: recordedEndpoint(sent.endpoint), // the replica that answered (client/route.ts)
  };
}

/** Record an attempt that ends its trial in this invocation (any verdict but a retry with attempts left). */
async function recordEnd(run: HttpRun, prepared: PreparedTrial, sent: SentAttempt): Promise<void> {
  const { ctx } = run;
  const v = sent.verdict;
  if (v.kind === 'final') return recordReply(run, prepared, sent, v.reply);
  if (v.kind === 'interrupted') {
    await ctx.writer.group.run(() =>
      ctx.writer.finishAttempt(sent.id, {
        outcome: 'interrupted',
        error_class: 'interrupted',
        latency_ms: sent.latency,
      }),
    );
    return;
  }
  if (v.kind === 'auth') return recordAuth(run, sent, v);
  return recordFailure(run, prepared, sent, v);
}

/** Record a final result read from the reply, with its cost, and count it. */
async function recordReply(
  run: HttpRun,
  prepared: PreparedTrial,
  sent: SentAttempt,
  r: Reply,
): Promise<void> {
  const { ctx } = run;
  const { model, stats } = ctx;
  const rec = recordOf(r, resultBase(prepared, sent));
  const cost = costOfUsage(r.usage, model.price, prepared.sent.length); // cost.ts
  await ctx.writer.group.run(() =>
    ctx.writer.recordFinal(
      sent.id,
      model.name,
      prepared.trial.id,
      { ...rec.end, latency_ms: sent.latency },
      { ...rec.final, cost_usd: cost },
    ),
  );
  stats.done++;
  bump(stats.outcomes, r.outcome);
  addUsage(stats, r.usage);
  addCost(stats, cost, r.usage);
  run.limiter.onSuccess();
}

/** Record a refused key and stop the model's run (the first refusal says why). */
async function recordAuth(
  run: HttpRun,
  sent: SentAttempt,
  v: Extract<Verdict, { kind: 'auth' }>,
): Promise<void> {
  const { ctx } = run;
  const { model } = ctx;
  await ctx.writer.group.run(() =>
    ctx.writer.finishAttempt(sent.id, {
      outcome: 'auth',
      error_class: `http_${v.httpStatus}`,
      http_status: v.httpStatus,
      error_body: v.body,
      latency_ms: sent.latency,
    }),
  );
  if (run.authStop) return;
  run.authStop = true;
  const where = recordedEndpoint(sent.endpoint);
  ctx.stats.stopped = keyRefusedStop(model, v.httpStatus, where, v.body, ctx.redactor);
}

/** Record a permanent failure, or a retryable one whose attempts ran out, as the trial's result. */
async function recordFailure(
  run: HttpRun,
  prepared: PreparedTrial,
  sent: SentAttempt,
  v: Extract<Verdict, { kind: 'failed' | 'retry' }>,
): Promise<void> {
  const { ctx } = run;
  const errorClass = v.errorClass;
  await ctx.writer.group.run(() =>
    ctx.writer.recordFinal(
      sent.id,
      ctx.model.name,
      prepared.trial.id,
      {
        outcome: 'failed',
        error_class: errorClass,
        http_status: v.httpStatus,
        error_body: v.body,
        latency_ms: sent.latency,
      },
      {
        ...resultBase(prepared, sent),
        outcome: 'failed',
        error_class: v.kind === 'failed' ? errorClass : `${errorClass} (after ${sent.n} attempts)`,
        http_status: v.httpStatus,
        error_body: v.body,
      },
    ),
  );
  bump(ctx.stats.failed, errorClass);
  // A redirect is as permanent for the endpoint as a refused key: stop (client/redirect.ts).
  if (errorClass === 'redirect' && !run.authStop) {
    run.authStop = true;
    ctx.stats.stopped = redirectStop(recordedEndpoint(sent.endpoint), v.body ?? '', ctx.redactor);
  }
}

/** Record an attempt to be retried, slow down on a rate limit, and return the wait before the next. */
async function recordRetry(
  run: HttpRun,
  sent: SentAttempt,
  v: Extract<Verdict, { kind: 'retry' }>,
): Promise<number> {
  const { ctx } = run;
  await ctx.writer.group.run(() =>
    ctx.writer.finishAttempt(sent.id, {
      outcome: 'retry',
      error_class: v.errorClass,
      http_status: v.httpStatus,
      error_body: v.body,
      latency_ms: sent.latency,
    }),
  );
  bump(ctx.stats.retried, v.errorClass);
  if (v.errorClass === 'rate_limited') run.limiter.onRateLimited();
  return backoffDelay(sent.n, ctx.backoff, v.retryAfterMs);
}
