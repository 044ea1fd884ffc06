/**
 * Which instrument answers go to the free-text judge, and what its label does to the parse.
 *
 * The rule (instrument paper, Methods 4.1 and Supplementary Note 3): every answer with text that
 * the deterministic parser could not read as one option is free text and goes to the judge:
 * parse reasons `unparseable` (non-empty), `ambiguous`, `neutral` and `refusal` found in the
 * text (the judge prompt itself says what to do with a refusal or a balanced answer: Neutral).
 * Pipeline refusals stay 0 without a judge: no response text (a provider refusal, a content
 * filter, an error row: reasons `refusal` with no text and `no_response`) and empty text.
 *
 * The primary (first) judge's label decides the score: its value before keying (the pool's option
 * with that value, so the `label` column stays in the trial's language), 0 with reason
 * `judged_neutral` for Neutral, 0 with reason `judge_unparseable` for a reply that is not one of
 * the five labels. When the primary judge's call failed the parser's zero stands. Every judge's
 * label and raw reply is kept in the parse.
 */
import type { JudgeLabel } from './instrument-judge-prompt.js';
import type { Option, ParseResult } from './parse.js';

/** Parser reasons whose answers go to the judge when they have text. */
export const JUDGED_REASONS = ['unparseable', 'ambiguous', 'neutral', 'refusal'] as const;

/** One judge's verdict on one answer. */
export interface JudgeVerdict {
  /** `label`: one of the five; `unparseable`: a reply that is none; `failed`: the call failed (or the judge refused). */
  status: 'label' | 'unparseable' | 'failed';
  label: JudgeLabel | null;
  value: number | null;
  raw: string | null;
  simulated: boolean;
}

/** The judges' verdicts by judge key (`<trial>@<model>`), primary first, with the params recorded in score.json. */
export interface InstrumentJudging {
  judges: Array<{ name: string; simulated: boolean; verdicts: ReadonlyMap<string, JudgeVerdict> }>;
  params: Record<string, unknown>;
}

/** A parse with the judges' labels applied. */
export interface JudgedParse extends Omit<ParseResult, 'reason'> {
  reason: string | null;
  source: 'parsed' | 'judge' | 'none';
  parse_reason: string | null;
  judge: string | null;
  judge_label: JudgeLabel | null;
  judge_raw: string | null;
  judge_simulated: boolean;
  judges: Array<{
    judge: string;
    status: JudgeVerdict['status'];
    label: JudgeLabel | null;
    value: number | null;
    raw: string | null;
  }>;
}

/** True when an answer goes to the judge: it has text and the parser chose no option for a judged reason. */
export function isJudgeable(parsed: ParseResult, text: string | null): boolean {
  return (
    parsed.value === null &&
    text !== null &&
    text.trim() !== '' &&
    (JUDGED_REASONS as readonly string[]).includes(parsed.reason ?? '')
  );
}

/** The parse of one answer with the judges' verdicts applied. */
export function applyJudges(
  parsed: ParseResult,
  judging: InstrumentJudging,
  key: string,
  text: string | null,
  options: readonly Option[],
): JudgedParse {
  const base: JudgedParse = {
    ...parsed,
    source: parsed.value === null ? 'none' : 'parsed',
    parse_reason: parsed.reason,
    judge: null,
    judge_label: null,
    judge_raw: null,
    judge_simulated: false,
    judges: [],
  };
  if (!isJudgeable(parsed, text)) return base;
  for (const j of judging.judges) {
    const v = j.verdicts.get(key);
    if (v)
      base.judges.push({
        judge: j.name,
        status: v.status,
        label: v.label,
        value: v.value,
        raw: v.raw,
      });
  }
  const primary = judging.judges[0];
  const v = primary?.verdicts.get(key);
  if (!primary || !v) return base;
  const asked = {
    ...base,
    judge: primary.name,
    judge_label: v.label,
    judge_raw: v.raw,
    judge_simulated: v.simulated,
  };
  if (v.status === 'failed') return asked;
  if (v.status === 'unparseable' || v.value === null) {
    return {
      ...asked,
      source: 'judge',
      reason: 'judge_unparseable',
      detail: `judge ${primary.name} replied with none of the five labels`,
    };
  }
  if (v.value === 0)
    return {
      ...asked,
      source: 'judge',
      reason: 'judged_neutral',
      detail: `judge ${primary.name}: Neutral`,
    };
  const option = options.findIndex((o) => o.value === v.value);
  if (option < 0)
    return {
      ...asked,
      source: 'judge',
      reason: 'judge_unparseable',
      detail: `the pool has no option with value ${v.value}`,
    };
  return {
    ...asked,
    source: 'judge',
    label: options[option]!.label,
    option,
    value: v.value,
    reason: null,
    detail: `judge ${primary.name}: ${v.label}`,
  };
}
