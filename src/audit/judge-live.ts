/**
 * A judge's live calls (judge-calls.ts runs them): each pending target is sent to the judge's
 * endpoints in turn, retried with run's backoff on infrastructure faults, asked again without
 * `response_format` when the server rejects it (`structuredFallback`), and recorded in the judge
 * ledger: the final reply, or a permanent failure.
 */
import pMap from 'p-map';
import { lostLock } from '../ledger/claim.js';
import type { Interrupt } from '../client/interrupt.js';
import { keyRefusedError } from '../client/refused-key.js';
import type { Redactor } from '../core/redact.js';
import type { LedgerWriter } from '../ledger/write.js';
import { backoffDelay, DEFAULT_BACKOFF, sleep } from '../client/backoff.js';
import { classify, recordOf, type Verdict } from '../client/classify.js';
import { costOfUsage } from '../run/cost.js';
import { recordedEndpoint } from '../run/model-run.js';
import { imageRefs, type RequestBody } from '../client/request.js';
import { redirectError } from '../client/redirect.js';
import { maxResponseBytes, sendChat } from '../client/transport.js';
import type { JudgeCallOptions, JudgeRunResult } from './judge-calls.js';
import { NO_SCHEMA_RE } from './judge-request.js';

/** What the live calls share. */
export interface LiveJudging<T> {
  o: JudgeCallOptions<T>;
  writer: LedgerWriter;
  prior: Map<string, number>;
  result: JudgeRunResult;
  /** The judge's API key (a secret: sent in a header, never written). */
  apiKey: string | null;
  redactor: Redactor;
  materialize: (b: RequestBody) => Promise<RequestBody>;
  /** Ctrl-C (client/interrupt.ts): nothing new is sent once `stopping`; `abort` cuts the calls in flight. */
  interrupt: Interrupt;
  /**
   * False once the server rejected response_format; the next endpoint's turn; the error that
   * stops judging once an endpoint redirected or refused the key (nothing new is sent).
   */
  state: { structured: boolean; turn: number; stop?: Error };
}

/** One judge call sent: its ledger row, the target's id in the judge ledger, the attempt's number in this invocation. */
type Attempt = { id: number; targetId: string; n: number; sha256: string; body: RequestBody };

/** As run: attempts of a call before it is recorded as failed. */
const MAX_ATTEMPTS = 8;

/** Record a final reply. */
function recordReply<T>(c: LiveJudging<T>, a: Attempt, raw: { latencyMs: number }, v: Verdict) {
  if (v.kind !== 'final') return;
  const r = v.reply;
  const base = { request_sha256: a.sha256, attempts: a.n, latency_ms: raw.latencyMs };
  const rec = recordOf(r, base);
  c.writer.recordFinal(
    a.id,
    c.o.judge.name,
    a.targetId,
    { ...rec.end, latency_ms: raw.latencyMs },
    // Judge calls cost too: usage × the judge's price (run/cost.ts).
    { ...rec.final, cost_usd: costOfUsage(r.usage, c.o.judge.price, imageRefs(a.body).length) },
  );
  c.result.judged++;
}

/** Record a permanent failure (or the last of too many retries) as the target's result. */
function recordFailure<T>(
  c: LiveJudging<T>,
  a: Attempt,
  raw: { latencyMs: number },
  v: Extract<Verdict, { kind: 'retry' | 'failed' }>,
) {
  const errorClass = v.kind === 'retry' ? `${v.errorClass} (after ${a.n} attempts)` : v.errorClass;
  const fault = { error_class: errorClass, http_status: v.httpStatus, error_body: v.body };
  const base = { request_sha256: a.sha256, attempts: a.n, latency_ms: raw.latencyMs };
  c.writer.recordFinal(
    a.id,
    c.o.judge.name,
    a.targetId,
    { outcome: 'failed', ...fault, latency_ms: raw.latencyMs },
    { ...base, outcome: 'failed', ...fault },
  );
  c.result.failed++;
}

/** Whether a failed reply says the server does not do structured outputs (then ask without). */
function rejectsSchema<T>(c: LiveJudging<T>, v: Verdict): boolean {
  return (
    Boolean(c.o.structuredFallback) &&
    v.kind === 'failed' &&
    c.state.structured &&
    (v.httpStatus === 400 || v.httpStatus === 422) &&
    NO_SCHEMA_RE.test(v.body ?? '')
  );
}

/** Record an attempt cut by Ctrl-C, or a refused key (then stop judging, as run stops a model). */
function recordStop<T>(
  c: LiveJudging<T>,
  id: number,
  where: string,
  raw: { latencyMs: number },
  v: Extract<Verdict, { kind: 'interrupted' | 'auth' }>,
): void {
  const latency_ms = raw.latencyMs;
  if (v.kind === 'interrupted') {
    c.writer.finishAttempt(id, { outcome: 'interrupted', error_class: 'interrupted', latency_ms });
    return;
  }
  c.writer.finishAttempt(id, {
    outcome: 'auth',
    error_class: `http_${v.httpStatus}`,
    http_status: v.httpStatus,
    error_body: v.body,
    latency_ms,
  });
  c.state.stop ??= keyRefusedError(c.o.judge, v.httpStatus, where, v.body, c.redactor);
}

/** Ask about one target until it has a result. */
async function judgeOne<T>(c: LiveJudging<T>, t: T, endpoints: string[]): Promise<void> {
  const { o, writer } = c;
  const k = o.keyOf(t);
  let attempt = c.prior.get(k) ?? 0;
  for (let n = 1; ; n++) {
    if (c.state.stop || c.interrupt.stopping) return;
    attempt++;
    const req = o.request(t, c.state.structured);
    const endpoint = endpoints[c.state.turn++ % endpoints.length]!;
    const where = recordedEndpoint(endpoint);
    // Claimed before it is sent (ledger/claim.ts): a judge call is paid like a respondent's.
    const id = writer.claim(o.judge.name, k, attempt, 'judge', req.sha256, where);
    if (typeof id !== 'number') {
      if (id.refused === 'lost_lock') throw lostLock(id, o.ledger);
      return; // another writer's claim: left to it
    }
    const raw = await sendChat(
      endpoint,
      JSON.stringify(await c.materialize(req.body)),
      c.apiKey,
      o.judge.timeout_s * 1000,
      c.interrupt.abort.signal,
      maxResponseBytes(o.judge.max_response_mib),
    );
    const v = classify(raw);
    const a: Attempt = { id, targetId: k, n, sha256: req.sha256, body: req.body };
    if (v.kind === 'final') return recordReply(c, a, raw, v);
    if (v.kind === 'interrupted' || v.kind === 'auth') return recordStop(c, id, where, raw, v);
    const fault = {
      outcome: 'retry' as const,
      http_status: v.httpStatus,
      error_body: v.body,
      latency_ms: raw.latencyMs,
    };
    if (rejectsSchema(c, v)) {
      writer.finishAttempt(id, { ...fault, error_class: 'response_format_unsupported' });
      c.state.structured = false;
      c.result.fell_back_to_plain_json = true;
      continue;
    }
    if (v.kind === 'failed' && v.errorClass === 'redirect')
      c.state.stop ??= redirectError(o.judge.name, where, v.body ?? '', c.redactor);
    if (v.kind !== 'retry' || n >= (o.maxAttempts ?? MAX_ATTEMPTS))
      return recordFailure(c, a, raw, v);
    writer.finishAttempt(id, { ...fault, error_class: v.errorClass });
    c.result.retries++;
    const wait = backoffDelay(n, o.backoff ?? DEFAULT_BACKOFF, v.retryAfterMs);
    if (!(await sleep(wait, c.interrupt.abort.signal))) return;
  }
}

/** Ask the judge about every pending target, `concurrency` at a time. */
export async function judgeLive<T>(c: LiveJudging<T>, pending: readonly T[]): Promise<void> {
  const { judge } = c.o;
  const endpoints = Array.isArray(judge.endpoint) ? judge.endpoint : [judge.endpoint!];
  await pMap(pending, (t) => judgeOne(c, t, endpoints), {
    concurrency: c.o.concurrency ?? judge.concurrency,
  });
  if (c.state.stop) throw c.state.stop;
}
