/** `stimkit batch import`, one line at a time: each output line becomes one ledger attempt row. */
import { StimkitError } from '../core/errors.js';
import { sha256 } from '../core/fsio.js';
import type { Trial } from '../bundle/format.js';
import type { AttemptEnd, FinalResult, LedgerWriter } from '../ledger/write.js';
import type { ModelSpec } from '../models/schema.js';
import { recordOf, type Verdict } from '../run/classify.js';
import type { Provider } from '../run/providers/index.js';
import { idOf, lineVerdict } from './formats.js';
import type { BatchImportResult } from './import.js';

/** The rows an import records, in one transaction at the end. */
type ImportRows = Parameters<LedgerWriter['recordMany']>[0];

/** What reading the lines of one output file needs. */
interface LineContext {
  file: string;
  model: ModelSpec;
  provider: Provider;
  /** Whether a models file was given (then request hashes are rebuilt). */
  withModels: boolean;
  byId: Map<string, Trial>;
  /** Trials of this model with a final result (filled as lines are recorded). */
  done: Set<string>;
  /** Attempts each trial has (numbering continues from there). */
  prior: Map<string, number>;
  /** `batch-line:<sha256>` tags of lines already recorded. */
  seenLines: Set<string>;
}

/** Read every line of the output file into `res` and the rows to record. */
export function readLines(text: string, c: LineContext, res: BatchImportResult): ImportRows {
  const rows: ImportRows = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    res.lines++;
    const row = lineRow(raw, i + 1, c, res);
    if (row) rows.push(row);
  });
  return rows;
}

function parseLine(raw: string, file: string, line: number): Record<string, unknown> {
  try {
    return JSON.parse(raw) as Record<string, unknown>;
  } catch {
    throw StimkitError.fromProblem({
      code: 'E_BATCH_LINE',
      file,
      line,
      message: 'not a JSON object',
      fix: 'pass the batch output file unchanged',
    });
  }
}

/** One line's row, or null for a line of an unknown trial or one already recorded. */
function lineRow(
  raw: string,
  lineNo: number,
  c: LineContext,
  res: BatchImportResult,
): ImportRows[number] | null {
  const { provider } = c;
  const line = parseLine(raw, c.file, lineNo);
  const lineId = idOf(provider.name, line);
  const trial = lineId ? c.byId.get(lineId) : undefined;
  if (!trial) {
    res.unknown.push(
      lineId ?? `(line ${lineNo} has no ${provider.name === 'gemini' ? 'key' : 'custom_id'})`,
    );
    return null;
  }
  const tag = `batch-line:${sha256(raw.trim())}`;
  if (c.done.has(trial.id) || c.seenLines.has(tag)) {
    res.skipped++;
    return null;
  }
  c.seenLines.add(tag);
  const requestSha256 = c.withModels ? provider.build(trial, c.model).sha256 : 'unknown';
  const attempt = (c.prior.get(trial.id) ?? 0) + 1;
  c.prior.set(trial.id, attempt);
  const { end, final } = rowOf(lineVerdict(provider, line, raw), requestSha256);
  if (final) {
    c.done.add(trial.id);
    res.recorded++;
    res.outcomes[final.outcome] = (res.outcomes[final.outcome] ?? 0) + 1;
  } else {
    const cls = end.error_class ?? 'unknown';
    res.errors[cls] = (res.errors[cls] ?? 0) + 1;
  }
  return {
    model: c.model.name,
    trialId: trial.id,
    attempt,
    source: 'batch',
    requestSha256,
    endpoint: tag,
    end,
    final,
  };
}

/** The attempt's end and, for a final result or a permanent failure, the trial's result. */
function rowOf(
  verdict: Verdict,
  requestSha256: string,
): { end: AttemptEnd; final: FinalResult | null } {
  const base = { request_sha256: requestSha256, attempts: 1, latency_ms: null };
  switch (verdict.kind) {
    case 'final':
      return recordOf(verdict.reply, base);
    case 'failed': {
      const error = {
        error_class: verdict.errorClass,
        http_status: verdict.httpStatus,
        error_body: verdict.body,
      };
      return {
        end: { outcome: 'failed', ...error },
        final: { ...base, outcome: 'failed', ...error },
      };
    }
    case 'auth':
      return {
        end: {
          outcome: 'auth',
          error_class: `http_${verdict.httpStatus}`,
          http_status: verdict.httpStatus,
          error_body: verdict.body,
        },
        final: null,
      };
    case 'retry':
      return {
        end: {
          outcome: 'retry',
          error_class: verdict.errorClass,
          http_status: verdict.httpStatus,
          error_body: verdict.body,
        },
        final: null,
      };
    case 'interrupted':
      return { end: { outcome: 'interrupted' }, final: null };
  }
}
