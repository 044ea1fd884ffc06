/**
 * Running one HTTP model (OpenAI-compatible, Anthropic or Gemini: client/providers/) through the
 * one send loop (client/send.ts: claims, retries, Ctrl-C, a refused key or a redirect stopping
 * the model): each trial's request is built once with the bytes its images are sent as, and what
 * ends it is recorded here as the trial's result, with its cost and the model's counts. The
 * ledger is the only state.
 */
import type { Trial } from '../bundle/format.js';
import type { Backoff } from '../client/backoff.js';
import { recordOf, type Reply, type Verdict } from '../client/classify.js';
import { withEarlierTurns } from '../client/conversation.js';
import type { ImageStore } from '../client/images.js';
import { endpointsOf, providerOf, type Provider } from '../client/providers/index.js';
import type { BuiltBody } from '../client/providers/types.js';
import { redirectStop } from '../client/redirect.js';
import { keyRefusedStop } from '../client/refused-key.js';
import type { SentImage } from '../client/send-image.js';
import {
  recordedEndpoint,
  sendAll,
  type Recorder,
  type SendStop,
  type Sender,
  type SentAttempt,
} from '../client/send.js';
import type { Redactor } from '../core/redact.js';
import type { LedgerWriter } from '../ledger/write.js';
import type { ModelSpec } from '../models/schema.js';
import { addCost, costOfUsage } from './cost.js';
import { addUsage, bump, type ModelStats } from './model-stats.js';
import { sendInTurns, type ReadyTurn, type TrialIndex } from './turns.js';

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
  /** Every trial of the bundle by id: the earlier turns of a conversation (turns.ts). */
  index?: TrialIndex;
}

/** One model's run in progress: its context and what all its trials share. */
interface HttpRun {
  ctx: ModelRunContext;
  provider: Provider;
}

/** A trial ready to send: its built body and the images it carries, the same for every attempt. */
interface PreparedTrial {
  trial: Trial;
  built: BuiltBody;
  sent: SentImage[];
  bodyText: string;
}

/** Run a model's trials to the end (or until stopped). */
export async function runHttpModel(ctx: ModelRunContext): Promise<void> {
  const run: HttpRun = { ctx, provider: providerOf(ctx.model) };
  const sender: Sender = {
    model: ctx.model,
    provider: run.provider,
    endpoints: endpointsOf(ctx.model),
    writer: ctx.writer,
    source: 'run',
    apiKey: ctx.apiKey,
    priorAttempts: ctx.priorAttempts,
    maxAttempts: ctx.maxAttempts,
    backoff: ctx.backoff,
    stopping: ctx.stopping,
    abort: ctx.abort,
    onFlight: (d) => (ctx.stats.inFlight += d),
    onStop: (stop) => (ctx.stats.stopped = stopText(ctx, stop)),
  };
  let claimedElsewhere = 0;
  try {
    // Turn by turn: a conversation's turn k waits for turn k − 1's answer (turns.ts).
    const turns = await sendInTurns(
      ctx.writer,
      ctx.model.name,
      ctx.trials,
      ctx.index ?? new Map(ctx.trials.map((t) => [t.id, t])),
      async (ready) => {
        const end = await sendAll(sender, ready, ctx.concurrency, (r) => trialRecorder(run, r));
        claimedElsewhere += end.claimedElsewhere;
        return { stopped: end.stop !== null || ctx.stopping() };
      },
    );
    if (turns.unsent > 0) ctx.stats.outcomes.not_sent = turns.unsent;
    if (claimedElsewhere > 0)
      ctx.stats.stopped ??= `${claimedElsewhere} trial(s) were claimed by another writer of this ledger and left to it (nothing was sent twice); run the same command again once it has finished`;
    if (turns.blocked > 0)
      ctx.stats.stopped ??= `${turns.blocked} later turn(s) of conversations wait on an earlier turn that failed: run again with --retry-failed to send it, then them`;
  } finally {
    ctx.stats.wallMs = performance.now() - ctx.stats.startedMs;
  }
}

/** The summary's line of a model whose run stopped: its key refused, or an endpoint redirected. */
function stopText(ctx: ModelRunContext, stop: SendStop): string {
  return stop.kind === 'redirect'
    ? redirectStop(stop.endpoint, stop.body, ctx.redactor)
    : keyRefusedStop(ctx.model, stop.httpStatus ?? 0, stop.endpoint, stop.body, ctx.redactor);
}

/** How one trial is sent and recorded (the send loop is client/send.ts). */
async function trialRecorder(run: HttpRun, ready: ReadyTurn): Promise<Recorder> {
  const { trial } = ready;
  const prepared = await prepareTrial(run, ready);
  const request = {
    targetId: trial.id,
    sha256: prepared.built.sha256,
    bodyText: prepared.bodyText,
  };
  return {
    request: () => request,
    final: (sent, reply) => recordReply(run, prepared, sent, reply),
    failed: (sent, v) => recordFailure(run, prepared, sent, v),
    retried: (errorClass) => bump(run.ctx.stats.retried, errorClass),
  };
}

/**
 * Build the trial's request body (a later turn: the whole conversation so far, so its hash
 * covers it) with the bytes this model is sent under its image block.
 */
async function prepareTrial(run: HttpRun, { trial, earlier }: ReadyTurn): Promise<PreparedTrial> {
  const { ctx, provider } = run;
  const built = provider.build(withEarlierTurns(trial, earlier), ctx.model);
  // The bytes this model is sent under its image block, and their record (client/send-image.ts).
  const sent = await ctx.images.sent.materialize(built.body, ctx.model.image, provider.imageStyle);
  return { trial, built, sent: sent.sent, bodyText: JSON.stringify(sent.body) };
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
}
