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
import { noValueReason } from './outcome.js';
import { resolveJudges } from './judges.js';
import path from 'node:path';
import { defaultJudgeLedger, studyIdOf } from './audit-prepare.js';
import type { JudgeBatch } from '../audit/judge-batch.js';
import { judgeCounts, type JudgeRunResult } from '../audit/judge-calls.js';
import { judgeKey } from '../audit/judge-request.js';
import type { ModelSpec } from '../models/schema.js';
import type { Backoff } from '../client/backoff.js';
import { loadScoreBundle, type ScoreBundle } from './bundle.js';
import { keyingSign, makeInstrumentScorer } from './instrument.js';
import { pairAgreement } from './instrument-judge-agreement.js';
import { isJudgeable, JUDGED_REASONS, type JudgeVerdict } from './instrument-judge-apply.js';
import {
  callJudge,
  readVerdicts,
  type FreeTextJudging,
  type FreeTextTarget,
} from './instrument-judge-calls.js';
import { INSTRUMENT_JUDGE_PROMPT_SHA256, questionOf } from './instrument-judge-prompt.js';
import { optionParserOrNull, type OptionParser } from './parse.js';
import { responsesOfSource } from './source.js';
import type { ResponseSource } from './score.js';
import type { ParadigmScorer, ResponseRecord } from './types.js';

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

/** One judge's verdicts on the free text, by judge key. */
interface Verdicts {
  name: string;
  simulated: boolean;
  verdicts: Map<string, JudgeVerdict>;
}

/** The instrument judge run's label for a respondent run. */
function instrumentJudgeRunLabel(respondentRun: string): string {
  return `${respondentRun}/instrument-${INSTRUMENT_JUDGE_PROMPT_SHA256.slice(0, 12)}`;
}

/** The answers to judge: each instrument answer the parser could not read, in the source's order. */
async function freeTextTargets(
  bundle: ScoreBundle,
  responses: AsyncIterable<ResponseRecord>,
): Promise<FreeTextTarget[]> {
  const parsers = new Map<string, OptionParser | null>();
  const targets: FreeTextTarget[] = [];
  for await (const r of responses) {
    const trial = bundle.trials[bundle.order.get(r.trial_id) ?? -1];
    const topic = trial?.topic ? bundle.topics.get(trial.topic) : undefined;
    if (!trial || trial.paradigm !== 'instrument' || !topic || !trial.framing) continue;
    const options = bundle.options.get(trial.lang);
    if (!options) continue;
    let parse = parsers.get(trial.lang);
    if (parse === undefined)
      parsers.set(trial.lang, (parse = optionParserOrNull(options, trial.lang, bundle.packs)));
    // A language without instrument rules is not scored at all, so not judged either.
    if (!parse) continue;
    if (noValueReason(r) !== null || !isJudgeable(parse(r.response), r.response)) continue;
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
  return targets;
}

/** Ask each judge in turn (none when there is no free text) and read its verdicts back. */
async function judgeFreeText(
  o: InstrumentJudgeOptions,
  j: FreeTextJudging,
  judges: ModelSpec[],
): Promise<{ judged: JudgeRunResult[]; verdicts: Verdicts[] }> {
  const judged: JudgeRunResult[] = [];
  const verdicts: Verdicts[] = [];
  for (const judge of judges) {
    if (j.targets.length === 0) {
      verdicts.push({ name: judge.name, simulated: judge.provider === 'sim', verdicts: new Map() });
      continue;
    }
    o.log?.(`instrument judge ${judge.name}: ${j.targets.length} free-text answers`);
    const res = await callJudge(j, judge);
    judged.push(res);
    o.log?.(`instrument judge ${judge.name}: ${judgeCounts(res)}`);
    verdicts.push({
      name: judge.name,
      simulated: judge.provider === 'sim',
      verdicts: readVerdicts(j.ledger, j.runLabel, judge.name),
    });
  }
  return { judged, verdicts };
}

/** Each judge's verdicts on these answers only (the judge run may hold others'). */
function ofTargets(verdicts: Verdicts[], targets: readonly FreeTextTarget[]): Verdicts[] {
  const keys = new Set(targets.map((t) => t.key));
  return verdicts.map((v) => ({
    ...v,
    verdicts: new Map([...v.verdicts].filter(([k]) => keys.has(k))),
  }));
}

/** How many verdicts gave each label (or status), by label. */
function countBy(vs: ReadonlyMap<string, JudgeVerdict>): Record<string, number> {
  const m: Record<string, number> = {};
  for (const v of vs.values()) m[v.label ?? v.status] = (m[v.label ?? v.status] ?? 0) + 1;
  return Object.fromEntries(Object.entries(m).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The judging's parameters in score.json: prompt, ledger, judges, label counts, agreement. */
function judgingParams(
  j: FreeTextJudging,
  judges: ModelSpec[],
  verdicts: Verdicts[],
): Record<string, unknown> {
  const signs = new Map(j.targets.map((t) => [t.key, t.sign]));
  return {
    prompt:
      'instrument paper, Supplementary Note 3 (verbatim system prompt; user message: QUESTION and RESPONSE)',
    prompt_sha256: INSTRUMENT_JUDGE_PROMPT_SHA256,
    routed: [...JUDGED_REASONS],
    ledger: { file: j.ledger, run: j.runLabel },
    primary: judges[0]!.name,
    judges: judges.map((judge, i) => ({
      name: judge.name,
      provider: judge.provider,
      api_model: judge.api_model ?? judge.name,
      simulated: judge.provider === 'sim',
      labels: countBy(verdicts[i]!.verdicts),
    })),
    free_text: j.targets.length,
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
}

/** Judge the free-text instrument answers and build the instrument scorer with the judges' labels. */
export async function prepareInstrumentJudge(
  o: InstrumentJudgeOptions,
): Promise<PreparedInstrumentJudge> {
  const names = o.judges ?? [];
  if (names.length === 0) return { scorer: makeInstrumentScorer(), judged: [] };
  const judges = await resolveJudges(o.models, names);
  const bundle = await loadScoreBundle(o.bundle);
  const { responses, run } = await responsesOfSource(o.source, bundle);
  const targets = await freeTextTargets(bundle, responses);
  const judging: FreeTextJudging = {
    ledger: path.resolve(o.judgeLedger ?? defaultJudgeLedger(o.source)),
    digest: bundle.digest,
    studyId: studyIdOf(bundle),
    runLabel: instrumentJudgeRunLabel(run),
    targets,
    env: o.env,
    backoff: o.backoff,
    maxAttempts: o.maxAttempts,
    batch: o.judgeBatch,
  };
  const { judged, verdicts: all } = await judgeFreeText(o, judging, judges);
  const verdicts = ofTargets(all, targets);
  const params = judgingParams(judging, judges, verdicts);
  return { scorer: makeInstrumentScorer({ judges: verdicts, params }), judged };
}
