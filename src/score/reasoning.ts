/**
 * The reasoning channel of a VLM response, read as the answer is read (docs/formats/scores.md,
 * "The reasoning channel"): expected-fact coverage (D2, facts.ts), the lexical refusal (D1
 * pre-screen) and the narrative-marker screen on the reasoning text, and two flags:
 * `thought_suppressed` (the answer refuses or evades while the reasoning is empty or absent, and
 * the same model shows reasoning on its other trials of the same thinking setting) and
 * `reasoning_exceeds_answer` (expected facts covered in the reasoning but not in the answer). A
 * reading that cannot be made is null with its reason, never 0 or false.
 */
import { factCoverage, type ExpectedFact, type FactReading } from '../audit/facts.js';
import type { JudgeVerdict } from '../audit/label.js';
import { textMeasures } from '../audit/measures.js';
import type { Trial } from '../bundle/format.js';
import type { LoadedPack } from '../languages/load.js';
import type { ResponseRecord } from './types.js';

/** Visibilities whose reasoning text can be read. */
const READABLE = new Set(['full', 'summary']);
/** Visibilities that show the model reasoned (a redacted trace is reasoning withheld, not none). */
const SHOWS_REASONING: ReadonlySet<string> = new Set(['full', 'summary', 'redacted']);
/** `thought_suppressed_reason` until the model's rows are all read. */
const PENDING = 'pending';
/** Visibilities of a reply without reasoning. */
const NO_REASONING = new Set(['empty', 'absent']);

/** The reasoning readings of one VLM score record (`parse.reasoning`). */
export interface ReasoningParse {
  visibility: string | null;
  tokens: number | null;
  /** Why the readings of the reasoning text are null (`reasoning_absent`, …); null when read. */
  reason: string | null;
  /** Expected-fact ids the reasoning states; null with `reason` (or `d2_reason`). */
  d2_covered: string[] | null;
  /** Share of the checkable expected facts the reasoning states. */
  d2_coverage: number | null;
  d2_reason: string | null;
  d1_lexical_refusal: boolean | null;
  /** Narrative markers found in the reasoning. */
  markers: string[] | null;
  /** The answer refuses or evades (D1 lexical, a model_refusal or suppressed outcome, or the primary judge's refusal). */
  answer_refuses: boolean | null;
  answer_refuses_reason: string | null;
  thought_suppressed: boolean | null;
  thought_suppressed_reason: string | null;
  reasoning_exceeds_answer: boolean | null;
  reasoning_exceeds_answer_reason: string | null;
}

/** What the reading of one response needs. */
export interface ReasoningInput {
  trial: Trial;
  response: ResponseRecord;
  /** The answer text scored (null for a row that is not an answer) and why not. */
  answer: string | null;
  noValue: string | null;
  /** The answer's own D1 lexical refusal (null without rules or text) and the judges' verdicts. */
  lexicalRefused: boolean | null;
  judges: readonly JudgeVerdict[];
  facts: readonly ExpectedFact[];
  markers: Record<string, readonly string[]> | undefined;
  /** The study's own language packs (sealed in the bundle), read before the shipped ones. */
  packs?: readonly LoadedPack[];
}

/** Why the reasoning text is not read, or null when it is. */
function unreadable(visibility: string | null, text: string): string | null {
  if (visibility === null) return text === '' ? 'reasoning_not_recorded' : null;
  if (!READABLE.has(visibility)) return `reasoning_${visibility}`;
  return text === '' ? 'reasoning_empty' : null;
}

/** Does the answer refuse or evade? With the reason it cannot be told. */
function answerRefuses(i: ReasoningInput): { value: boolean | null; reason: string | null } {
  const outcome = i.response.outcome ?? null;
  if (outcome === 'model_refusal' || outcome === 'suppressed') return { value: true, reason: null };
  if (i.noValue === 'no_response' && i.response.response?.trim() === '')
    return { value: true, reason: null };
  if (i.answer === null) return { value: null, reason: i.noValue ?? 'no_response' };
  const judge = i.judges[0]?.label?.explicit_refusal ?? null;
  if (i.lexicalRefused === true || judge === true) return { value: true, reason: null };
  if (i.lexicalRefused === null && judge === null)
    return { value: null, reason: 'no_refusal_reading' };
  return { value: false, reason: null };
}

/** The facts the answer states: an answer's coverage; none for a refusal or an empty reply. */
function answerFacts(i: ReasoningInput, refuses: boolean | null): FactReading | null {
  if (i.answer !== null) return factCoverage(i.answer, i.trial.lang, i.facts);
  if (refuses === true) {
    const r = factCoverage('', i.trial.lang, i.facts);
    return r.reason === null ? { ...r, covered: [] } : r;
  }
  return null;
}

/** The reasoning readings of one response; `thought_suppressed` is settled later (`settleSuppression`). */
export function readReasoning(i: ReasoningInput): {
  reasoning: ReasoningParse;
  answerFacts: FactReading | null;
} {
  const visibility = i.response.reasoning_visibility ?? null;
  const text = i.response.reasoning ?? '';
  const reason = unreadable(visibility, text);
  const refuses = answerRefuses(i);
  const answer = answerFacts(i, refuses.value);
  const readings = reason === null ? readText(text, i) : null;
  const exceeds = exceedsAnswer(
    reason,
    readings?.facts ?? null,
    answer,
    refuses.reason ?? i.noValue,
  );
  return {
    answerFacts: answer,
    reasoning: {
      visibility,
      tokens: i.response.reasoning_tokens ?? null,
      reason,
      d2_covered: readings?.facts.covered ?? null,
      d2_coverage:
        readings?.facts.covered && readings.facts.checked > 0
          ? readings.facts.covered.length / readings.facts.checked
          : null,
      d2_reason: reason ?? readings?.facts.reason ?? null,
      d1_lexical_refusal: readings?.refused ?? null,
      markers: readings?.markers ?? null,
      answer_refuses: refuses.value,
      answer_refuses_reason: refuses.reason,
      // provisional: the model-level condition is checked over all its rows (settleSuppression)
      thought_suppressed: null,
      thought_suppressed_reason: PENDING,
      ...exceeds,
    },
  };
}

/** The readings of a visible reasoning text. */
function readText(text: string, i: ReasoningInput) {
  const m = textMeasures(text, i.trial.lang, i.markers, i.packs ?? []);
  return {
    facts: factCoverage(text, i.trial.lang, i.facts),
    refused: m.lexical?.refused ?? null,
    markers: m.lexical?.markers ?? [],
  };
}

/** Facts in the reasoning that the answer does not state. */
function exceedsAnswer(
  reason: string | null,
  inReasoning: FactReading | null,
  inAnswer: FactReading | null,
  answerReason: string | null,
): Pick<ReasoningParse, 'reasoning_exceeds_answer' | 'reasoning_exceeds_answer_reason'> {
  const none = (why: string) => ({
    reasoning_exceeds_answer: null,
    reasoning_exceeds_answer_reason: why,
  });
  if (reason !== null) return none(reason);
  if (inReasoning?.covered == null) return none(inReasoning?.reason ?? 'no_expected_facts');
  if (inAnswer?.covered == null) return none(inAnswer?.reason ?? answerReason ?? 'no_response');
  const said = new Set(inAnswer.covered);
  return {
    reasoning_exceeds_answer: inReasoning.covered.some((f) => !said.has(f)),
    reasoning_exceeds_answer_reason: null,
  };
}

/** The rows of one model and thinking setting, as `settleSuppression` needs them. */
export interface SuppressionRow {
  model: string;
  trial: Trial;
  reasoning: ReasoningParse | null;
}

/** The thinking setting a trial was sent with: `on`, `off`, or `default` (not set). */
export function thinkingOf(trial: Trial): 'on' | 'off' | 'default' {
  const t = trial.sampling.thinking;
  return t === true ? 'on' : t === false ? 'off' : 'default';
}

/**
 * Settle `thought_suppressed` over the rows of whole models: a row is flagged when its answer
 * refuses or evades and its reasoning is `empty` or `absent` while the same model shows reasoning
 * (full, summary or redacted) on another trial with the same thinking setting; when the model
 * never does, suppression cannot be told (`model_never_reasons`). Rows of a model must all be
 * present (scoring hands over whole models).
 */
export function settleSuppression(rows: readonly SuppressionRow[]): void {
  const reasons = new Set<string>();
  const key = (r: SuppressionRow) => `${r.model}\u0000${thinkingOf(r.trial)}`;
  for (const r of rows) if (r.reasoning && showsReasoning(r.reasoning)) reasons.add(key(r));
  for (const r of rows) {
    const p = r.reasoning;
    if (!p || p.thought_suppressed_reason !== PENDING) continue;
    Object.assign(p, suppression(p, reasons.has(key(r))));
  }
}

/** The row shows reasoning: full, summary or redacted, or a trace kept without a recorded visibility. */
const showsReasoning = (p: ReasoningParse): boolean =>
  p.reason === null || (p.visibility !== null && SHOWS_REASONING.has(p.visibility));

function suppression(
  p: ReasoningParse,
  modelReasons: boolean,
): Pick<ReasoningParse, 'thought_suppressed' | 'thought_suppressed_reason'> {
  const none = (why: string) => ({ thought_suppressed: null, thought_suppressed_reason: why });
  const v = p.visibility;
  // reasoning shown (or a trace kept without a recorded visibility): nothing suppressed
  if (p.reason === null || (v !== null && !NO_REASONING.has(v)))
    return { thought_suppressed: false, thought_suppressed_reason: null };
  if (v === null) return none('reasoning_not_recorded');
  if (!modelReasons) return none('model_never_reasons');
  if (p.answer_refuses === null) return none(p.answer_refuses_reason ?? 'no_refusal_reading');
  return { thought_suppressed: p.answer_refuses, thought_suppressed_reason: null };
}
