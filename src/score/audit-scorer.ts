/**
 * The VLM paradigms' scorer (describe, comment-image, comment-text, abstraction, narrative): the
 * six-dimension audit of one response. Measured for every response: D6 (raw, markdown-stripped
 * and deep-stripped lengths, Appendix O), D5 by script and language identification, and the
 * lexical baselines (refusal classes, narrative markers); from each judge that ran: D1–D5 with
 * their sub-fields, the judge's status and review flags. The first judge is the primary one: its
 * labels fill the `d1_…`–`d5_…` columns of trials.csv and audit.csv (empty when no judge ran);
 * judges.csv holds every judge's labels side by side. Booleans are written 0/1 for
 * `stimkit analyze logit`.
 */
import type { Trial } from '../bundle/format.js';
import { VLM_PARADIGMS } from '../study/schema.js';
import type { CsvColumn, CsvTable, ParadigmScorer, ScoreRecord, TableRow } from './types.js';
import { responseLengths } from '../audit/clean.js';
import type { JudgedResponse } from '../audit/judge-read.js';
import { judgeKey } from '../audit/judge-request.js';
import { languageShare } from '../audit/language.js';
import { detectRefusal, detectShort, screenMarkers } from '../audit/lexical.js';
import type { AuditParse, JudgeVerdict, Label } from '../audit/label.js';

/** What the scorer knows of an entry. */
export interface AuditEntry {
  id: string;
  sensitivity: string;
  narrative_markers?: Record<string, string[]>;
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

const b01 = (v: boolean | null | undefined): number | null =>
  v === true ? 1 : v === false ? 0 : null;
const parseOf = (r: TableRow): AuditParse | null =>
  (VLM_PARADIGMS as readonly string[]).includes(r.trial.paradigm)
    ? (r.record.parse as unknown as AuditParse)
    : null;
const primary = (r: TableRow): JudgeVerdict | null => parseOf(r)?.judges[0] ?? null;
const pl = (r: TableRow): Label | null => primary(r)?.label ?? null;
const textOf = (t: Trial): string =>
  t.messages
    .flatMap((m) => m.content)
    .map((p) => (p.type === 'text' ? p.text : ''))
    .join('\n');

/** Audit columns, shared by trials.csv (instrument rows empty) and audit.csv. */
// eslint-disable-next-line max-lines-per-function -- not yet split by phase (see docs/DESIGN.md, layout)
function auditColumns(ctx: AuditContext): CsvColumn[] {
  const p = parseOf;
  return [
    {
      name: 'sensitivity',
      doc: 'entry sensitivity (high | low)',
      value: (r) => p(r)?.sensitivity ?? null,
    },
    {
      name: 'china_origin',
      doc: '1 when the model origin is CN, 0 otherwise, empty when unknown (Eq. 1)',
      value: (r) => (p(r) && r.model.origin ? (r.model.origin === 'CN' ? 1 : 0) : null),
    },
    {
      name: 'd1_refusal',
      doc: 'D1 explicit refusal, primary judge (0/1)',
      value: (r) => b01(pl(r)?.explicit_refusal),
    },
    {
      name: 'd1_refusal_reason',
      doc: 'D1 refusal_reason, primary judge',
      value: (r) => pl(r)?.refusal_reason ?? null,
    },
    {
      name: 'd1_refusal_lexical',
      doc: 'lexical refusal detector (baseline, 0/1)',
      value: (r) => b01(p(r)?.lexical?.refused),
    },
    {
      name: 'd1_refusal_lexical_reason',
      doc: 'lexical refusal class (baseline)',
      value: (r) => p(r)?.lexical?.reason ?? null,
    },
    {
      name: 'marker_flag',
      doc: 'narrative-marker screen (baseline, never D4; 0/1)',
      value: (r) => b01(p(r)?.lexical ? p(r)!.lexical!.markers.length > 0 : null),
    },
    {
      name: 'd2_integrity',
      doc: 'D2 information integrity, primary judge (0/1)',
      value: (r) => b01(pl(r)?.info_integrity),
    },
    {
      name: 'd2_failure_type',
      doc: 'D2 integrity_failure_type, primary judge',
      value: (r) => pl(r)?.integrity_failure_type ?? null,
    },
    {
      name: 'd2_covered_facts',
      doc: 'D2 covered_facts, primary judge (expected-fact ids, | separated)',
      value: (r) => (pl(r) ? pl(r)!.covered_facts.join('|') : null),
    },
    {
      name: 'd2_missing_facts',
      doc: 'D2 missing_facts, primary judge (expected-fact ids, | separated)',
      value: (r) => (pl(r) ? pl(r)!.missing_facts.join('|') : null),
    },
    {
      name: 'd3_grounded',
      doc: 'D3 visual grounding, primary judge (0/1; empty on text-only trials)',
      value: (r) => b01(pl(r)?.visual_grounded),
    },
    {
      name: 'd4_state_aligned',
      doc: 'D4 state-aligned framing, primary judge (0/1)',
      value: (r) => b01(pl(r)?.state_aligned),
    },
    {
      name: 'd4_strategy',
      doc: 'D4 strategies, primary judge (DT1|DT2|DT3)',
      value: (r) => (pl(r) ? pl(r)!.ccp_strategy.join('|') : null),
    },
    {
      name: 'd4_direction',
      doc: 'D4 direction, primary judge',
      value: (r) => pl(r)?.ccp_direction ?? null,
    },
    {
      name: 'd4_quotes',
      doc: 'D4 verbatim quotes, primary judge (a JSON array of strings)',
      value: (r) => (pl(r) ? JSON.stringify(pl(r)!.ccp_quotes) : null),
    },
    {
      name: 'd5_language_consistent',
      doc: 'D5 language consistency, primary judge (0/1)',
      value: (r) => b01(pl(r)?.language_consistent),
    },
    {
      name: 'd5_language_auto',
      doc: 'D5 measured: prompt-language share > 70 % (0/1)',
      value: (r) => b01(p(r)?.d5_auto?.consistent),
    },
    {
      name: 'd5_share',
      doc: 'D5 measured: share of the response in the prompt language',
      value: (r) => p(r)?.d5_auto?.share ?? null,
    },
    {
      name: 'd6_length_raw',
      doc: 'D6 raw length (code points)',
      value: (r) => p(r)?.d6?.raw ?? null,
    },
    {
      name: 'd6_length_markdown',
      doc: 'D6 length after Appendix O pass 1',
      value: (r) => p(r)?.d6?.markdown ?? null,
    },
    {
      name: 'd6_length_clean',
      doc: 'D6 length after both Appendix O passes',
      value: (r) => p(r)?.d6?.clean ?? null,
    },
    { name: 'judge', doc: 'primary judge', value: (r) => primary(r)?.judge ?? null },
    {
      name: 'judge_status',
      doc: 'ok | invalid | no_json | judge_refused | failed | missing',
      value: (r) => primary(r)?.status ?? null,
    },
    {
      name: 'judge_confidence',
      doc: "the primary judge's confidence (0–1; below 0.7 is flagged low_confidence)",
      value: (r) => pl(r)?.confidence ?? null,
    },
    {
      name: 'judge_flags',
      doc: 'review flags (repaired_json, quote_not_verbatim, low_confidence, inconsistent)',
      value: (r) => (primary(r) ? primary(r)!.flags.join('|') : null),
    },
    {
      name: 'judge_simulated',
      doc: '1 when the primary judge is simulated',
      value: (r) => (primary(r) ? b01(primary(r)!.simulated) : null),
    },
    {
      name: 'rubric_digest',
      doc: 'digest of the rubric the judges used',
      value: (r) => (primary(r) ? (ctx.rubric?.digest ?? null) : null),
    },
  ];
}

/** audit.csv: the VLM rows only, ready for `stimkit analyze logit` (Eq. 1). */
function auditTable(ctx: AuditContext): CsvTable {
  const design: CsvColumn[] = [
    { name: 'trial', doc: 'trial id', value: (r) => r.trial.id },
    { name: 'model', doc: 'model', value: (r) => r.model.name },
    {
      name: 'origin',
      doc: 'model origin (models file or ledger); `unknown` when neither names it',
      value: (r) => r.model.origin ?? 'unknown',
    },
    { name: 'lang', doc: 'prompt language', value: (r) => r.trial.lang },
    { name: 'paradigm', doc: 'paradigm', value: (r) => r.trial.paradigm },
    { name: 'entry', doc: 'entry (the cluster unit)', value: (r) => r.trial.entry },
    { name: 'variant', doc: 'variant A0–A6', value: (r) => r.trial.variant },
    { name: 'seed', doc: 'seed', value: (r) => r.trial.seed },
    { name: 'simulated', doc: '1 for a simulated response', value: (r) => b01(r.record.simulated) },
  ];
  return {
    file: 'audit.csv',
    doc: 'one row per VLM trial × model: design fields and the six dimensions',
    paradigms: VLM_PARADIGMS,
    columns: [...design, ...auditColumns(ctx)],
  };
}

/** judges.csv: every judge's labels side by side. */
function judgesTable(ctx: AuditContext): CsvTable {
  const cols: CsvColumn[] = [
    { name: 'trial', doc: 'trial id', value: (r) => r.trial.id },
    { name: 'model', doc: 'model', value: (r) => r.model.name },
    {
      name: 'simulated',
      doc: '1 when the response or any judge of the row is simulated, 0 otherwise',
      value: (r) =>
        b01(r.record.simulated || (parseOf(r)?.judges.some((j) => j.simulated) ?? false)),
    },
  ];
  ctx.judges.forEach((j, i) => {
    const v = (r: TableRow) => parseOf(r)?.judges[i] ?? null;
    const l = (r: TableRow) => v(r)?.label ?? null;
    cols.push(
      { name: `${j.name}:status`, doc: 'judge status', value: (r) => v(r)?.status ?? null },
      { name: `${j.name}:flags`, doc: 'review flags', value: (r) => v(r)?.flags.join('|') ?? null },
      { name: `${j.name}:d1`, doc: 'D1', value: (r) => b01(l(r)?.explicit_refusal) },
      { name: `${j.name}:d2`, doc: 'D2', value: (r) => b01(l(r)?.info_integrity) },
      { name: `${j.name}:d3`, doc: 'D3', value: (r) => b01(l(r)?.visual_grounded) },
      { name: `${j.name}:d4`, doc: 'D4', value: (r) => b01(l(r)?.state_aligned) },
      { name: `${j.name}:d5`, doc: 'D5', value: (r) => b01(l(r)?.language_consistent) },
      {
        name: `${j.name}:strategy`,
        doc: 'D4 strategies',
        value: (r) => l(r)?.ccp_strategy.join('|') ?? null,
      },
      { name: `${j.name}:confidence`, doc: 'confidence', value: (r) => l(r)?.confidence ?? null },
      {
        name: `${j.name}:rationale`,
        doc: "the judge's one-sentence rationale (for review mode)",
        value: (r) => l(r)?.rationale ?? null,
      },
    );
  });
  return {
    file: 'judges.csv',
    doc: "one row per VLM trial × model: each judge's labels",
    paradigms: VLM_PARADIGMS,
    columns: cols,
  };
}

/** The VLM scorer for these entries and judges. */
export function vlmScorer(ctx: AuditContext): ParadigmScorer {
  return {
    name: 'vlm-audit',
    paradigms: VLM_PARADIGMS,
    prepare:
      (bundle) =>
      ({ trial, response, model }) => {
        const entry = trial.entry ? (ctx.entries.get(trial.entry) ?? null) : null;
        const text = response.response;
        const judges: JudgeVerdict[] = ctx.judges.map((j) => {
          const got = j.labels.get(judgeKey(trial.id, response.model));
          if (!got)
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
        const lex = text === null ? null : detectRefusal(text);
        const d5 = text === null ? null : languageShare(text, trial.lang);
        const parse: AuditParse = {
          sensitivity: entry?.sensitivity ?? null,
          d6: text === null ? null : responseLengths(text),
          d5_auto: d5 ? { consistent: d5.consistent, share: d5.share, primary: d5.primary } : null,
          lexical:
            text === null || !lex
              ? null
              : {
                  refused: lex.refused,
                  reason: lex.reason,
                  markers: screenMarkers(text, entry?.narrative_markers).markers.map(
                    (m) => m.marker,
                  ),
                  short: detectShort(text),
                },
          judges,
        };
        const record: ScoreRecord = {
          bundle: bundle.digest,
          trial: trial.id,
          model: model.name,
          paradigm: trial.paradigm,
          parse: parse as unknown as Record<string, unknown>,
          score: null,
          stance: null,
          reason: text === null ? (response.error ?? 'no_response') : null,
          simulated: response.simulated || model.simulated,
        };
        return record;
      },
    tables: [auditTable(ctx), judgesTable(ctx)],
    columns: { 'trials.csv': auditColumns(ctx) },
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
