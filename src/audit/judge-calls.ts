/**
 * Judge calls through the run stage's ledger code, shared by the six-dimension audit's judge
 * (judge-run.ts) and the instrument's free-text judge (score/instrument-judge.ts). A judge ledger
 * is a `stimkit.ledger` file; one judge run per (respondent run, judge prompt) holds the judge as
 * its model and one final result per judged response, keyed by the caller (`<trial>@<model>`),
 * whose response_text is the judge's raw reply (always kept).
 *
 * Rerunning resumes (keys with a final, non-failed result are skipped); infrastructure faults are
 * retried with run's backoff; 4xx are permanent failures; the API key is read from the variable
 * the models file names and never written (every text passes run's redactor). A server that
 * rejects `response_format` can be asked again without it (`structuredFallback`). A `provider:
 * sim` judge answers through `sim` instead of HTTP, recorded the same way (simulated = 1).
 */
import { setMaxListeners } from 'node:events';
import { EXIT_INTERRUPTED, watchSigint, type Interrupt } from '../client/interrupt.js';
import { StimkitError } from '../core/errors.js';
import { acquireLock } from '../ledger/lock.js';
import { openLedgerDb, type Db } from '../ledger/open.js';
import { ensureRun, registerModel, type RunRow } from '../ledger/runs.js';
import { attemptCounts, finishedTrials, LedgerWriter } from '../ledger/write.js';
import { inBatch } from '../ledger/batch-exports.js';
import { keyEnvFix, keyEnvText } from '../models/key-env.js';
import type { ModelSpec } from '../models/schema.js';
import type { Backoff } from '../client/backoff.js';
import { Redactor, redactedError } from '../core/redact.js';
import type { RequestBody } from '../client/request.js';
import {
  judgeBatchFile,
  judgeThroughBatch,
  type JudgeBatch,
  type JudgeBatchResult,
} from './judge-batch.js';
import { readJudgeResults, unreadableResults } from './judge-batch-read.js';
import { judgeLive, type LiveJudging } from './judge-live.js';
import { judgeSim } from './judge-sim-calls.js';

/** A sim judge's answer to one target: its reply text and truth, or why it cannot answer. */
type SimReply =
  | { requestSha256: string; text: string; truth: unknown }
  | { requestSha256: string; error: string; body: string };

/** Options of `runJudgeCalls`. */
export interface JudgeCallOptions<T> {
  /** The judge ledger file. */
  ledger: string;
  digest: string;
  studyId: string | null;
  /** The judge run's label in the judge ledger. */
  runLabel: string;
  judge: ModelSpec;
  /** The request profile recorded with the judge (a change is reported, as in run). */
  profile: Record<string, unknown>;
  targets: readonly T[];
  /** The id of a target in the judge ledger's trial_id column (`<trial>@<model>`; not a secret). */
  targetIdOf: (t: T) => string;
  /** The request body of a target (`structured: false` after a server rejected response_format). */
  request: (t: T, structured: boolean) => { body: RequestBody; sha256: string };
  /** Swap image references for data (the audit's image trials); identity by default. */
  materialize?: (body: RequestBody) => Promise<RequestBody>;
  /** Ask again without response_format when the server rejects it. */
  structuredFallback?: boolean;
  /** `provider: sim`: the reply of each target. */
  sim?: (t: T, key: string) => SimReply;
  env?: NodeJS.ProcessEnv;
  maxAttempts?: number;
  concurrency?: number;
  backoff?: Backoff;
  /** Judge through batch files (judge-batch.ts) instead of calls; ignored by sim judges. */
  batch?: JudgeBatch;
  /** How long Ctrl-C waits for calls in flight before cutting them (ms, default 30 s, as run). */
  graceMs?: number;
}

/** What one judge did. */
export interface JudgeRunResult {
  judge: string;
  provider: string;
  run: string;
  targets: number;
  skipped: number;
  judged: number;
  failed: number;
  retries: number;
  /**
   * Live calls: responses not asked about because a batch file holds them (exported, results not
   * imported; `score --send-exported` asks them too).
   */
  in_batch: number;
  /** True when the server rejected response_format and plain JSON was asked for instead. */
  fell_back_to_plain_json: boolean;
  /** Judging through batch files: what was imported and exported (nothing was sent). */
  batch?: JudgeBatchResult;
  /** Sim judges: why responses could not be labelled (`no_truth`: not a simulated respondent's), by reason; absent when none failed. */
  failures?: Record<string, number>;
}

/** `judged, skipped, failed` for a log line, with the sim judge's failure reasons. */
export function judgeCounts(r: JudgeRunResult): string {
  const why = r.failures
    ? ` (${Object.entries(r.failures)
        .map(
          ([k, v]) =>
            `${k === 'no_truth' ? 'no simulator truth: not a simulated respondent\u2019s response' : k} ${v}`,
        )
        .join(', ')})`
    : '';
  const b = r.batch;
  const batch = !b
    ? ''
    : b.nothing_pending
      ? '; through batch files, nothing sent: nothing pending (every response judged before), no batch file written or read'
      : `; through batch files, nothing sent${b.imported ? `: recorded ${b.imported.recorded} from ${b.imported.files.join(', ') || 'no file'} (${b.imported.failed} without a label, ${b.imported.skipped} recorded before)` : ''}${b.exported ? (b.exported.file === null ? '; no requests file written (nothing left to ask)' : `; wrote ${b.exported.requests} request(s) to ${b.exported.file}`) : ''}${b.exported?.in_batch ? `; ${b.exported.in_batch} left out: an earlier export holds them, their results not imported (--reexport writes them again)` : ''}`;
  const held = r.in_batch
    ? `, ${r.in_batch} not asked: in a batch file whose results are not imported (import them, or --send-exported)`
    : '';
  return `${r.judged} judged, ${r.skipped} already in the judge ledger, ${r.failed} failed${why}${held}${batch}`;
}

function openRun(
  db: Db,
  file: string,
  digest: string,
  studyId: string | null,
  label: string,
): RunRow {
  const row = db
    .prepare('SELECT run_id, label, bundle_digest, study_id, created_at FROM runs WHERE label = ?')
    .get(label) as RunRow | undefined;
  if (!row) return ensureRun(db, file, digest, studyId, label);
  if (row.bundle_digest !== digest) {
    throw StimkitError.fromProblem({
      code: 'E_AUDIT_JUDGE_LEDGER_DIGEST',
      file,
      message: `judge run "${label}" in this judge ledger is of another bundle`,
      expected: `bundle ${row.bundle_digest}`,
      got: `bundle ${digest}`,
      fix: 'use another --judge-ledger file for this bundle',
    });
  }
  return row;
}

/** The judge's API key from the environment (openai judges with api_key_env), or null. */
function judgeApiKey(judge: ModelSpec, env: NodeJS.ProcessEnv): string | null {
  if (judge.provider !== 'openai' || !judge.api_key_env) return null;
  const key = env[judge.api_key_env];
  if (!key) {
    throw StimkitError.fromProblem({
      code: 'E_AUDIT_JUDGE_NO_KEY',
      field: `${judge.name}.api_key_env`,
      message: `judge "${judge.name}" reads its API key from ${keyEnvText(judge)}, which is not set`,
      fix: keyEnvFix(judge),
    });
  }
  return key;
}

/** The checked result lines of the judge batch files `inputs` for this judging (judge-batch-read.ts). */
function readBatchIn<T>(
  o: JudgeCallOptions<T>,
  inputs: readonly string[],
): ReturnType<typeof readJudgeResults> {
  const expected = new Map(o.targets.map((t) => [o.targetIdOf(t), o.request(t, true).sha256]));
  return readJudgeResults(
    inputs,
    { judge: o.judge, runLabel: o.runLabel, digest: o.digest, expected },
    (dir) => judgeBatchFile(dir, o.judge.name, o.runLabel, 'results'),
    o.batch?.partial ?? false,
  );
}

/** No results file answers this judging: nothing is opened or written. */
function nothingToRecord<T>(o: JudgeCallOptions<T>): JudgeRunResult {
  return {
    judge: o.judge.name,
    provider: o.judge.provider,
    run: o.runLabel,
    targets: o.targets.length,
    skipped: 0,
    judged: 0,
    failed: 0,
    retries: 0,
    in_batch: 0,
    fell_back_to_plain_json: false,
    batch: { imported: { files: [], recorded: 0, failed: 0, skipped: 0 } },
  };
}

/** Judges are called through OpenAI-compatible chat completions (or simulated). */
function refuseNativeJudge(judge: ModelSpec): void {
  if (judge.provider !== 'anthropic' && judge.provider !== 'gemini') return;
  throw StimkitError.fromProblem({
    code: 'E_AUDIT_JUDGE_PROVIDER',
    field: `${judge.name}.provider`,
    message: `judge "${judge.name}" is provider ${judge.provider}; judges are called through OpenAI-compatible chat completions`,
    expected: 'provider: openai (or sim)',
    got: `provider: ${judge.provider}`,
    fix: `serve the judge through an OpenAI-compatible endpoint (e.g. the vendor's compatibility endpoint or a gateway) with provider: openai`,
  });
}

/** The judge run opened in the ledger: its writer, what is done and pending, and the result so far. */
function openJudging<T>(o: JudgeCallOptions<T>, db: Db, redactor: Redactor) {
  const { judge } = o;
  const run = openRun(db, o.ledger, o.digest, o.studyId, o.runLabel);
  // A pinned OpenRouter route is sent with every judge request (judgeBody), so it is profiled too.
  const profile = judge.routing ? { ...o.profile, routing: judge.routing } : o.profile;
  registerModel(db, o.ledger, run, judge.name, judge.provider, profile, {
    role: 'judge',
    api_model: judge.api_model ?? judge.name,
    vendor: judge.vendor ?? null,
    revision: judge.revision ?? null,
  });
  const writer = new LedgerWriter(db, run.run_id, o.digest, redactor);
  const done = finishedTrials(db, run.run_id, judge.name, true);
  const unjudged = o.targets.filter((t) => !done.has(o.targetIdOf(t)));
  // Live calls leave out what a batch file holds (exported, results not imported) unless asked.
  const held = o.batch?.sendExported ? new Map() : inBatch(db, run.run_id, judge.name);
  const pending = unjudged.filter((t) => !held.has(o.targetIdOf(t)));
  const result: JudgeRunResult = {
    judge: judge.name,
    provider: judge.provider,
    run: run.label,
    targets: o.targets.length,
    skipped: o.targets.length - unjudged.length,
    in_batch: unjudged.length - pending.length,
    judged: 0,
    failed: 0,
    retries: 0,
    fell_back_to_plain_json: false,
  };
  const prior = attemptCounts(db, run.run_id, judge.name);
  const seenLines = () =>
    new Set(
      db
        .prepare(
          "SELECT endpoint FROM attempts WHERE run_id = ? AND model = ? AND source = 'batch'",
        )
        .pluck()
        .all(run.run_id, judge.name) as string[],
    );
  return { run, writer, done, unjudged, pending, result, prior, seenLines };
}

/**
 * The live calls under Ctrl-C (client/interrupt.ts, as run): the first stops sending and lets the
 * calls in flight finish for `graceMs`, the second cuts them; an interrupted judging is an error
 * with run's exit code 130 (nothing is scored from a judging cut short; scoring again resumes).
 */
async function judgeLiveUntilStopped<T>(
  c: Omit<LiveJudging<T>, 'interrupt' | 'state'>,
  pending: readonly T[],
): Promise<void> {
  const { o } = c;
  const interrupt: Interrupt = { stopping: false, abort: new AbortController() };
  setMaxListeners(0, interrupt.abort.signal); // one listener per call in flight
  const unwatch = watchSigint(interrupt, o.graceMs, undefined, 'stimkit score --judge');
  try {
    await judgeLive({ ...c, interrupt, state: { structured: true } }, pending);
  } finally {
    unwatch();
  }
  if (interrupt.stopping)
    throw new StimkitError(
      'E_AUDIT_JUDGE_INTERRUPTED',
      `judge "${o.judge.name}": stopped (Ctrl-C); ${c.result.judged} response(s) judged before the stop are in ${o.ledger}`,
      {
        exitCode: EXIT_INTERRUPTED,
        fix: 'score again with the same command: judged responses are kept and the rest are asked',
      },
    );
}

/** Ask `judge` about every target it has not answered yet in this judge run. */
export async function runJudgeCalls<T>(o: JudgeCallOptions<T>): Promise<JudgeRunResult> {
  const { judge } = o;
  refuseNativeJudge(judge);
  const viaBatch = judge.provider !== 'sim' && Boolean(o.batch?.in || o.batch?.out);
  // Through batch files nothing is sent: the key is not needed (but redacted when set).
  const apiKey = viaBatch ? null : judgeApiKey(judge, o.env ?? process.env);
  const envKey = judge.api_key_env ? (o.env ?? process.env)[judge.api_key_env] : undefined;
  const redactor = new Redactor(apiKey ? [apiKey] : envKey ? [envKey] : []);
  // Result files are checked whole before the ledger is opened: a bad one records nothing. They
  // are the vendor's: what an error quotes of them (an id, a served model name) is redacted.
  const read =
    viaBatch && o.batch?.in
      ? await readBatchIn(o, o.batch.in).catch((err: unknown) => {
          throw redactedError(err, redactor);
        })
      : undefined;
  if (read && read.files.length === 0 && read.missing.length === 0 && !o.batch?.out)
    return nothingToRecord(o);
  const db = openLedgerDb(o.ledger);
  const writerLock = acquireLock(db, o.ledger, `stimkit score --judge ${judge.name}`);
  try {
    const j = openJudging(o, db, redactor);
    const { result } = j;
    if (judge.provider === 'sim') {
      judgeSim(o, j, result);
      return result;
    }
    const materialize = o.materialize ?? ((b: RequestBody) => Promise.resolve(b));
    // A folder without this judging's results file is fine only when nothing is pending.
    if (read && read.missing.length > 0 && j.unjudged.length > 0)
      throw unreadableResults(read.missing[0]!, 'ENOENT');
    if (viaBatch && o.batch) {
      result.batch = await judgeThroughBatch(o.batch, {
        ...j,
        judge,
        runLabel: j.run.label,
        digest: o.digest,
        targets: o.targets,
        read,
        targetIdOf: o.targetIdOf,
        request: (t) => o.request(t, true),
        materialize,
        seenLines: j.seenLines(),
        ledger: { db, runId: j.run.run_id },
      });
      result.judged = result.batch.imported?.recorded ?? 0;
      // Through batch files nothing is asked: what an export left out is in `batch.exported`.
      result.in_batch = 0;
      return result;
    }
    await judgeLiveUntilStopped({ ...j, o, apiKey, redactor, materialize }, j.pending);
    return result;
  } finally {
    writerLock.release();
    db.close();
  }
}
