/**
 * The instrument's optional free-text judge for `stimkit score --judge NAME`: find the answers
 * the parser could not read (instrument-judge-apply.ts says which), ask each named judge (models
 * file, `role: judge`) about them through the judge ledger (audit/judge-calls.ts: resumable,
 * retried, the key never stored), read every reply back, and return the instrument scorer with
 * the judges' labels and their agreement. The judge run is `<respondent run>/instrument-<prompt
 * sha256, 12 hex>` in the same judge ledger as the audit's judges (default: beside the run
 * ledger, `.judges.sqlite`). Without judges it returns the plain instrument scorer; with no free
 * text to judge it calls nobody (and writes no judge run).
 */
import { resolveJudges } from './judges.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { defaultJudgeLedger } from './audit-prepare.js';
import type { JudgeBatch } from '../audit/judge-batch.js';
import { judgeCounts, runJudgeCalls, type JudgeRunResult } from '../audit/judge-calls.js';
import { judgeKey } from '../audit/judge-request.js';
import { sha256 } from '../core/fsio.js';
import { canonicalJson } from '../core/json.js';
import { openLedger } from '../ledger/index.js';
import type { Backoff } from '../run/backoff.js';
import { loadScoreBundle } from './bundle.js';
import { keyingSign, makeInstrumentScorer } from './instrument.js';
import { pairAgreement } from './instrument-judge-agreement.js';
import { isJudgeable, JUDGED_REASONS, type JudgeVerdict } from './instrument-judge-apply.js';
import {
  INSTRUMENT_JUDGE_PROMPT_SHA256,
  instrumentJudgeRequest,
  questionOf,
  readJudgeLabel,
} from './instrument-judge-prompt.js';
import { DEFAULT_INSTRUMENT_ACCURACY, simInstrumentJudge } from './instrument-sim-judge.js';
import { optionParser, type OptionParser } from './parse.js';
import { responsesOfSource } from './source.js';
import type { ResponseSource } from './score.js';
import type { ParadigmScorer } from './types.js';

/** Options of `prepareInstrumentJudge`. */
export interface InstrumentJudgeOptions {
  bundle: string;
  source: ResponseSource;
  /** Models file holding the judges (`role: judge`). Required with judges. */
  models?: string;
  /** Judge names, primary first. */
  judges?: string[];
  /** Judge ledger file (default: beside the run ledger or responses file, `.judges.sqlite`). */
  judgeLedger?: string;
  /** Judge through batch files instead of calls (`score --judge-batch-out/--judge-batch-in`). */
  judgeBatch?: JudgeBatch;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  backoff?: Backoff;
  maxAttempts?: number;
}

/** The instrument scorer, with what each judge did. */
export interface PreparedInstrumentJudge {
  scorer: ParadigmScorer;
  judged: JudgeRunResult[];
}

/** One free-text answer to judge. */
interface Target {
  key: string;
  trialId: string;
  model: string;
  question: string;
  response: string;
  truth: Record<string, unknown> | null;
  sign: number;
}

/** The instrument judge run's label for a respondent run. */
function instrumentJudgeRunLabel(respondentRun: string): string {
  return `${respondentRun}/instrument-${INSTRUMENT_JUDGE_PROMPT_SHA256.slice(0, 12)}`;
}

/** Every judge's verdict in a judge run, by judge key. */
function readVerdicts(ledgerFile: string, run: string, judge: string): Map<string, JudgeVerdict> {
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

/** Judge the free-text instrument answers and build the instrument scorer with the judges' labels. */
// eslint-disable-next-line max-lines-per-function -- not yet split by phase (see docs/DESIGN.md, layout)
export async function prepareInstrumentJudge(
  o: InstrumentJudgeOptions,
): Promise<PreparedInstrumentJudge> {
  const names = o.judges ?? [];
  if (names.length === 0) return { scorer: makeInstrumentScorer(), judged: [] };
  const judges = await resolveJudges(o.models, names);
  const bundle = await loadScoreBundle(o.bundle);
  const { responses, run } = await responsesOfSource(o.source, bundle);
  const parsers = new Map<string, OptionParser>();
  const targets: Target[] = [];
  for await (const r of responses) {
    const trial = bundle.trials[bundle.order.get(r.trial_id) ?? -1];
    const topic = trial?.topic ? bundle.topics.get(trial.topic) : undefined;
    if (!trial || trial.paradigm !== 'instrument' || !topic || !trial.framing) continue;
    const options = bundle.options.get(trial.lang);
    if (!options) continue;
    let parse = parsers.get(trial.lang);
    if (!parse) parsers.set(trial.lang, (parse = optionParser(options, trial.lang)));
    if (!isJudgeable(parse(r.response), r.response)) continue;
    targets.push({
      key: judgeKey(trial.id, r.model),
      trialId: trial.id,
      model: r.model,
      question: questionOf(trial),
      response: r.response!,
      truth: r.truth,
      sign: keyingSign(topic.affirmative_pole, trial.framing),
    });
  }
  const studyId =
    ((await bundle.readJson('bundle.json')) as { study?: { id?: string } }).study?.id ?? null;
  const ledger = path.resolve(o.judgeLedger ?? defaultJudgeLedger(o.source));
  const runLabel = instrumentJudgeRunLabel(run);
  const judged: JudgeRunResult[] = [];
  const verdicts: Array<{ name: string; simulated: boolean; verdicts: Map<string, JudgeVerdict> }> =
    [];
  for (const judge of judges) {
    if (targets.length === 0) {
      verdicts.push({ name: judge.name, simulated: judge.provider === 'sim', verdicts: new Map() });
      continue;
    }
    o.log?.(`instrument judge ${judge.name}: ${targets.length} free-text answers`);
    const sim =
      judge.provider === 'sim'
        ? {
            seed: judge.sim?.seed ?? 0,
            accuracy: judge.sim?.judge?.instrument_accuracy ?? DEFAULT_INSTRUMENT_ACCURACY,
          }
        : null;
    const profile = sim
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
    const res = await runJudgeCalls<Target>({
      ledger,
      digest: bundle.digest,
      studyId,
      runLabel,
      judge,
      profile,
      targets,
      keyOf: (t) => t.key,
      request: (t) => instrumentJudgeRequest(judge, t.question, t.response),
      sim: sim
        ? (t, k) => {
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
          }
        : undefined,
      env: o.env,
      backoff: o.backoff,
      maxAttempts: o.maxAttempts,
      batch: o.judgeBatch,
    });
    judged.push(res);
    o.log?.(`instrument judge ${judge.name}: ${judgeCounts(res)}`);
    verdicts.push({
      name: judge.name,
      simulated: judge.provider === 'sim',
      verdicts: readVerdicts(ledger, runLabel, judge.name),
    });
  }
  const keys = new Set(targets.map((t) => t.key));
  const signs = new Map(targets.map((t) => [t.key, t.sign]));
  for (const v of verdicts)
    for (const k of [...v.verdicts.keys()]) if (!keys.has(k)) v.verdicts.delete(k);
  const countBy = (vs: ReadonlyMap<string, JudgeVerdict>) => {
    const m: Record<string, number> = {};
    for (const v of vs.values()) m[v.label ?? v.status] = (m[v.label ?? v.status] ?? 0) + 1;
    return Object.fromEntries(Object.entries(m).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  };
  const params = {
    prompt:
      'instrument paper, Supplementary Note 3 (verbatim system prompt; user message: QUESTION and RESPONSE)',
    prompt_sha256: INSTRUMENT_JUDGE_PROMPT_SHA256,
    routed: [...JUDGED_REASONS],
    ledger: { file: ledger, run: runLabel },
    primary: judges[0]!.name,
    judges: judges.map((j, i) => ({
      name: j.name,
      provider: j.provider,
      api_model: j.api_model ?? j.name,
      simulated: j.provider === 'sim',
      labels: countBy(verdicts[i]!.verdicts),
    })),
    free_text: targets.length,
    agreement: verdicts
      .slice(1)
      .map((v) =>
        pairAgreement(
          verdicts[0]!.name,
          verdicts[0]!.verdicts,
          v.name,
          v.verdicts,
          (k) => signs.get(k) ?? 1,
        ),
      ),
  };
  return { scorer: makeInstrumentScorer({ judges: verdicts, params }), judged };
}
