/**
 * Writing attempts and final results. A request is sent only under a claim: an attempt row
 * committed `in_flight` with the writer's id, in one transaction that first checks that this
 * writer still holds the lock and that no one else has attempted the trial since it was planned
 * (`claim`); so two writers, even forced past the lock, never send the same trial. The attempt
 * is then finished; a final result and its attempt's end commit in one
 * transaction. A (run, model, trial) gets at most one result: the insert only replaces a `failed`
 * result (a later `--retry-failed` success), never a kept one. Every text passes the redactor.
 */
import { ioProblem } from '../core/io-errors.js';
import type { Redactor } from '../core/redact.js';
import { ClaimCheck, type ClaimRefusal } from './claim.js';
import { GroupCommit } from './group-commit.js';
import { heldLock } from './lock.js';
import { INSERT_RESULT, type ResultRow } from './result-row.js';
import type { Db } from './open.js';
import { ERROR_BODY_MAX, type Outcome, type ReasoningVisibility } from './schema.js';

/** How an attempt ended. */
export interface AttemptEnd {
  /** A final outcome, `retry` (infrastructure fault, tried again), `auth` (401/403, model stopped) or `interrupted`. */
  outcome: Outcome | 'retry' | 'auth' | 'interrupted';
  error_class?: string | null;
  http_status?: number | null;
  error_body?: string | null;
  latency_ms?: number | null;
}

/** A final result of a trial. */
export interface FinalResult {
  outcome: Outcome;
  request_sha256: string;
  dropped?: string[];
  response_text?: string | null;
  reasoning_text?: string | null;
  finish_reason?: string | null;
  usage?: Record<string, unknown> | null;
  served_model?: string | null;
  system_fingerprint?: string | null;
  simulated?: boolean;
  truth?: unknown;
  error_class?: string | null;
  http_status?: number | null;
  error_body?: string | null;
  attempts: number;
  latency_ms?: number | null;
  /** The images the request sent (client/send-image.ts), in order; absent for text-only trials. */
  sent_images?: readonly object[];
  /** The result's cost in USD from its usage and the model's price (run/cost.ts); null when unpriced. */
  cost_usd?: number | null;
  /** The serving route (client/route.ts): the gateway's upstream provider, response and request ids, region. */
  route_provider?: string | null;
  response_id?: string | null;
  request_id?: string | null;
  region?: string | null;
  /** The endpoint replica of the attempt that gave this result (without credentials). */
  endpoint?: string | null;
  /**
   * How much of the reply's reasoning the server showed: full, summary, redacted, absent or
   * empty (null: not recorded, e.g. a result written before this field).
   */
  reasoning_visibility?: ReasoningVisibility | null;
  /** Reasoning tokens the server reported it used (null: not reported). */
  reasoning_tokens?: number | null;
}

/** Characters of a route field kept (after redaction); a longer one is cut with a note. */
const ROUTE_FIELD_MAX = 200;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Prepared writes for one run of one ledger. */
export class LedgerWriter {
  private readonly start;
  private readonly finish;
  private readonly result;
  readonly recordFinal: (
    attemptId: number,
    model: string,
    trialId: string,
    end: AttemptEnd,
    final: FinalResult,
  ) => void;
  /** Group commit of the concurrent writes of a run (see group-commit.ts). */
  readonly group: GroupCommit;
  private readonly claims: ClaimCheck;

  constructor(
    /** The ledger's connection and the run written (read by the turn order of conversations). */
    readonly db: Db,
    readonly runId: number,
    private readonly digest: string,
    private readonly redactor: Redactor,
  ) {
    this.start = db.prepare(
      `INSERT INTO attempts (run_id, model, trial_id, attempt, source, request_sha256, endpoint, state, started_at, pid, writer_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'in_flight', ?, ?, ?)`,
    );
    this.finish = db.prepare(
      `UPDATE attempts SET state = ?, outcome = ?, error_class = ?, http_status = ?, error_body = ?, latency_ms = ?, finished_at = ? WHERE attempt_id = ?`,
    );
    this.result = db.prepare<[ResultRow]>(INSERT_RESULT);
    this.group = new GroupCommit(db);
    this.claims = new ClaimCheck(db);
    const both = (
      attemptId: number,
      model: string,
      trialId: string,
      end: AttemptEnd,
      final: FinalResult,
    ) => {
      this.finishAttempt(attemptId, end);
      this.insertResult(model, trialId, final);
    };
    const own = db.transaction(both);
    // Inside a group commit the two writes already share its transaction (no savepoint needed).
    this.recordFinal = (...args) => this.guard(() => (db.inTransaction ? both : own)(...args));
  }

  /** The ledger file. */
  get file(): string {
    return this.db.name;
  }

  /** A full disk or a damaged file while writing, as E_DISK_FULL / E_LEDGER_CORRUPT naming the ledger. */
  private guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      throw ioProblem(err, { file: this.db.name, writing: 'the ledger' }) ?? err;
    }
  }

  /**
   * Claim attempt number `attempt` of a trial before sending it (claim.ts): its id, or why it was
   * refused. A refusal is returned, never thrown, so that inside a group commit it cannot undo
   * the other writes of the transaction.
   */
  claim(
    model: string,
    trialId: string,
    attempt: number,
    source: string,
    requestSha256: string,
    endpoint: string | null,
  ): number | ClaimRefusal {
    const take = () =>
      this.claims.refusal(this.runId, model, trialId, attempt) ??
      this.startAttempt(model, trialId, attempt, source, requestSha256, endpoint);
    return this.guard(() =>
      this.db.inTransaction ? take() : this.db.transaction(take).immediate(),
    );
  }

  /** Commit an attempt as in flight; returns its id. */
  startAttempt(
    model: string,
    trialId: string,
    attempt: number,
    source: string,
    requestSha256: string,
    endpoint: string | null,
  ): number {
    return Number(
      this.start.run(
        this.runId,
        model,
        trialId,
        attempt,
        source,
        requestSha256,
        endpoint,
        new Date().toISOString(),
        process.pid,
        heldLock(this.db)?.writerId ?? null,
      ).lastInsertRowid,
    );
  }

  /** Finish an attempt that did not give a final result (a retry, an auth stop, an interruption). */
  finishAttempt(attemptId: number, end: AttemptEnd): void {
    const state = end.outcome === 'interrupted' ? 'interrupted' : 'done';
    this.guard(() =>
      this.finish.run(
        state,
        end.outcome === 'interrupted' ? null : end.outcome,
        this.redactor.redact(end.error_class ?? null),
        end.http_status ?? null,
        this.body(end.error_body),
        end.latency_ms ?? null,
        new Date().toISOString(),
        attemptId,
      ),
    );
  }

  private body(text: string | null | undefined): string | null {
    if (text === null || text === undefined) return null;
    return this.redactor.cut(text, ERROR_BODY_MAX);
  }

  /** A route field (a server's header or id): redacted whole, then cut. */
  private route(text: string | null | undefined): string | null {
    return text === null || text === undefined ? null : this.redactor.cut(text, ROUTE_FIELD_MAX);
  }

  private insertResult(model: string, trialId: string, r: FinalResult): void {
    const red = (s: string | null | undefined) => this.redactor.redact(s ?? null) ?? null;
    const u = r.usage ?? null;
    const row: ResultRow = {
      run_id: this.runId,
      model,
      trial_id: trialId,
      bundle_digest: this.digest,
      outcome: r.outcome,
      request_sha256: r.request_sha256,
      dropped: r.dropped && r.dropped.length > 0 ? JSON.stringify(r.dropped) : null,
      response_text: red(r.response_text),
      reasoning_text: red(r.reasoning_text),
      finish_reason: red(r.finish_reason),
      prompt_tokens: num(u?.prompt_tokens),
      completion_tokens: num(u?.completion_tokens),
      total_tokens: num(u?.total_tokens),
      usage: u ? red(JSON.stringify(u)) : null,
      served_model: red(r.served_model),
      system_fingerprint: red(r.system_fingerprint),
      simulated: r.simulated ? 1 : 0,
      truth: r.truth === undefined ? null : JSON.stringify(r.truth),
      error_class: red(r.error_class),
      http_status: r.http_status ?? null,
      error_body: this.body(r.error_body),
      attempts: r.attempts,
      latency_ms: r.latency_ms ?? null,
      finished_at: new Date().toISOString(),
      sent_images: r.sent_images && r.sent_images.length > 0 ? JSON.stringify(r.sent_images) : null,
      cost_usd: num(r.cost_usd),
      route_provider: this.route(r.route_provider),
      response_id: this.route(r.response_id),
      request_id: this.route(r.request_id),
      region: this.route(r.region),
      endpoint: r.endpoint ?? null,
      reasoning_visibility: r.reasoning_visibility ?? null,
      reasoning_tokens: num(r.reasoning_tokens),
    };
    this.result.run(row);
  }

  /** Record many already-finished attempts with their results in one transaction (sim, batch import). */
  recordMany(
    rows: Array<{
      model: string;
      trialId: string;
      attempt: number;
      source: string;
      requestSha256: string;
      endpoint: string | null;
      end: AttemptEnd;
      final: FinalResult | null;
    }>,
  ): void {
    const all = this.db.transaction(() => {
      for (const r of rows) {
        const id = this.startAttempt(
          r.model,
          r.trialId,
          r.attempt,
          r.source,
          r.requestSha256,
          r.endpoint,
        );
        this.finishAttempt(id, r.end);
        if (r.final) this.insertResult(r.model, r.trialId, r.final);
      }
    });
    this.guard(() => all());
  }
}

/**
 * Trial ids of a model's final results in a run (failed ones too unless `retryFailed`), of the
 * conversation turns recorded as not sent, and of
 * trials in flight: after taking the lock only the claims of a writer that still runs are (lock.ts),
 * and they are its own to finish.
 */
export function finishedTrials(
  db: Db,
  runId: number,
  model: string,
  retryFailed: boolean,
): Set<string> {
  const sql = retryFailed
    ? "SELECT trial_id FROM results WHERE run_id = ? AND model = ? AND outcome != 'failed'"
    : 'SELECT trial_id FROM results WHERE run_id = ? AND model = ?';
  const inFlight =
    "SELECT trial_id FROM attempts WHERE run_id = ? AND model = ? AND state = 'in_flight'";
  // A conversation's turn recorded as not sent (ledger/turns.ts) is finished too.
  const unsent = 'SELECT trial_id FROM unsent_turns WHERE run_id = ? AND model = ?';
  return new Set([
    ...(db.prepare(sql).pluck().all(runId, model) as string[]),
    ...(db.prepare(inFlight).pluck().all(runId, model) as string[]),
    ...(db.prepare(unsent).pluck().all(runId, model) as string[]),
  ]);
}

/** How many attempts each trial of a model already has in a run. */
export function attemptCounts(db: Db, runId: number, model: string): Map<string, number> {
  const rows = db
    .prepare(
      'SELECT trial_id, MAX(attempt) AS n FROM attempts WHERE run_id = ? AND model = ? GROUP BY trial_id',
    )
    .all(runId, model) as Array<{ trial_id: string; n: number }>;
  return new Map(rows.map((r) => [r.trial_id, r.n]));
}
