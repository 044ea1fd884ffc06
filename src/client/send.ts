/**
 * The one send loop, for respondents (run/model-run.ts) and judges (audit/judge-live.ts) alike: a
 * pool of requests under an adaptive concurrency limit (limiter.ts), each attempted until it has
 * a final result, a permanent failure, or `maxAttempts` attempts in this invocation. Every attempt
 * is claimed in the ledger (committed in flight with this writer's id) before it leaves; one
 * another writer claimed is left to it, and a writer that lost its lock stops (ledger/claim.ts).
 * Ctrl-C (interrupt.ts) stops sending and aborts what is in flight; a refused key (401, or a 403
 * naming no policy) or a redirect stops every request of the model after the first; faults are
 * retried with backoff (backoff.ts), and 429s lower the concurrency. The caller records what ends
 * a request (a reply or a failure); the loop records the rest (retries, refusals, interruptions).
 */
import { lostLock } from '../ledger/claim.js';
import type { LedgerWriter } from '../ledger/write.js';
import type { ModelSpec } from '../models/schema.js';
import { backoffDelay, sleep, type Backoff } from './backoff.js';
import { classify, type Reply, type Verdict } from './classify.js';
import { AdaptiveLimit } from './limiter.js';
import type { Provider } from './providers/index.js';
import { maxResponseBytes, sendJson } from './transport.js';

/** What every request of one model shares. */
export interface Sender {
  model: ModelSpec;
  provider: Provider;
  /** The model's endpoints, used in turn. */
  endpoints: string[];
  writer: LedgerWriter;
  /** The ledger's `attempts.source` of these requests. */
  source: 'run' | 'judge';
  /** The API key (a secret: sent in a header only, never written). */
  apiKey: string | null;
  /** Attempts each target already has in the ledger (numbering continues from there). */
  priorAttempts: Map<string, number>;
  maxAttempts: number;
  backoff: Backoff;
  /** Set: send nothing new (Ctrl-C, a budget reached). */
  stopping: () => boolean;
  /** Aborts the requests in flight. */
  abort: AbortSignal;
  /** Requests in flight, counted for progress (optional). */
  onFlight?: (delta: 1 | -1) => void;
  /** Told once, when the model's requests stop (a refused key, a redirect). */
  onStop?: (stop: SendStop) => void;
}

/** Why a model's requests stopped: its key was refused, or an endpoint redirected. */
export interface SendStop {
  kind: 'key_refused' | 'redirect';
  httpStatus: number | null;
  /** The endpoint as recorded (without credentials). */
  endpoint: string;
  /** The server's reply (whole: redact before any cut). */
  body: string;
}

/** One request: the ledger's id of its target, its body's hash and its body as sent. */
export interface OutRequest {
  targetId: string;
  sha256: string;
  bodyText: string;
}

/** One attempt sent and answered: its ledger row, the replica, and what the reply means. */
export interface SentAttempt {
  id: number;
  /** The attempt's number in this invocation (1 first). */
  n: number;
  endpoint: string;
  latency: number;
  verdict: Verdict;
}

/** What the caller records: what ends a request, and what it counts. */
export interface Recorder {
  /** The body of the next attempt (the same each time, unless `again` changed it). */
  request: () => OutRequest | Promise<OutRequest>;
  /** A final reply. */
  final: (sent: SentAttempt, reply: Reply) => Promise<void>;
  /** A permanent failure, or a retryable one whose attempts ran out. */
  failed: (sent: SentAttempt, v: Extract<Verdict, { kind: 'failed' | 'retry' }>) => Promise<void>;
  /** An attempt to be retried (counted by the caller). */
  retried?: (errorClass: string) => void;
  /**
   * A failure the caller answers by asking again at once with another body (a judge whose server
   * rejects response_format): it records the attempt and returns true.
   */
  again?: (
    sent: SentAttempt,
    v: Extract<Verdict, { kind: 'failed' | 'retry' }>,
  ) => Promise<boolean>;
}

/** The endpoint as the ledger records it: without user info or query string (never credentials). */
export function recordedEndpoint(endpoint: string): string {
  // eslint-disable-next-line regexp/no-super-linear-move -- an endpoint of the models file, which refuses `?` and `#` in it (models/schema.ts): nothing to rescan
  return endpoint.replace(/^(https?:\/\/)[^/@]*@/, '$1').replace(/[?#].*$/, '');
}

/** One model's sending in progress. */
interface Sending {
  s: Sender;
  limiter: AdaptiveLimit;
  /** Round-robin position in `endpoints`. */
  next: number;
  /** Set once the key was refused or an endpoint redirected: nothing new is sent. */
  stop: SendStop | null;
  /** Requests left to another writer that claimed them first. */
  claimedElsewhere: number;
}

/** What a model's sending ended with. */
export interface SendEnd {
  stop: SendStop | null;
  claimedElsewhere: number;
}

const stoppedOf = (g: Sending): boolean => g.stop !== null || g.s.stopping();

/** Stop the model's requests (the first reason stands). */
function stopWith(g: Sending, stop: SendStop): void {
  if (g.stop) return;
  g.stop = stop;
  g.s.onStop?.(stop);
}

/**
 * Send `recorder(item)` for every item, `concurrency` at a time under the adaptive limit, until
 * all are done or the sending stops. The first error thrown stops new requests and is rethrown.
 */
export async function sendAll<T>(
  s: Sender,
  items: readonly T[],
  concurrency: number,
  recorder: (item: T) => Promise<Recorder>,
): Promise<SendEnd> {
  const g: Sending = {
    s,
    limiter: new AdaptiveLimit(concurrency),
    next: 0,
    stop: null,
    claimedElsewhere: 0,
  };
  const running = new Set<Promise<void>>();
  // Set by a request that threw (in a callback, so not narrowed here): no new request starts.
  let failure = null as { error: unknown } | null;
  for (const item of items) {
    await g.limiter.acquire();
    if (stoppedOf(g) || failure) {
      g.limiter.release();
      break;
    }
    const p: Promise<void> = recorder(item)
      .then((r) => sendOne(g, r))
      .catch((error: unknown) => {
        failure ??= { error };
      })
      .finally(() => {
        g.limiter.release();
        running.delete(p);
      });
    running.add(p);
  }
  await Promise.all(running);
  if (failure) throw failure.error;
  return { stop: g.stop, claimedElsewhere: g.claimedElsewhere };
}

/** Attempt one request until it has a final result, a permanent failure, or the attempts run out. */
async function sendOne(g: Sending, r: Recorder): Promise<void> {
  const { s } = g;
  let attempt: number | null = null;
  for (let n = 1; ; n++) {
    if (stoppedOf(g)) return;
    const req = await r.request();
    attempt = (attempt ?? s.priorAttempts.get(req.targetId) ?? 0) + 1;
    const sent = await sendAttempt(g, req, attempt, n);
    if (!sent) return; // another writer's claim: left to it
    const v = sent.verdict;
    if (v.kind === 'final') {
      await r.final(sent, v.reply);
      g.limiter.onSuccess();
      return;
    }
    if (v.kind === 'interrupted' || v.kind === 'auth') return recordStop(g, sent, v);
    if (r.again && (await r.again(sent, v))) continue;
    if (v.kind === 'failed' && v.errorClass === 'redirect') {
      const endpoint = recordedEndpoint(sent.endpoint);
      stopWith(g, { kind: 'redirect', httpStatus: v.httpStatus, endpoint, body: v.body ?? '' });
    }
    if (v.kind !== 'retry' || n >= s.maxAttempts) return r.failed(sent, v);
    const wait = await recordRetry(g, sent, v);
    r.retried?.(v.errorClass);
    if (!(await sleep(wait, s.abort))) return;
  }
}

/** Claim the attempt (committed in flight), send it to the next replica, and classify the reply. */
async function sendAttempt(
  g: Sending,
  req: OutRequest,
  attempt: number,
  n: number,
): Promise<SentAttempt | null> {
  const { s } = g;
  const { model, provider, writer } = s;
  const endpoint = s.endpoints[g.next++ % s.endpoints.length]!;
  const where = recordedEndpoint(endpoint);
  const id = await writer.group.run(() =>
    writer.claim(model.name, req.targetId, attempt, s.source, req.sha256, where),
  );
  if (typeof id !== 'number') {
    if (id.refused === 'lost_lock') throw lostLock(id, writer.file);
    g.claimedElsewhere++;
    return null;
  }
  s.onFlight?.(1);
  const raw = await sendJson(
    provider.http(endpoint, model, s.apiKey),
    req.bodyText,
    model.timeout_s * 1000,
    s.abort,
    maxResponseBytes(model.max_response_mib),
  ).finally(() => s.onFlight?.(-1));
  const verdict = classify(raw, (json, status) => provider.read(json, status));
  return { id, n, endpoint, latency: raw.latencyMs, verdict };
}

/** Record an attempt cut by Ctrl-C, or a refused key (then stop the model's requests: the first refusal says why). */
async function recordStop(
  g: Sending,
  sent: SentAttempt,
  v: Extract<Verdict, { kind: 'interrupted' | 'auth' }>,
): Promise<void> {
  const { writer } = g.s;
  const latency_ms = sent.latency;
  if (v.kind === 'interrupted') {
    await writer.group.run(() =>
      writer.finishAttempt(sent.id, {
        outcome: 'interrupted',
        error_class: 'interrupted',
        latency_ms,
      }),
    );
    return;
  }
  await writer.group.run(() =>
    writer.finishAttempt(sent.id, {
      outcome: 'auth',
      error_class: `http_${v.httpStatus}`,
      http_status: v.httpStatus,
      error_body: v.body,
      latency_ms,
    }),
  );
  const endpoint = recordedEndpoint(sent.endpoint);
  stopWith(g, { kind: 'key_refused', httpStatus: v.httpStatus, endpoint, body: v.body });
}

/** Record an attempt to be retried, slow down on a rate limit, and return the wait before the next. */
async function recordRetry(
  g: Sending,
  sent: SentAttempt,
  v: Extract<Verdict, { kind: 'retry' }>,
): Promise<number> {
  const { writer } = g.s;
  await writer.group.run(() =>
    writer.finishAttempt(sent.id, {
      outcome: 'retry',
      error_class: v.errorClass,
      http_status: v.httpStatus,
      error_body: v.body,
      latency_ms: sent.latency,
    }),
  );
  if (v.errorClass === 'rate_limited') g.limiter.onRateLimited();
  return backoffDelay(sent.n, g.s.backoff, v.retryAfterMs);
}
