/**
 * Responses produced elsewhere: a JSONL file with one `{trial_id, model, response}` per line
 * (optionally `simulated: true`, `truth: {...}`, `error: "..."`), or `stimkit run export`'s JSONL
 * (`response_text`, `outcome`); other fields are ignored. Every line is checked at the
 * door; all problems are reported at once with their line numbers.
 */
import { z } from 'zod';
import { StimkitError, type Problem } from '../core/errors.js';
import { readTextLines } from '../core/fsio.js';
import { splitLeadingThink } from '../core/think.js';
import { currentOutcome, REASONING_VISIBILITY } from '../ledger/schema.js';
import type { ResponseRecord } from './types.js';

/**
 * One line of a responses file, tolerant: `{trial_id, model, response}` or a `stimkit run export`
 * row (`response_text`, `outcome`, …). Unknown keys are ignored; when both `response` and
 * `response_text` are present, `response` wins.
 */
const ResponseLine = z.object({
  trial_id: z
    .string()
    .regex(/^t_[0-9a-f]{24}$/, 'a trial id from the bundle (t_ and 24 hex digits)'),
  model: z.string().min(1),
  response: z.string().nullable().optional(),
  response_text: z.string().nullable().optional(),
  simulated: z.boolean().nullable().optional(),
  truth: z.record(z.string(), z.unknown()).nullable().optional(),
  error: z.string().nullable().optional(),
  outcome: z.string().nullable().optional(),
  http_status: z.number().nullable().optional(),
  route: z.string().nullable().optional(),
  route_provider: z.string().nullable().optional(),
  finish_reason: z.string().nullable().optional(),
  error_class: z.string().nullable().optional(),
  error_body: z.string().nullable().optional(),
  reasoning_text: z.string().nullable().optional(),
  reasoning_visibility: z.enum(REASONING_VISIBILITY).nullable().optional(),
  reasoning_tokens: z.number().int().min(0).nullable().optional(),
});

/** The fix shown for a bad responses line. */
export const RESPONSE_LINE_FIX =
  'each line is {"trial_id": "t_…", "model": "…", "response": "…" or null} (a `stimkit run export` JSONL row, with response_text, also works; other fields are ignored)';

/** A parsed responses line; `response` is undefined when the line has neither response field. */
export type ParsedResponseLine = Omit<ResponseRecord, 'response'> & {
  response: string | null | undefined;
};

/**
 * Parse one JSON value as a responses line: the record (error from `error`, else a run export's
 * non-`answer` outcome, as a ledger gives it), or the schema's issues.
 */
export function parseResponseLine(
  value: unknown,
):
  | { ok: true; row: ParsedResponseLine }
  | { ok: false; issues: Array<{ field?: string; message: string }> } {
  const parsed = ResponseLine.safeParse(value);
  if (!parsed.success)
    return {
      ok: false,
      issues: parsed.error.issues.map((i) => ({
        field: i.path.join('.') || undefined,
        message: i.message,
      })),
    };
  const r = parsed.data;
  const given = r.response !== undefined ? r.response : r.response_text;
  // A reply that opens with a <think> block, its reasoning inline (as some servers return it):
  // split off as `run` splits it (core/think.ts), so that D1–D6 read the answer alone.
  const split =
    typeof given === 'string' && r.reasoning_text == null ? splitLeadingThink(given) : null;
  const response = split ? split.answer : given;
  // A run export of an older ledger may carry the outcome names before "who said no".
  const named = r.outcome ? currentOutcome(r.outcome, r.http_status ?? null) : null;
  // an "answer" of no text but white space is what `run` records as suppressed (ledger.md)
  const outcome =
    named === 'answer' && typeof response === 'string' && response.trim() === ''
      ? 'suppressed'
      : named;
  const error = r.error ?? (outcome && outcome !== 'answer' ? outcome : null);
  return {
    ok: true,
    row: {
      trial_id: r.trial_id,
      model: r.model,
      response,
      simulated: r.simulated ?? false,
      truth: r.truth ?? null,
      error,
      outcome,
      route: r.route ?? null,
      route_provider: r.route_provider ?? null,
      finish_reason: r.finish_reason ?? null,
      error_class: r.error_class ?? null,
      error_body: r.error_body ?? null,
      reasoning: r.reasoning_text ?? split?.reasoning ?? null,
      reasoning_visibility:
        r.reasoning_visibility ?? (split ? (split.reasoning.trim() ? 'full' : 'empty') : null),
      reasoning_tokens: r.reasoning_tokens ?? null,
    },
  };
}

const MAX_PROBLEMS = 50;

/**
 * Stream a responses JSONL file, one record per line as it is read (the file is never held
 * whole). `knownTrials` (the bundle's trial ids) turns an unknown id into a problem
 * (`E_SCORE_UNKNOWN_TRIAL`); a repeated trial × model is `E_SCORE_DUPLICATE`. Every problem is
 * collected, and thrown together once the file is read: a consumer must not keep what it got
 * from a file that ends in an error.
 */
export async function* streamResponsesJsonl(
  file: string,
  knownTrials: ReadonlyMap<string, unknown>,
): AsyncGenerator<ResponseRecord> {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  const add = (p: Omit<Problem, 'severity' | 'file'>) => {
    if (problems.length < MAX_PROBLEMS) problems.push({ severity: 'error', file, ...p });
  };
  let line = 0;
  for await (const text of readTextLines(file, 'E_SCORE_RESPONSES')) {
    line += 1;
    const raw = text.trim();
    if (raw === '') continue;
    const r = checkLine(raw, line, knownTrials, seen, add);
    if (r) yield r;
  }
  if (problems.length > 0) {
    const codes = new Set(problems.map((p) => p.code));
    const code = codes.size === 1 ? problems[0]!.code : 'E_SCORE_RESPONSES';
    throw new StimkitError(
      code,
      `${file}: ${problems.length}${problems.length === MAX_PROBLEMS ? '+' : ''} problem(s) in the responses file`,
      {
        fix: 'correct the lines listed below, or export the responses again with `stimkit run export`',
        problems,
      },
    );
  }
}

/** One non-blank line checked: its record, or null after reporting its problems through `add`. */
function checkLine(
  raw: string,
  line: number,
  knownTrials: ReadonlyMap<string, unknown>,
  seen: Set<string>,
  add: (p: Omit<Problem, 'severity' | 'file'>) => void,
): ResponseRecord | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    add({
      code: 'E_SCORE_RESPONSES',
      line,
      message: `not JSON (${(err as Error).message})`,
      fix: 'write one JSON object per line',
    });
    return null;
  }
  const parsed = parseResponseLine(value);
  if (!parsed.ok) {
    for (const issue of parsed.issues)
      add({
        code: 'E_SCORE_RESPONSES',
        line,
        field: issue.field,
        message: issue.message,
        fix: RESPONSE_LINE_FIX,
      });
    return null;
  }
  const r = parsed.row;
  if (r.response === undefined) {
    add({
      code: 'E_SCORE_RESPONSES',
      line,
      field: 'response',
      message: 'no response field (response or response_text; null for a failed request)',
      fix: RESPONSE_LINE_FIX,
    });
    return null;
  }
  if (!knownTrials.has(r.trial_id)) {
    add({
      code: 'E_SCORE_UNKNOWN_TRIAL',
      line,
      field: 'trial_id',
      message: 'this trial is not in the bundle',
      got: r.trial_id,
      fix: 'score the responses against the bundle they were run on',
    });
    return null;
  }
  const key = `${r.trial_id}\u0000${r.model}`;
  if (seen.has(key)) {
    add({
      code: 'E_SCORE_DUPLICATE',
      line,
      message: `a second response for trial ${r.trial_id} and model ${r.model}`,
      fix: 'keep one response per trial and model',
    });
    return null;
  }
  seen.add(key);
  return { ...r, response: r.response };
}
