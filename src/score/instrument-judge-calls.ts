/**
 * One free-text judge of the instrument over the answers to judge: its request profile, a sim
 * judge's replies (`provider: sim`: the simulator's truth at the judge's accuracy), the calls
 * through the judge ledger (audit/judge-calls.ts: resumable, retried, the key never stored), and
 * its verdicts read back from the judge ledger.
 */
import { existsSync } from 'node:fs';
import type { JudgeBatch } from '../audit/judge-batch.js';
import { runJudgeCalls, type JudgeCallOptions, type JudgeRunResult } from '../audit/judge-calls.js';
import { sha256 } from '../core/fsio.js';
import { canonicalJson } from '../core/json.js';
import { openLedger } from '../ledger/index.js';
import type { ModelSpec } from '../models/schema.js';
import type { Backoff } from '../client/backoff.js';
import type { JudgeVerdict } from './instrument-judge-apply.js';
import {
  INSTRUMENT_JUDGE_PROMPT_SHA256,
  instrumentJudgeRequest,
  readJudgeLabel,
} from './instrument-judge-prompt.js';
import {
  DEFAULT_INSTRUMENT_ACCURACY,
  simInstrumentJudge,
  type SimInstrumentJudgeParams,
} from './instrument-sim-judge.js';

/** One free-text answer to judge. */
export interface FreeTextTarget {
  key: string;
  trialId: string;
  model: string;
  question: string;
  response: string;
  truth: Record<string, unknown> | null;
  sign: number;
}

/** What every judge of one judging shares: the judge ledger, its run and the answers. */
export interface FreeTextJudging {
  ledger: string;
  digest: string;
  studyId: string | null;
  runLabel: string;
  targets: readonly FreeTextTarget[];
  env?: NodeJS.ProcessEnv;
  backoff?: Backoff;
  maxAttempts?: number;
  batch?: JudgeBatch;
}

type SimReplyOf = NonNullable<JudgeCallOptions<FreeTextTarget>['sim']>;

/** A sim judge's parameters (its seed and accuracy), or null for a judge that is called. */
function simParamsOf(judge: ModelSpec): SimInstrumentJudgeParams | null {
  return judge.provider === 'sim'
    ? {
        seed: judge.sim?.seed ?? 0,
        accuracy: judge.sim?.judge?.instrument_accuracy ?? DEFAULT_INSTRUMENT_ACCURACY,
      }
    : null;
}

/** The request profile recorded with the judge (a change is reported, as in run). */
function profileOf(
  judge: ModelSpec,
  sim: SimInstrumentJudgeParams | null,
): Record<string, unknown> {
  return sim
    ? {
        provider: 'sim',
        sim_instrument_judge: sim,
        prompt_sha256: INSTRUMENT_JUDGE_PROMPT_SHA256,
      }
    : {
        provider: 'openai',
        api_model: judge.api_model ?? judge.name,
        sampling: judge.sampling,
        extra_body: judge.extra_body,
        prompt_sha256: INSTRUMENT_JUDGE_PROMPT_SHA256,
      };
}

/** A sim judge's reply to one answer: a label from the recorded truth, or why it has none. */
function simReplyOf(judge: ModelSpec, sim: SimInstrumentJudgeParams): SimReplyOf {
  return (t, k) => {
    const requestSha256 = sha256(
      canonicalJson({
        provider: 'sim',
        judge: judge.name,
        params: sim,
        prompt: INSTRUMENT_JUDGE_PROMPT_SHA256,
        key: k,
      }),
    );
    const got = simInstrumentJudge(sim, judge.name, t.model, t.trialId, t.truth);
    return got
      ? { requestSha256, text: got.label, truth: got.truth }
      : {
          requestSha256,
          error: 'no_truth',
          body: 'a sim judge labels only simulated instrument answers (their recorded truth)',
        };
  };
}

/** Ask one judge about every answer through the judge ledger (a sim judge answers itself). */
export function callJudge(j: FreeTextJudging, judge: ModelSpec): Promise<JudgeRunResult> {
  const sim = simParamsOf(judge);
  return runJudgeCalls<FreeTextTarget>({
    ledger: j.ledger,
    digest: j.digest,
    studyId: j.studyId,
    runLabel: j.runLabel,
    judge,
    profile: profileOf(judge, sim),
    targets: j.targets,
    targetIdOf: (t) => t.key,
    request: (t) => instrumentJudgeRequest(judge, t.question, t.response),
    sim: sim ? simReplyOf(judge, sim) : undefined,
    env: j.env,
    backoff: j.backoff,
    maxAttempts: j.maxAttempts,
    batch: j.batch,
  });
}

/** Every judge's verdict in a judge run, by judge key. */
export function readVerdicts(
  ledgerFile: string,
  run: string,
  judge: string,
): Map<string, JudgeVerdict> {
  const out = new Map<string, JudgeVerdict>();
  if (!existsSync(ledgerFile)) return out;
  const reader = openLedger(ledgerFile);
  try {
    if (!reader.runs().some((r) => r.label === run)) return out;
    for (const r of reader.results({ run, model: judge })) {
      const raw = r.text ?? r.error_body;
      if (r.outcome === 'failed') {
        out.set(r.trial_id, {
          status: 'failed',
          label: null,
          value: null,
          raw: r.error_class ?? null,
          simulated: r.simulated,
        });
        continue;
      }
      const l = readJudgeLabel(r.text);
      out.set(
        r.trial_id,
        l
          ? { status: 'label', label: l.label, value: l.value, raw, simulated: r.simulated }
          : { status: 'unparseable', label: null, value: null, raw, simulated: r.simulated },
      );
    }
  } finally {
    reader.close();
  }
  return out;
}
