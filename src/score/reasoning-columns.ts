/**
 * `reasoning.csv`: one row per VLM or instrument trial × model with the reasoning channel beside
 * the answer (reasoning.ts, reasoning-instrument.ts; the answer's facts and D1 columns are the
 * VLM audit's, empty on instrument rows): visibility and tokens, the readings of the reasoning text, the answer's
 * refusal and "said no", the two flags with their reasons, and the thinking setting with the
 * pair id that joins a trial sent with thinking on to the same trial sent with it off. Ready for
 * `stimkit analyze rates` (a flag by model, lang, paradigm) and `stimkit analyze thinking`.
 */
import { VLM_PARADIGMS } from '../study/schema.js';
import { pairId } from '../bundle/trial-id.js';
import type { ScoredAuditParse } from './outcome.js';
import { outcomeColumns, saidNoColumns } from './outcome-columns.js';
import { thinkingOf, type ReasoningParse } from './reasoning.js';
import type { CsvColumn, CsvTable, TableRow } from './types.js';

const b01 = (v: boolean | null | undefined): number | null =>
  v === true ? 1 : v === false ? 0 : null;
const parseOf = (r: TableRow): ScoredAuditParse | null =>
  (VLM_PARADIGMS as readonly string[]).includes(r.trial.paradigm)
    ? (r.record.parse as unknown as ScoredAuditParse)
    : null;
const rp = (r: TableRow): ReasoningParse | null =>
  (r.record.parse as { reasoning?: ReasoningParse }).reasoning ?? null;
const ids = (v: string[] | null | undefined): string | null => (v ? v.join('|') : null);

/** The design columns: who, which trial, which thinking setting and its pair. */
function designColumns(): CsvColumn[] {
  return [
    { name: 'trial', doc: 'trial id', value: (r) => r.trial.id },
    {
      name: 'pair',
      doc: 'the trial id without the thinking factor: the same for a trial sent with thinking on and off',
      value: (r) => pairId(r.trial),
    },
    { name: 'model', doc: 'model', value: (r) => r.model.name },
    {
      name: 'origin',
      doc: 'model origin; `unknown` when not named',
      value: (r) => r.model.origin ?? 'unknown',
    },
    { name: 'lang', doc: 'prompt language', value: (r) => r.trial.lang },
    { name: 'paradigm', doc: 'paradigm', value: (r) => r.trial.paradigm },
    { name: 'entry', doc: 'entry', value: (r) => r.trial.entry },
    { name: 'variant', doc: 'variant A0–A6', value: (r) => r.trial.variant },
    { name: 'seed', doc: 'seed', value: (r) => r.trial.seed },
    {
      name: 'thinking',
      doc: 'the thinking setting the trial was sent with: on, off, or default (the study set none)',
      value: (r) => thinkingOf(r.trial),
    },
    { name: 'simulated', doc: '1 for a simulated response', value: (r) => b01(r.record.simulated) },
  ];
}

/** The channel: visibility, tokens, and the readings of the reasoning text. */
function channelColumns(): CsvColumn[] {
  return [
    {
      name: 'reasoning_visibility',
      doc: 'full, summary, redacted, absent or empty; empty when the run did not record it',
      value: (r) => r.record.reasoning_visibility ?? null,
    },
    {
      name: 'reasoning_tokens',
      doc: 'reasoning tokens the server reported; empty when not reported',
      value: (r) => r.record.reasoning_tokens ?? null,
    },
    {
      name: 'reasoning_reason',
      doc: 'why the readings of the reasoning text are empty: reasoning_absent, reasoning_redacted, reasoning_empty, reasoning_not_recorded',
      value: (r) => rp(r)?.reason ?? null,
    },
    {
      name: 'answer_facts_covered',
      doc: 'expected facts the answer states by their wording or an alias (ids, | separated)',
      value: (r) => ids(parseOf(r)?.facts?.covered),
    },
    {
      name: 'reasoning_facts_covered',
      doc: 'expected facts the reasoning states by their wording or an alias (ids, | separated)',
      value: (r) => ids(rp(r)?.d2_covered),
    },
    {
      name: 'reasoning_fact_coverage',
      doc: "share of the entry's checkable expected facts the reasoning states",
      value: (r) => rp(r)?.d2_coverage ?? null,
    },
    {
      name: 'reasoning_refusal_lexical',
      doc: 'the lexical refusal detector on the reasoning text (0/1)',
      value: (r) => b01(rp(r)?.d1_lexical_refusal),
    },
    {
      name: 'reasoning_marker_flag',
      doc: 'a narrative marker of the entry in the reasoning text (0/1)',
      value: (r) => (rp(r)?.markers ? b01(rp(r)!.markers!.length > 0) : null),
    },
  ];
}

/** The answer's refusal and the two flags with their reasons. */
function flagColumns(): CsvColumn[] {
  const d1 = saidNoColumns(parseOf, (r) => parseOf(r)?.judges[0]?.label?.explicit_refusal);
  return [
    d1.lexical,
    ...d1.rest.filter((c) => c.name === 'd1_said_no_lexical'),
    {
      name: 'answer_refuses',
      doc: 'the answer refuses or evades: D1 lexical, a model_refusal or suppressed outcome, or the primary judge (0/1)',
      value: (r) => b01(rp(r)?.answer_refuses),
    },
    {
      name: 'thought_suppressed',
      doc: 'the answer refuses or evades and the reasoning is empty or absent while the model shows reasoning on its other trials of the same thinking setting (0/1)',
      value: (r) => b01(rp(r)?.thought_suppressed),
    },
    {
      name: 'thought_suppressed_reason',
      doc: 'why thought_suppressed is empty (model_never_reasons, reasoning_not_recorded, no_refusal_reading, or the outcome)',
      value: (r) => rp(r)?.thought_suppressed_reason ?? null,
    },
    {
      name: 'reasoning_exceeds_answer',
      doc: 'an expected fact covered in the reasoning but not in the answer (0/1)',
      value: (r) => b01(rp(r)?.reasoning_exceeds_answer),
    },
    {
      name: 'reasoning_exceeds_answer_reason',
      doc: 'why reasoning_exceeds_answer is empty (the reasoning reason, no_expected_facts, no_facts_in_language, or the outcome)',
      value: (r) => rp(r)?.reasoning_exceeds_answer_reason ?? null,
    },
  ];
}

/** The paradigms of reasoning.csv: the VLM paradigms, the instrument and its pressure turns (reasoning-instrument.ts). */
const REASONING_PARADIGMS = [...VLM_PARADIGMS, 'instrument', 'pressure'];

/** reasoning.csv: the VLM and instrument rows with their reasoning channel. */
export function reasoningTable(): CsvTable {
  return {
    file: 'reasoning.csv',
    doc: 'one row per VLM, instrument or pressure trial × model: the reasoning channel beside the answer, and its flags',
    paradigms: REASONING_PARADIGMS,
    columns: [
      ...designColumns(),
      ...outcomeColumns().filter((c) => c.name === 'outcome'),
      {
        name: 'reason',
        doc: 'why the answer-derived cells are empty (the outcome)',
        value: (r) => r.record.reason,
      },
      ...channelColumns(),
      ...flagColumns(),
    ],
  };
}
