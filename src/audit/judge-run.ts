/**
 * Running judges over a respondent run's responses, through the run stage's ledger code: a judge
 * ledger (a `stimkit.ledger` file) holds one run per (respondent run, rubric digest) of the same
 * bundle digest, the judge as its model, and one final result per judged response keyed by
 * `<trial id>@<respondent model>`, whose response_text is the judge's raw reply (always kept).
 * Rerunning resumes (judged responses are skipped); infrastructure faults are retried with
 * run's backoff; the API key is read from the variable the models file names and never written
 * (replies pass run's redactor). A server that rejects `response_format` is asked again without
 * it (the prompt still asks for JSON). A `provider: sim` judge labels simulated responses from
 * their recorded truth (simulated = 1, truth = the true labels).
 */
import pMap from 'p-map';
import { StimkitError } from '../core/errors.js';
import { sha256 } from '../core/fsio.js';
import { canonicalJson } from '../core/json.js';
import { acquireLock } from '../ledger/lock.js';
import { openLedgerDb, type Db } from '../ledger/open.js';
import { ensureRun, registerModel, type RunRow } from '../ledger/runs.js';
import { attemptCounts, finishedTrials, LedgerWriter } from '../ledger/write.js';
import type { ModelSpec } from '../models/schema.js';
import { backoffDelay, DEFAULT_BACKOFF, sleep, type Backoff } from '../run/backoff.js';
import { classify } from '../run/classify.js';
import { ImageStore } from '../run/images.js';
import { Redactor } from '../run/redact.js';
import { sendChat } from '../run/transport.js';
import { buildJudgeRequest, judgeKey, NO_SCHEMA_RE, type JudgeTarget } from './judge-request.js';
import type { ResolvedRubric } from './rubric.js';
import { simJudgeLabel, SimJudgeParams } from './sim-judge.js';

/** Options of `runJudge`. */
export interface JudgeRunOptions {
  /** The judge ledger file. */
  ledger: string;
  bundleDir: string;
  digest: string;
  studyId: string | null;
  /** Label of the respondent run judged (the judge run is `<label>/rubric-<digest 12>`). */
  respondentRun: string;
  judge: ModelSpec;
  rubric: ResolvedRubric;
  targets: JudgeTarget[];
  env?: NodeJS.ProcessEnv;
  /** Sim judges: sensitivity/specificity (default: the paper's primary judge, Appendix D). */
  simParams?: unknown;
  maxAttempts?: number;
  concurrency?: number;
  backoff?: Backoff;
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
  /** True when the server rejected response_format and plain JSON was asked for instead. */
  fell_back_to_plain_json: boolean;
}

/** The judge run's label for a respondent run and a rubric. */
export function judgeRunLabel(respondentRun: string, rubricDigest: string): string {
  return `${respondentRun}/rubric-${rubricDigest.slice(0, 12)}`;
}

function openRun(db: Db, file: string, digest: string, studyId: string | null, label: string): RunRow {
  const row = db.prepare('SELECT run_id, label, bundle_digest, study_id, created_at FROM runs WHERE label = ?').get(label) as RunRow | undefined;
  if (!row) return ensureRun(db, file, digest, studyId, label);
  if (row.bundle_digest !== digest) {
    throw StimkitError.fromProblem({
      code: 'E_AUDIT_JUDGE_LEDGER_DIGEST', file, message: `judge run "${label}" in this judge ledger is of another bundle`,
      expected: `bundle ${row.bundle_digest}`, got: `bundle ${digest}`, fix: 'use another --judge-ledger file for this bundle',
    });
  }
  return row;
}

function apiKey(judge: ModelSpec, env: NodeJS.ProcessEnv): string | null {
  if (judge.provider !== 'openai' || !judge.api_key_env) return null;
  const key = env[judge.api_key_env];
  if (!key) {
    throw StimkitError.fromProblem({
      code: 'E_AUDIT_JUDGE_NO_KEY', field: `${judge.name}.api_key_env`, message: `judge "${judge.name}" reads its API key from $${judge.api_key_env}, which is not set`,
      fix: `export ${judge.api_key_env}=… in this shell`,
    });
  }
  return key;
}

/** Judge every target not yet judged by `judge` under this rubric. */
export async function runJudge(o: JudgeRunOptions): Promise<JudgeRunResult> {
  const { judge } = o;
  const key = apiKey(judge, o.env ?? process.env);
  const redactor = new Redactor(key ? [key] : []);
  const db = openLedgerDb(o.ledger);
  const lock = acquireLock(db, o.ledger, `stimkit score --judge ${judge.name}`);
  try {
    const run = openRun(db, o.ledger, o.digest, o.studyId, judgeRunLabel(o.respondentRun, o.rubric.digest));
    const simParams = judge.provider === 'sim' ? SimJudgeParams.parse(o.simParams ?? { seed: judge.sim?.seed ?? 0, ...(judge.sim?.judge ?? {}) }) : null;
    const profile = judge.provider === 'sim'
      ? { provider: 'sim', sim_judge: simParams, rubric_digest: o.rubric.digest }
      : { provider: 'openai', api_model: judge.api_model ?? judge.name, sampling: judge.sampling, extra_body: judge.extra_body, rubric_digest: o.rubric.digest };
    registerModel(db, o.ledger, run, judge.name, judge.provider, profile, { role: 'judge', api_model: judge.api_model ?? judge.name, vendor: judge.vendor ?? null, revision: judge.revision ?? null });
    const writer = new LedgerWriter(db, run.run_id, o.digest, redactor);
    const done = finishedTrials(db, run.run_id, judge.name, true);
    const pending = o.targets.filter((t) => !done.has(judgeKey(t.trialId, t.model)));
    const result: JudgeRunResult = { judge: judge.name, provider: judge.provider, run: run.label, targets: o.targets.length, skipped: o.targets.length - pending.length, judged: 0, failed: 0, retries: 0, fell_back_to_plain_json: false };
    const prior = attemptCounts(db, run.run_id, judge.name);
    if (simParams) {
      writer.recordMany(pending.map((t) => {
        const k = judgeKey(t.trialId, t.model);
        const sim = simJudgeLabel(simParams, judge.name, t.model, t.trialId, t.truth, t.input.response, t.imageSha256 !== null);
        const requestSha256 = sha256(canonicalJson({ provider: 'sim', judge: judge.name, params: simParams, rubric: o.rubric.digest, key: k }));
        const outcome = sim ? 'answer' as const : 'failed' as const;
        if (sim) result.judged++;
        else result.failed++;
        return {
          model: judge.name, trialId: k, attempt: (prior.get(k) ?? 0) + 1, source: 'sim', requestSha256, endpoint: null, end: { outcome },
          final: sim
            ? { outcome, request_sha256: requestSha256, response_text: JSON.stringify(sim.label), finish_reason: 'stop', served_model: `sim:${judge.name}`, simulated: true, truth: sim.truth, attempts: 1 }
            : { outcome, request_sha256: requestSha256, error_class: 'no_truth', error_body: 'a sim judge labels only simulated VLM responses (their recorded truth)', attempts: 1 },
        };
      }));
      return result;
    }
    const endpoints = Array.isArray(judge.endpoint) ? judge.endpoint : [judge.endpoint!];
    const images = new ImageStore(o.bundleDir);
    const backoff = o.backoff ?? DEFAULT_BACKOFF;
    let structured = true;
    let turn = 0;
    await pMap(pending, async (t) => {
      const k = judgeKey(t.trialId, t.model);
      let attempt = prior.get(k) ?? 0;
      for (let n = 1; ; n++) {
        attempt++;
        const req = buildJudgeRequest(o.rubric.rubric, t, judge, structured);
        const endpoint = endpoints[turn++ % endpoints.length]!;
        const id = writer.startAttempt(judge.name, k, attempt, 'judge', req.sha256, endpoint);
        const raw = await sendChat(endpoint, JSON.stringify(await images.materialize(req.body)), key, judge.timeout_s * 1000);
        const v = classify(raw);
        const base = { request_sha256: req.sha256, attempts: n, latency_ms: raw.latencyMs };
        if (v.kind === 'final') {
          const r = v.reply;
          writer.recordFinal(id, judge.name, k, { outcome: r.outcome, http_status: r.http_status, latency_ms: raw.latencyMs }, {
            ...base, outcome: r.outcome, response_text: r.text, reasoning_text: r.reasoning, finish_reason: r.finish_reason, usage: r.usage,
            served_model: r.served_model, system_fingerprint: r.system_fingerprint, http_status: r.http_status, error_class: r.error_class, error_body: r.error_body,
          });
          result.judged++;
          return;
        }
        if (v.kind === 'failed' && structured && (v.httpStatus === 400 || v.httpStatus === 422) && NO_SCHEMA_RE.test(v.body ?? '')) {
          writer.finishAttempt(id, { outcome: 'retry', error_class: 'response_format_unsupported', http_status: v.httpStatus, error_body: v.body, latency_ms: raw.latencyMs });
          structured = false;
          result.fell_back_to_plain_json = true;
          continue;
        }
        const give = v.kind === 'failed' || v.kind === 'auth' || v.kind === 'interrupted' || n >= (o.maxAttempts ?? 6);
        if (give) {
          const errorClass = v.kind === 'retry' ? `${v.errorClass} (after ${n} attempts)` : v.kind === 'failed' ? v.errorClass : v.kind;
          const status = v.kind === 'retry' || v.kind === 'failed' || v.kind === 'auth' ? v.httpStatus : null;
          const body = v.kind === 'retry' || v.kind === 'failed' || v.kind === 'auth' ? v.body : null;
          writer.recordFinal(id, judge.name, k, { outcome: 'failed', error_class: errorClass, http_status: status, error_body: body, latency_ms: raw.latencyMs }, { ...base, outcome: 'failed', error_class: errorClass, http_status: status, error_body: body });
          result.failed++;
          return;
        }
        writer.finishAttempt(id, { outcome: 'retry', error_class: v.errorClass, http_status: v.httpStatus, error_body: v.body, latency_ms: raw.latencyMs });
        result.retries++;
        await sleep(backoffDelay(n, backoff, v.retryAfterMs));
      }
    }, { concurrency: o.concurrency ?? judge.concurrency });
    return result;
  } finally {
    lock.release();
    db.close();
  }
}
