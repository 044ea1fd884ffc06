/**
 * A judge's live calls (judge-calls.ts runs them) through the one send loop, as a respondent's
 * (client/send.ts: claims, retries with run's backoff and attempts, Ctrl-C, a refused key or a
 * redirect stopping the judging): each pending target is sent to the judge's endpoints in turn,
 * asked again without `response_format` when the server rejects it (`structuredFallback`), and
 * recorded in the judge ledger: the final reply, or a permanent failure.
 */
import type { Interrupt } from '../client/interrupt.js';
import { recordOf, type Reply, type Verdict } from '../client/classify.js';
import { providerOf } from '../client/providers/index.js';
import { redirectError } from '../client/redirect.js';
import { keyRefusedError } from '../client/refused-key.js';
import { imageRefs, type RequestBody } from '../client/request.js';
import { sendAll, type OutRequest, type Recorder, type SentAttempt } from '../client/send.js';
import type { Redactor } from '../core/redact.js';
import type { LedgerWriter } from '../ledger/write.js';
import { DEFAULT_BACKOFF } from '../client/backoff.js';
import { costOfUsage } from '../run/cost.js';
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
  /** False once the server rejected response_format (every later call is asked without). */
  state: { structured: boolean };
}

/** As run: attempts of a call before it is recorded as failed. */
const MAX_ATTEMPTS = 8;

/** A target's request as last built: its id in the judge ledger, its body and hash. */
type Built = { targetId: string; sha256: string; body: RequestBody };

/** Record a final reply. */
async function recordReply<T>(c: LiveJudging<T>, b: Built, sent: SentAttempt, r: Reply) {
  const base = { request_sha256: b.sha256, attempts: sent.n, latency_ms: sent.latency };
  const rec = recordOf(r, base);
  // Judge calls cost too: usage × the judge's price (run/cost.ts).
  const cost_usd = costOfUsage(r.usage, c.o.judge.price, imageRefs(b.body).length);
  await c.writer.group.run(() =>
    c.writer.recordFinal(
      sent.id,
      c.o.judge.name,
      b.targetId,
      { ...rec.end, latency_ms: sent.latency },
      { ...rec.final, cost_usd },
    ),
  );
  c.result.judged++;
}

/** Record a permanent failure (or the last of too many retries) as the target's result. */
async function recordFailure<T>(
  c: LiveJudging<T>,
  b: Built,
  sent: SentAttempt,
  v: Extract<Verdict, { kind: 'retry' | 'failed' }>,
) {
  const errorClass =
    v.kind === 'retry' ? `${v.errorClass} (after ${sent.n} attempts)` : v.errorClass;
  const fault = { error_class: errorClass, http_status: v.httpStatus, error_body: v.body };
  const base = { request_sha256: b.sha256, attempts: sent.n, latency_ms: sent.latency };
  await c.writer.group.run(() =>
    c.writer.recordFinal(
      sent.id,
      c.o.judge.name,
      b.targetId,
      { outcome: 'failed', ...fault, latency_ms: sent.latency },
      { ...base, outcome: 'failed', ...fault },
    ),
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

/** How one target is asked and recorded. */
function targetRecorder<T>(c: LiveJudging<T>, t: T): Recorder {
  const targetId = c.o.targetIdOf(t);
  let built: Built | null = null;
  const last = () => built!;
  return {
    request: async (): Promise<OutRequest> => {
      const req = c.o.request(t, c.state.structured);
      built = { targetId, sha256: req.sha256, body: req.body };
      const bodyText = JSON.stringify(await c.materialize(req.body));
      return { targetId, sha256: req.sha256, bodyText };
    },
    final: (sent, reply) => recordReply(c, last(), sent, reply),
    failed: (sent, v) => recordFailure(c, last(), sent, v),
    retried: () => c.result.retries++,
    again: async (sent, v) => {
      if (!rejectsSchema(c, v)) return false;
      await c.writer.group.run(() =>
        c.writer.finishAttempt(sent.id, {
          outcome: 'retry',
          error_class: 'response_format_unsupported',
          http_status: v.httpStatus,
          error_body: v.body,
          latency_ms: sent.latency,
        }),
      );
      c.state.structured = false;
      c.result.fell_back_to_plain_json = true;
      return true;
    },
  };
}

/** Ask the judge about every pending target, `concurrency` at a time; a stop is thrown as an error. */
export async function judgeLive<T>(c: LiveJudging<T>, pending: readonly T[]): Promise<void> {
  const { judge } = c.o;
  const end = await sendAll(
    {
      model: judge,
      provider: providerOf(judge),
      endpoints: Array.isArray(judge.endpoint) ? judge.endpoint : [judge.endpoint!],
      writer: c.writer,
      source: 'judge',
      apiKey: c.apiKey,
      priorAttempts: c.prior,
      maxAttempts: c.o.maxAttempts ?? MAX_ATTEMPTS,
      backoff: c.o.backoff ?? DEFAULT_BACKOFF,
      stopping: () => c.interrupt.stopping,
      abort: c.interrupt.abort.signal,
    },
    pending,
    c.o.concurrency ?? judge.concurrency,
    (t) => Promise.resolve(targetRecorder(c, t)),
  );
  const stop = end.stop;
  if (stop?.kind === 'redirect')
    throw redirectError(judge.name, stop.endpoint, stop.body, c.redactor);
  if (stop)
    throw keyRefusedError(judge, stop.httpStatus ?? 0, stop.endpoint, stop.body, c.redactor);
}
