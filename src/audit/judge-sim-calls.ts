/**
 * A `provider: sim` judge's answers, recorded in the judge ledger as replies are (simulated = 1,
 * truth = the true labels), for judge-calls.ts.
 */
import { StimkitError } from '../core/errors.js';
import type { LedgerWriter } from '../ledger/write.js';
import type { JudgeCallOptions, JudgeRunResult } from './judge-calls.js';

/**
 * A sim judge labels a response from the truth the simulator recorded with it; asked to judge
 * responses none of which has one (real respondents), it refuses up front (E_AUDIT_JUDGE_SIM_TRUTH)
 * rather than record every one as failed.
 */
function refuseWithoutTruth(
  judge: string,
  answers: ReadonlyArray<{ error: string } | { text: string }>,
): void {
  const noTruth = answers.filter((a) => 'error' in a && a.error === 'no_truth').length;
  if (answers.length === 0 || noTruth < answers.length) return;
  throw StimkitError.fromProblem({
    code: 'E_AUDIT_JUDGE_SIM_TRUTH',
    field: `--judge ${judge}`,
    message: `judge "${judge}" is simulated: it can only label responses of simulated respondents (provider: sim), which carry the simulator\u2019s truth, and none of these ${answers.length} responses has one`,
    expected: 'responses of simulated respondents',
    got: `${answers.length} response(s) without simulator truth`,
    fix: 'judge these responses with a real judge (provider: openai, role: judge in the models file), or keep the sim judge for runs of simulated respondents',
  });
}

/** A sim judge's answers to the pending targets, recorded as replies (simulated = 1). */
export function judgeSim<T>(
  o: JudgeCallOptions<T>,
  j: { writer: LedgerWriter; pending: readonly T[]; prior: Map<string, number> },
  result: JudgeRunResult,
): void {
  const { judge } = o;
  if (!o.sim)
    throw new StimkitError(
      'E_AUDIT_JUDGE_SIM',
      `judge "${judge.name}" is simulated but this judging has no simulated judge`,
      {
        fix: `judge it with a judge of provider openai (role: judge in the models file) instead of "${judge.name}"`,
      },
    );
  const sim = o.sim;
  const answers = j.pending.map((t) => ({ k: o.targetIdOf(t), r: sim(t, o.targetIdOf(t)) }));
  refuseWithoutTruth(
    judge.name,
    answers.map((a) => a.r),
  );
  j.writer.recordMany(
    answers.map(({ k, r }) => {
      const outcome = 'text' in r ? ('answer' as const) : ('failed' as const);
      if ('text' in r) result.judged++;
      else {
        result.failed++;
        result.failures = { ...result.failures, [r.error]: (result.failures?.[r.error] ?? 0) + 1 };
      }
      const head = { outcome, request_sha256: r.requestSha256, attempts: 1 };
      return {
        model: judge.name,
        trialId: k,
        attempt: (j.prior.get(k) ?? 0) + 1,
        source: 'sim',
        requestSha256: r.requestSha256,
        endpoint: null,
        end: { outcome },
        final:
          'text' in r
            ? {
                ...head,
                response_text: r.text,
                finish_reason: 'stop',
                served_model: `sim:${judge.name}`,
                simulated: true,
                truth: r.truth,
              }
            : { ...head, error_class: r.error, error_body: r.body },
      };
    }),
  );
}
