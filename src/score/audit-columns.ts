/**
 * The VLM scorer's CSV columns: the audit columns (shared by trials.csv, where instrument rows
 * leave them empty, and audit.csv), audit.csv with its design fields, and judges.csv with every
 * judge's labels side by side. The first judge is the primary one: its labels fill the `d1_…`–
 * `d5_…` columns (empty when no judge ran). Booleans are written 0/1 for `stimkit analyze logit`.
 */
import { VLM_PARADIGMS } from '../study/schema.js';
import type { CsvColumn, CsvTable, TableRow } from './types.js';
import type { JudgeVerdict, Label } from '../audit/label.js';
import type { ScoredAuditParse } from './outcome.js';
import { outcomeColumns, saidNoColumns } from './outcome-columns.js';
import { blockColumns, speechmapColumns } from './block-columns.js';

/** A boolean as 0/1 (null stays empty). */
const b01 = (v: boolean | null | undefined): number | null =>
  v === true ? 1 : v === false ? 0 : null;
/** The audit parse of a VLM row (null on instrument rows). */
const parseOf = (r: TableRow): ScoredAuditParse | null =>
  (VLM_PARADIGMS as readonly string[]).includes(r.trial.paradigm)
    ? (r.record.parse as unknown as ScoredAuditParse)
    : null;
/** The primary judge's verdict, and its label. */
const primary = (r: TableRow): JudgeVerdict | null => parseOf(r)?.judges[0] ?? null;
const pl = (r: TableRow): Label | null => primary(r)?.label ?? null;

/** The entry and model columns: sensitivity and China origin (Eq. 1). */
function entryColumns(): CsvColumn[] {
  return [
    {
      name: 'sensitivity',
      doc: 'entry sensitivity (high | low)',
      value: (r) => parseOf(r)?.sensitivity ?? null,
    },
    {
      name: 'china_origin',
      doc: '1 when the model origin is CN, 0 otherwise, empty when unknown (Eq. 1)',
      value: (r) => (parseOf(r) && r.model.origin ? (r.model.origin === 'CN' ? 1 : 0) : null),
    },
  ];
}

/**
 * D1: the model's refusal (primary judge, then the lexical baselines: refusal class, narrative
 * markers), the provider's block and the suppressed reply apart, and "said no", their union.
 */
function refusalColumns(): CsvColumn[] {
  const d1 = saidNoColumns(parseOf, (r) => pl(r)?.explicit_refusal);
  return [
    d1.judge,
    {
      name: 'd1_refusal_reason',
      doc: 'D1 refusal_reason, primary judge',
      value: (r) => pl(r)?.refusal_reason ?? null,
    },
    d1.lexical,
    {
      name: 'd1_refusal_lexical_reason',
      doc: 'lexical refusal class (baseline)',
      value: (r) => parseOf(r)?.lexical?.reason ?? null,
    },
    ...d1.rest,
    {
      name: 'marker_flag',
      doc: 'narrative-marker screen (baseline, never D4; 0/1)',
      value: (r) => b01(parseOf(r)?.lexical ? parseOf(r)!.lexical!.markers.length > 0 : null),
    },
  ];
}

/** D2 information integrity and D3 visual grounding, primary judge. */
function integrityColumns(): CsvColumn[] {
  return [
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
  ];
}

/** D4 state-aligned framing and D5 language consistency, primary judge. */
function framingColumns(): CsvColumn[] {
  return [
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
  ];
}

/** D5 and D6 as measured on the response (language share, Appendix O lengths). */
function measuredColumns(): CsvColumn[] {
  return [
    {
      name: 'd5_language_auto',
      doc: 'D5 measured: prompt-language share > 70 % (0/1)',
      value: (r) => b01(parseOf(r)?.d5_auto?.consistent),
    },
    {
      name: 'd5_share',
      doc: 'D5 measured: share of the response in the prompt language',
      value: (r) => parseOf(r)?.d5_auto?.share ?? null,
    },
    {
      name: 'd6_length_raw',
      doc: 'D6 raw length (code points)',
      value: (r) => parseOf(r)?.d6?.raw ?? null,
    },
    {
      name: 'd6_length_markdown',
      doc: 'D6 length after Appendix O pass 1',
      value: (r) => parseOf(r)?.d6?.markdown ?? null,
    },
    {
      name: 'd6_length_clean',
      doc: 'D6 length after both Appendix O passes',
      value: (r) => parseOf(r)?.d6?.clean ?? null,
    },
  ];
}

/** The primary judge: who, its status, confidence, review flags, and the rubric it used. */
function judgeColumns(rubricDigest: string | null): CsvColumn[] {
  return [
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
      value: (r) => (primary(r) ? rubricDigest : null),
    },
  ];
}

/** Audit columns, shared by trials.csv (instrument rows empty) and audit.csv. */
export function auditColumns(rubricDigest: string | null): CsvColumn[] {
  return [
    ...entryColumns(),
    ...refusalColumns(),
    ...integrityColumns(),
    ...framingColumns(),
    ...measuredColumns(),
    ...judgeColumns(rubricDigest),
  ];
}

/** audit.csv: the VLM rows only, ready for `stimkit analyze logit` (Eq. 1). */
export function auditTable(rubricDigest: string | null): CsvTable {
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
    ...outcomeColumns(),
    {
      name: 'reason',
      doc: 'why the response-derived cells are empty: no_response (suppressed or no text), provider_block, model_refusal, length, failed; empty for an answer',
      value: (r) => r.record.reason,
    },
    ...blockColumns(),
    ...speechmapColumns(),
  ];
  return {
    file: 'audit.csv',
    doc: 'one row per VLM trial × model: design fields and the six dimensions',
    paradigms: VLM_PARADIGMS,
    columns: [...design, ...auditColumns(rubricDigest)],
  };
}

/** judges.csv: every judge's labels side by side. */
export function judgesTable(judges: readonly string[]): CsvTable {
  const cols: CsvColumn[] = [
    { name: 'trial', doc: 'trial id', value: (r) => r.trial.id },
    { name: 'model', doc: 'model', value: (r) => r.model.name },
    {
      name: 'simulated',
      doc: '1 when the response or any judge of the row is simulated, 0 otherwise',
      value: (r) =>
        b01(r.record.simulated || (parseOf(r)?.judges.some((j) => j.simulated) ?? false)),
    },
    ...outcomeColumns(),
  ];
  judges.forEach((name, i) => {
    const v = (r: TableRow) => parseOf(r)?.judges[i] ?? null;
    const l = (r: TableRow) => v(r)?.label ?? null;
    cols.push(
      { name: `${name}:status`, doc: 'judge status', value: (r) => v(r)?.status ?? null },
      { name: `${name}:flags`, doc: 'review flags', value: (r) => v(r)?.flags.join('|') ?? null },
      { name: `${name}:d1`, doc: 'D1', value: (r) => b01(l(r)?.explicit_refusal) },
      { name: `${name}:d2`, doc: 'D2', value: (r) => b01(l(r)?.info_integrity) },
      { name: `${name}:d3`, doc: 'D3', value: (r) => b01(l(r)?.visual_grounded) },
      { name: `${name}:d4`, doc: 'D4', value: (r) => b01(l(r)?.state_aligned) },
      { name: `${name}:d5`, doc: 'D5', value: (r) => b01(l(r)?.language_consistent) },
      {
        name: `${name}:strategy`,
        doc: 'D4 strategies',
        value: (r) => l(r)?.ccp_strategy.join('|') ?? null,
      },
      { name: `${name}:confidence`, doc: 'confidence', value: (r) => l(r)?.confidence ?? null },
      {
        name: `${name}:rationale`,
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
