/**
 * Running judges over a respondent run's responses, through the run stage's ledger code
 * (judge-calls.ts does the calls): a judge ledger (a `stimkit.ledger` file) holds one run per (respondent run, rubric digest) of the same
 * bundle digest, the judge as its model, and one final result per judged response keyed by
 * `<trial id>@<respondent model>`, whose response_text is the judge's raw reply (always kept).
 * Rerunning resumes (judged responses are skipped); infrastructure faults are retried with
 * run's backoff; the API key is read from the variable the models file names and never written
 * (replies pass run's redactor). A server that rejects `response_format` is asked again without
 * it (the prompt still asks for JSON). A `provider: sim` judge labels simulated responses from
 * their recorded truth (simulated = 1, truth = the true labels).
 */
import { sha256 } from '../core/fsio.js';
import { canonicalJson } from '../core/json.js';
import { imageProfile } from '../models/image.js';
import type { ModelSpec } from '../models/schema.js';
import type { Backoff } from '../client/backoff.js';
import { ImageStore } from '../client/images.js';
import type { JudgeBatch } from './judge-batch.js';
import { runJudgeCalls, type JudgeRunResult } from './judge-calls.js';
import { buildJudgeRequest, judgeKey, type JudgeTarget } from './judge-request.js';
import type { ResolvedRubric } from '../study/rubric.js';
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
  /** Judge through batch files instead of calls (judge-batch.ts). */
  batch?: JudgeBatch;
}

export type { JudgeRunResult };

/** The judge run's label for a respondent run and a rubric. */
export function judgeRunLabel(respondentRun: string, rubricDigest: string): string {
  return `${respondentRun}/rubric-${rubricDigest.slice(0, 12)}`;
}

/** Judge every target not yet judged by `judge` under this rubric. */
export async function runJudge(o: JudgeRunOptions): Promise<JudgeRunResult> {
  const { judge } = o;
  const simParams =
    judge.provider === 'sim'
      ? SimJudgeParams.parse(
          o.simParams ?? { seed: judge.sim?.seed ?? 0, ...(judge.sim?.judge ?? {}) },
        )
      : null;
  const profile =
    judge.provider === 'sim'
      ? { provider: 'sim', sim_judge: simParams, rubric_digest: o.rubric.digest }
      : {
          provider: 'openai',
          api_model: judge.api_model ?? judge.name,
          sampling: judge.sampling,
          extra_body: judge.extra_body,
          rubric_digest: o.rubric.digest,
          // The judge's image block shapes the bytes it is sent (client/send-image.ts).
          ...(judge.image ? { image: imageProfile(judge.image) } : {}),
        };
  const images = new ImageStore(o.bundleDir);
  return runJudgeCalls<JudgeTarget>({
    ledger: o.ledger,
    digest: o.digest,
    studyId: o.studyId,
    runLabel: judgeRunLabel(o.respondentRun, o.rubric.digest),
    judge,
    profile,
    targets: o.targets,
    targetIdOf: (t) => judgeKey(t.trialId, t.model),
    request: (t, structured) => buildJudgeRequest(o.rubric.rubric, t, judge, structured),
    materialize: async (body) => (await images.sent.materialize(body, judge.image)).body,
    structuredFallback: true,
    sim: simParams
      ? (t, k) => {
          const sim = simJudgeLabel(
            simParams,
            judge.name,
            t.model,
            t.trialId,
            t.truth,
            t.input.response,
            t.imageSha256 !== null,
          );
          const requestSha256 = sha256(
            canonicalJson({
              provider: 'sim',
              judge: judge.name,
              params: simParams,
              rubric: o.rubric.digest,
              key: k,
            }),
          );
          return sim
            ? { requestSha256, text: JSON.stringify(sim.label), truth: sim.truth }
            : {
                requestSha256,
                error: 'no_truth',
                body: 'a sim judge labels only simulated VLM responses (their recorded truth)',
              };
        }
      : undefined,
    env: o.env,
    maxAttempts: o.maxAttempts,
    concurrency: o.concurrency,
    backoff: o.backoff,
    batch: o.batch,
  });
}
