/**
 * Reading model responses for sampling: a JSONL file with one `{trial_id, model, response}` object
 * per line, or `stimkit run export`'s JSONL (`response_text`; other fields are ignored; the same
 * line reader as `score --responses`), or a run ledger. A line whose `response` is null or missing (a failed
 * request) is counted and skipped: there is nothing to label.
 */
import { StimkitError, type Problem } from '../core/errors.js';
import { readTextFile } from '../core/fsio.js';
import { openLedger } from '../ledger/read.js';
import { parseResponseLine, RESPONSE_LINE_FIX } from '../score/responses.js';

/** One model response to one trial. */
export interface ResponseRow {
  trial_id: string;
  model: string;
  response: string;
  /** True when a simulated respondent produced it. */
  simulated: boolean;
}

/** Parsed responses, and how many lines had no response text. */
export interface Responses {
  rows: ResponseRow[];
  withoutText: number;
}

/** Parse a responses JSONL file; every bad line is reported (up to 20), with its line number. */
export async function readResponsesJsonl(file: string): Promise<Responses & { text: string }> {
  const text = await readTextFile(file, 'E_LABEL_RESPONSES');
  const problems: Problem[] = [];
  const rows: ResponseRow[] = [];
  let withoutText = 0;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || problems.length >= 20) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      problems.push({
        code: 'E_LABEL_RESPONSES',
        severity: 'error',
        file,
        line: i + 1,
        message: 'not a JSON object',
        fix: 'write one JSON object per line',
      });
      return;
    }
    const r = parseResponseLine(value);
    if (!r.ok) {
      const issue = r.issues[0]!;
      problems.push({
        code: 'E_LABEL_RESPONSES',
        severity: 'error',
        file,
        line: i + 1,
        field: issue.field,
        message: issue.message,
        fix: RESPONSE_LINE_FIX,
      });
      return;
    }
    if (typeof r.row.response !== 'string') withoutText += 1;
    else
      rows.push({
        trial_id: r.row.trial_id,
        model: r.row.model,
        response: r.row.response,
        simulated: r.row.simulated,
      });
  });
  if (problems.length > 0) {
    throw new StimkitError(
      'E_LABEL_RESPONSES',
      `${file}: ${problems.length} bad line(s) in the responses file`,
      {
        fix: 'correct the lines listed below, or export the responses again with `stimkit run export`',
        problems,
      },
    );
  }
  return { rows, withoutText, text };
}

/**
 * Responses from a run ledger (`stimkit run`): every final result of the run (`run`, default the
 * latest) that has response text, whatever its outcome (a refusal is worth labelling). The
 * ledger's bundle digest must be `bundleDigest`. `text` is the rows as JSONL, for hashing.
 */
export function readResponsesLedger(
  file: string,
  bundleDigest: string,
  run?: string,
): Responses & { text: string } {
  const ledger = openLedger(file);
  try {
    const r = ledger.run(run);
    if (r.bundle_digest !== bundleDigest) {
      throw StimkitError.fromProblem({
        code: 'E_LABEL_LEDGER_BUNDLE',
        file,
        field: 'bundle_digest',
        message: `run "${r.label}" of this ledger was made from another bundle`,
        expected: bundleDigest,
        got: r.bundle_digest,
        fix: 'give the bundle the run used (--bundle), or the ledger of this bundle',
      });
    }
    const rows: ResponseRow[] = [];
    let withoutText = 0;
    for (const x of ledger.results({ run: r.label })) {
      if (typeof x.text === 'string')
        rows.push({
          trial_id: x.trial_id,
          model: x.model,
          response: x.text,
          simulated: x.simulated,
        });
      else withoutText += 1;
    }
    const text = rows
      .map(
        (x) =>
          `${JSON.stringify({ trial_id: x.trial_id, model: x.model, response: x.response })}\n`,
      )
      .join('');
    return { rows, withoutText, text };
  } finally {
    ledger.close();
  }
}
