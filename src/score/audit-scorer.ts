/**
 * The VLM paradigms' scorer (describe, comment-image, comment-text, abstraction, narrative): the
 * six-dimension audit of one response. Measured for every response: D6 (raw, markdown-stripped
 * and deep-stripped lengths, Appendix O), D5 by script and language identification, and the
 * lexical baselines (refusal classes, narrative markers); from each judge that ran: D1–D5 with
 * their sub-fields, the judge's status and review flags. The first judge is the primary one: its
 * labels fill the `d1_…`–`d5_…` columns of trials.csv and audit.csv (empty when no judge ran);
 * judges.csv holds every judge's labels side by side (the columns: audit-columns.ts).
 */
import type { Trial } from '../bundle/format.js';
import { VLM_PARADIGMS } from '../study/schema.js';
import type { ParadigmScorer, ScoreRecord } from './types.js';
import { auditColumns, auditTable, judgesTable } from './audit-columns.js';
import type { JudgedResponse } from '../audit/judge-read.js';
import { judgeKey } from '../audit/judge-request.js';
import { textMeasures } from '../audit/measures.js';
import type { JudgeVerdict } from '../audit/label.js';
import { noValueReason, saidNoFlags, type ScoredAuditParse } from './outcome.js';
import type { ExpectedFact } from '../audit/facts.js';
import { readReasoning } from './reasoning.js';
import { reasoningTable } from './reasoning-columns.js';

/** What the scorer knows of an entry. */
export interface AuditEntry {
  id: string;
  sensitivity: string;
  narrative_markers?: Record<string, string[]>;
  /** The expected facts (id, text per language, aliases per language). */
  expected_facts?: readonly ExpectedFact[];
}

/** One judge's labels, by judge key (`<trial>@<model>`). */
export interface JudgeLabels {
  name: string;
  simulated: boolean;
  labels: Map<string, JudgedResponse>;
}

/** The scorer's inputs besides the responses. */
export interface AuditContext {
  entries: Map<string, AuditEntry>;
  judges: JudgeLabels[];
  /** The rubric the judges used (null without judges). */
  rubric: {
    id: string;
    digest: string;
    source: string;
    is_sealed: boolean;
    sealed_digest: string | null;
  } | null;
  /** The judge ledger and run the labels come from. */
  judgeLedger: { file: string; run: string } | null;
}

const textOf = (t: Trial): string =>
  t.messages
    .flatMap((m) => m.content)
    .map((p) => (p.type === 'text' ? p.text : ''))
    .join('\n');

/** Each judge's verdict on a response (a non-answer's labels are not the model's: left out). */
function judgeVerdicts(
  ctx: AuditContext,
  trialId: string,
  model: string,
  text: string | null,
): JudgeVerdict[] {
  return ctx.judges.map((j) => {
    const got = j.labels.get(judgeKey(trialId, model));
    if (!got || text === null)
      return {
        judge: j.name,
        simulated: j.simulated,
        status: text === null ? 'no_response' : 'missing',
        flags: [],
        problems: [],
        label: null,
      };
    return {
      judge: j.name,
      simulated: got.simulated,
      status: got.parsed.status,
      flags: [...got.parsed.flags],
      problems: got.parsed.problems,
      label: got.parsed.label,
    };
  });
}

/** The VLM scorer for these entries and judges. */
export function vlmScorer(ctx: AuditContext): ParadigmScorer {
  const rubricDigest = ctx.rubric?.digest ?? null;
  return {
    name: 'vlm-audit',
    paradigms: VLM_PARADIGMS,
    prepare:
      (bundle) =>
      ({ trial, response, model }) => {
        const entry = trial.entry ? (ctx.entries.get(trial.entry) ?? null) : null;
        // A row that is not an answer has no response-derived value: its reason names the outcome.
        const noValue = noValueReason(response);
        const text = noValue === null ? response.response : null;
        const judges = judgeVerdicts(ctx, trial.id, response.model, text);
        const measures =
          text === null
            ? { d6: null, d5_auto: null, lexical: null }
            : textMeasures(text, trial.lang, entry?.narrative_markers, bundle.packs);
        const channel = readReasoning({
          trial,
          response,
          answer: text,
          noValue,
          lexicalRefused: measures.lexical?.refused ?? null,
          judges,
          facts: entry?.expected_facts ?? [],
          markers: entry?.narrative_markers,
          packs: bundle.packs,
        });
        const parse: ScoredAuditParse = {
          sensitivity: entry?.sensitivity ?? null,
          ...measures,
          judges,
          said_no: saidNoFlags(response),
          facts: channel.answerFacts,
          reasoning: channel.reasoning,
        };
        const record: ScoreRecord = {
          bundle: bundle.digest,
          trial: trial.id,
          model: model.name,
          paradigm: trial.paradigm,
          parse: parse as unknown as Record<string, unknown>,
          score: null,
          stance: null,
          reason: noValue,
          simulated: response.simulated || model.simulated,
        };
        return record;
      },
    tables: [
      auditTable(rubricDigest),
      judgesTable(ctx.judges.map((j) => j.name)),
      reasoningTable(),
    ],
    columns: { 'trials.csv': auditColumns(rubricDigest) },
    params: {
      rubric: ctx.rubric,
      judges: ctx.judges.map((j) => ({ name: j.name, simulated: j.simulated })),
      judge_ledger: ctx.judgeLedger,
      prompt_text_in_parse: false,
    },
  };
}

/** The prompt text of a trial (what the judge is told the model was asked). */
export const promptText = textOf;
