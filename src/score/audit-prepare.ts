/**
 * Preparing the audit for `stimkit score`: read the bundle's entries, run the named judges (from
 * the models file, `role: judge`) over the VLM responses into the judge ledger, read their labels
 * back, and return the VLM scorer. Without judges the scorer still measures D5, D6 and the
 * lexical baselines, and the judge columns stay empty.
 */
import { noValueReason } from './outcome.js';
import { resolveJudges } from './judges.js';
import path from 'node:path';
import { StimkitError } from '../core/errors.js';
import { loadScoreBundle, type ScoreBundle } from './bundle.js';
import { responsesOfSource } from './source.js';
import type { ResponseSource } from './score.js';
import type { ParadigmScorer, ResponseRecord } from './types.js';
import type { Trial } from '../bundle/format.js';
import type { ModelSpec } from '../models/schema.js';
import { IMAGE_PARADIGMS, VLM_PARADIGMS, type VlmParadigm } from '../study/schema.js';
import { readJudgeLabels } from '../audit/judge-read.js';
import { judgeKey, type JudgeTarget } from '../audit/judge-request.js';
import type { JudgeBatch } from '../audit/judge-batch.js';
import { judgeRunLabel, runJudge, type JudgeRunResult } from '../audit/judge-run.js';
import { judgeCounts } from '../audit/judge-calls.js';
import { resolveRubric, type ResolvedRubric } from '../study/rubric.js';
import { promptText, vlmScorer, type AuditEntry, type JudgeLabels } from './audit-scorer.js';

/** Options of `prepareAudit`. */
export interface AuditOptions {
  bundle: string;
  source: ResponseSource;
  /** Models file: respondents' origin, and the judges. Required with judges. */
  models?: string;
  /** Judge names (role judge in the models file), primary first. */
  judges?: string[];
  /** `--rubric FILE`: overrides the bundle's sealed rubric. */
  rubric?: string;
  /** Judge ledger file (default: beside the run ledger or the responses file, `.judges.sqlite`). */
  judgeLedger?: string;
  /** Judge through batch files instead of calls (`score --judge-batch-out/--judge-batch-in`). */
  judgeBatch?: JudgeBatch;
  env?: NodeJS.ProcessEnv;
  /** Parameters of sim judges, by judge name (default: the paper's primary judge accuracies). */
  simJudges?: Record<string, unknown>;
  log?: (line: string) => void;
}

/** The prepared audit. */
export interface PreparedAudit {
  scorer: ParadigmScorer;
  judged: JudgeRunResult[];
  judgeLedger: string | null;
}

/** The default judge ledger of a response source. */
export function defaultJudgeLedger(source: ResponseSource): string {
  return `${source.file.replace(/\.(sqlite|jsonl)$/i, '')}.judges.sqlite`;
}

interface EntryRecord {
  id: string;
  title: Record<string, string>;
  topic?: string;
  sensitivity: string;
  expected_facts: Array<{ id: string } & Record<string, unknown>>;
  narrative_markers?: Record<string, string[]>;
}

async function readEntries(bundle: ScoreBundle): Promise<Map<string, EntryRecord>> {
  const hasVlm = bundle.trials.some((t) =>
    (VLM_PARADIGMS as readonly string[]).includes(t.paradigm),
  );
  if (!hasVlm) return new Map();
  const entries = await bundle.sealed.entries();
  if (!entries)
    throw StimkitError.fromProblem({
      code: 'E_SCORE_BUNDLE',
      file: path.join(bundle.dir, 'data', 'entries.json'),
      message:
        'the bundle has VLM trials but no entries.json (manifest-sha256.txt does not list it)',
      fix: 'run `stimkit verify` on the bundle, or seal it again with `stimkit bundle`',
    });
  return new Map(entries.map((e) => [e.id, e]));
}

function factsOf(e: EntryRecord): Array<{ id: string } & Record<string, unknown>> {
  // Entries carry facts as {id, en, zh, aliases}; the judge sees the texts per language.
  return e.expected_facts.map((f) => {
    const texts = (f as { text?: Record<string, string> }).text;
    return texts && typeof texts === 'object' ? { id: f.id, ...texts } : f;
  });
}

/** The study id sealed in the bundle (null when it names none). */
export function studyIdOf(bundle: ScoreBundle): string | null {
  return bundle.sealed.header.study.id;
}

/** What the scorer needs of each entry. */
function auditEntriesOf(entries: Map<string, EntryRecord>): Map<string, AuditEntry> {
  return new Map<string, AuditEntry>(
    [...entries].map(([id, e]) => [
      id,
      {
        id,
        sensitivity: e.sensitivity,
        narrative_markers: e.narrative_markers,
        expected_facts: e.expected_facts,
      },
    ]),
  );
}

/** What the judge is told of one VLM response: its trial, entry, prompt, image and text. */
function judgeTarget(
  trial: Trial,
  r: ResponseRecord,
  response: string,
  entries: Map<string, EntryRecord>,
): JudgeTarget {
  const e = trial.entry ? (entries.get(trial.entry) ?? null) : null;
  const image = IMAGE_PARADIGMS.has(trial.paradigm as VlmParadigm)
    ? (trial.images[0] ?? null)
    : null;
  return {
    trialId: trial.id,
    model: r.model,
    imageSha256: image,
    truth: r.truth,
    input: {
      trial_id: trial.id,
      entry: e
        ? {
            id: e.id,
            title: e.title,
            topic: e.topic,
            sensitivity: e.sensitivity,
            expected_facts: factsOf(e),
          }
        : null,
      prompt: { text: promptText(trial), lang: trial.lang, paradigm: trial.paradigm },
      response,
    },
  };
}

/** The judge targets: every VLM answer with a text, in the source's order. */
async function judgeTargets(
  bundle: ScoreBundle,
  entries: Map<string, EntryRecord>,
  responses: AsyncIterable<ResponseRecord>,
): Promise<JudgeTarget[]> {
  const targets: JudgeTarget[] = [];
  for await (const r of responses) {
    const trial = bundle.trials[bundle.order.get(r.trial_id) ?? -1];
    if (
      !trial ||
      !(VLM_PARADIGMS as readonly string[]).includes(trial.paradigm) ||
      r.response === null ||
      noValueReason(r) !== null // not an answer: nothing of the model's to judge
    )
      continue;
    targets.push(judgeTarget(trial, r, r.response, entries));
  }
  return targets;
}

/** What every judge of one `prepareAudit` shares. */
interface Judging {
  o: AuditOptions;
  bundle: ScoreBundle;
  studyId: string | null;
  run: string;
  rubric: ResolvedRubric;
  judgeLedger: string;
  targets: JudgeTarget[];
  /** The targets by judge key. */
  byKey: Map<string, JudgeTarget>;
}

/** Run one judge over the targets into the judge ledger (resumable: what is there is not asked). */
async function runOneJudge(j: Judging, judge: ModelSpec): Promise<JudgeRunResult> {
  const { o } = j;
  o.log?.(`judge ${judge.name}: ${j.targets.length} responses`);
  const res = await runJudge({
    ledger: j.judgeLedger,
    bundleDir: o.bundle,
    digest: j.bundle.digest,
    studyId: j.studyId,
    respondentRun: j.run,
    judge,
    rubric: j.rubric,
    targets: j.targets,
    env: o.env,
    simParams: o.simJudges?.[judge.name],
    batch: o.judgeBatch,
  });
  o.log?.(`judge ${judge.name}: ${judgeCounts(res)}`);
  return res;
}

/** One judge's labels, read back from the judge ledger and checked against each response. */
function labelsOf(j: Judging, judge: ModelSpec): JudgeLabels {
  const { rubric } = j;
  const got = readJudgeLabels(
    j.judgeLedger,
    judgeRunLabel(j.run, rubric.digest),
    judge.name,
    (trialId, model) => {
      const t = j.byKey.get(judgeKey(trialId, model));
      return t
        ? {
            response: t.input.response,
            image: t.imageSha256 !== null,
            threshold: rubric.rubric.confidence_threshold,
            factIds: t.input.entry?.expected_facts.map((f) => f.id),
          }
        : null;
    },
  );
  return { name: judge.name, simulated: judge.provider === 'sim', labels: got };
}

/** The VLM scorer with the judges' labels, the rubric and the judge ledger they come from. */
function judgedScorer(
  j: Judging,
  entries: Map<string, AuditEntry>,
  labels: JudgeLabels[],
): ParadigmScorer {
  const { rubric } = j;
  return vlmScorer({
    entries,
    judges: labels,
    rubric: {
      id: rubric.rubric.id,
      digest: rubric.digest,
      source: rubric.source,
      is_sealed: rubric.is_sealed,
      sealed_digest: rubric.sealed_digest,
    },
    judgeLedger: { file: j.judgeLedger, run: judgeRunLabel(j.run, rubric.digest) },
  });
}

/** Run the judges and build the VLM scorer. */
export async function prepareAudit(o: AuditOptions): Promise<PreparedAudit> {
  const bundle = await loadScoreBundle(o.bundle);
  const entries = await readEntries(bundle);
  const auditEntries = auditEntriesOf(entries);
  const names = o.judges ?? [];
  if (names.length === 0) {
    return {
      scorer: vlmScorer({ entries: auditEntries, judges: [], rubric: null, judgeLedger: null }),
      judged: [],
      judgeLedger: null,
    };
  }
  const judges = await resolveJudges(o.models, names);
  const { responses, run } = await responsesOfSource(o.source, bundle);
  const rubric = await resolveRubric(await bundle.sealed.rubric(), o.rubric);
  const studyId = studyIdOf(bundle);
  const targets = await judgeTargets(bundle, entries, responses);
  const judgeLedger = path.resolve(o.judgeLedger ?? defaultJudgeLedger(o.source));
  const byKey = new Map(targets.map((t) => [judgeKey(t.trialId, t.model), t]));
  const judging: Judging = { o, bundle, studyId, run, rubric, judgeLedger, targets, byKey };
  const judged: JudgeRunResult[] = [];
  const labels: JudgeLabels[] = [];
  for (const judge of judges) {
    judged.push(await runOneJudge(judging, judge));
    labels.push(labelsOf(judging, judge));
  }
  return { scorer: judgedScorer(judging, auditEntries, labels), judged, judgeLedger };
}
