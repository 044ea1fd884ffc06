/**
 * `stimkit batch import`, second pass: each output line (streamed again, after every file was
 * checked, import-check.ts) becomes one ledger attempt row, recorded in transactions of at most
 * ROWS_PER_COMMIT rows and COMMIT_CHARS characters, so that memory stays bounded whatever the size
 * of the files; a line already recorded is skipped, so an interrupted import resumes.
 */
import { sha256 } from '../core/fsio.js';
import type { Trial } from '../bundle/format.js';
import type { AttemptEnd, FinalResult, LedgerWriter } from '../ledger/write.js';
import type { ModelSpec } from '../models/schema.js';
import { batchFinal } from '../run/batch-cost.js';
import { recordOf, type Verdict } from '../client/classify.js';
import type { Provider } from '../client/providers/index.js';
import { idOf, lineVerdict } from './formats.js';
import type { Checked } from './import-check.js';
import { outputLines } from './import-check.js';
import type { BatchImportResult } from './import.js';
import { parseCustomId } from './request.js';

/** The rows an import records. */
type ImportRows = Parameters<LedgerWriter['recordMany']>[0];

/** Rows recorded per transaction, at most (and at most COMMIT_CHARS characters of their lines). */
const ROWS_PER_COMMIT = 500;
/** Characters of output lines held before a transaction: memory stays bounded with long answers. */
export const COMMIT_CHARS = 8 << 20;

/** What reading the lines of the output files needs. */
interface LineContext {
  model: ModelSpec;
  provider: Provider;
  byId: Map<string, Trial>;
  /** Each trial's request as the models file makes it (empty without one). */
  checked: Checked;
  /** The route batch results are recorded under (request.ts batchEndpoint). */
  endpoint: string | null;
  /** Trials of this model with a final result (filled as lines are recorded). */
  done: Set<string>;
  /** Attempts each trial has (numbering continues from there). */
  prior: Map<string, number>;
  /** `batch-line:<sha256>` tags of lines already recorded. */
  seenLines: Set<string>;
  /** Trials a line of the files names (recorded now or before): their export is read. */
  read: Set<string>;
}

/** Record every line of `files` (streamed), in transactions of ROWS_PER_COMMIT rows. */
export async function recordLines(
  files: readonly string[],
  c: LineContext,
  writer: LedgerWriter,
  res: BatchImportResult,
): Promise<void> {
  let rows: ImportRows = [];
  let chars = 0;
  for (const file of files) {
    for await (const { line, raw, value } of outputLines(file)) {
      res.lines++;
      const row = lineRow(raw, value, line, c, res);
      if (row) rows.push(row);
      chars += raw.length;
      if (rows.length >= ROWS_PER_COMMIT || chars >= COMMIT_CHARS) {
        writer.recordMany(rows);
        rows = [];
        chars = 0;
      }
    }
  }
  writer.recordMany(rows);
}

/** One line's row, or null for a line of an unknown trial or one already recorded. */
function lineRow(
  raw: string,
  line: Record<string, unknown>,
  lineNo: number,
  c: LineContext,
  res: BatchImportResult,
): ImportRows[number] | null {
  const { provider } = c;
  const lineId = idOf(provider.name, line);
  const trial = lineId ? c.byId.get(parseCustomId(lineId).trialId) : undefined;
  if (!trial) {
    res.unknown.push(lineId ?? `(line ${lineNo} has no ${provider.batch.idField})`);
    return null;
  }
  c.read.add(trial.id);
  const tag = `batch-line:${sha256(raw.trim())}`;
  if (c.done.has(trial.id) || c.seenLines.has(tag)) {
    res.skipped++;
    return null;
  }
  c.seenLines.add(tag);
  const request = c.checked.requests.get(trial.id);
  const requestSha256 = request?.requestSha256 ?? 'unknown';
  const attempt = (c.prior.get(trial.id) ?? 0) + 1;
  c.prior.set(trial.id, attempt);
  const { end, final } = rowOf(lineVerdict(provider, line, raw), requestSha256);
  if (final) {
    // What it sent, dropped and cost, and the batch route, as run records them (run/batch-cost.ts).
    batchFinal(final, request, c.model, c.endpoint);
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
