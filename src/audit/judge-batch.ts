/**
 * The judge at scale through batch files (`stimkit batch export|import --judge NAME`, or `score
 * --judge-batch-out DIR` / `--judge-batch-in DIR`): instead of calling a judge, export writes the
 * requests of every response the judge has not answered yet as OpenAI Batch input files, per
 * judge and judging (`<judge>.<rubric|instrument>.requests.jsonl`, or its numbered parts
 * `….requests.part-0001-of-0003.jsonl` within the OpenAI Batch limits, parts.ts), whose `custom_id`
 * names the judging, the bundle, the request hash and the judge key
 * (`<judging>:<bundle 12 hex>:<request sha256 16 hex>:<trial>@<model>`). Import checks the output
 * files whole (judge-batch-read.ts), then records each line into the judge ledger exactly as a
 * live call's reply would be (same request hash, classification and text; the cost at the batch
 * price), once: a line already recorded, or of a response already judged, changes nothing.
 * Neither sends anything.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { sha256 } from '../core/fsio.js';
import type { LedgerWriter } from '../ledger/write.js';
import type { ModelSpec } from '../models/schema.js';
import { inputLine, lineVerdict } from '../batch/formats.js';
import { COMMIT_CHARS } from '../batch/import-lines.js';
import { partLimits, writeParts, type PartFile, type PartOptions } from '../batch/parts.js';
import { recordOf } from '../client/classify.js';
import { costOfUsage } from '../run/cost.js';
import { providerOf } from '../client/providers/index.js';
import { imageRefs, type RequestBody } from '../client/request.js';
import { judgeCustomId, judgingOf, type JudgeResultLine } from './judge-batch-read.js';
import {
  inBatch,
  markImported,
  recordExport,
  refuseOverwrite,
  type ExportedLine,
  type InBatch,
} from '../ledger/batch-exports.js';
import type { Db } from '../ledger/open.js';

/** Where judge batch files go and come from. */
export interface JudgeBatch {
  /** Write the pending requests into this folder (nothing is sent). */
  out?: string;
  /** Lower limits of the parts written (default: OpenAI Batch's, parts.ts). */
  parts?: PartOptions;
  /** Record the results found here (folders or files; nothing is sent). */
  in?: readonly string[];
  /** With `in`: some parts of an export only (a missing part is allowed). */
  partial?: boolean;
  /** With `out`: write again the responses an earlier export holds whose results are not imported. */
  reexport?: boolean;
  /** Live calls (neither `out` nor `in`): also ask about the responses a batch file holds. */
  sendExported?: boolean;
}

/** The judge ledger an export is recorded in (ledger/batch-exports.ts): its judge run. */
interface ExportRecord {
  db: Db;
  runId: number;
}

/** The file of a judge's requests or results for one judging. */
export function judgeBatchFile(
  dir: string,
  judge: string,
  runLabel: string,
  kind: 'requests' | 'results',
): string {
  const what = judgingOf(runLabel).replace(/-[0-9a-f]+$/, '');
  const safe = judge.replace(/[^A-Za-z0-9._-]+/g, '_');
  return path.join(dir, `${safe}.${what}.${kind}.jsonl`);
}

/**
 * Write the requests of `pending` as OpenAI Batch input files, in numbered parts within the
 * OpenAI Batch limits (or `parts`, parts.ts); returns the files and the count.
 */
export async function exportJudgeBatch<T>(o: {
  dir: string;
  judge: ModelSpec;
  runLabel: string;
  digest: string;
  pending: readonly T[];
  parts?: PartOptions;
  targetIdOf: (t: T) => string;
  request: (t: T) => { body: RequestBody; sha256: string };
  materialize: (b: RequestBody) => Promise<RequestBody>;
  /** Record the export in the judge ledger before the files take their names. */
  record?: ExportRecord;
}): Promise<{ file: string; requests: number; parts: Array<Omit<PartFile, 'sha256'>> }> {
  const file = judgeBatchFile(o.dir, o.judge.name, o.runLabel, 'requests');
  const written: ExportedLine[] = [];
  async function* lines() {
    for (const t of o.pending) {
      const req = o.request(t);
      const body = await o.materialize(req.body);
      const key = o.targetIdOf(t);
      const id = judgeCustomId(o.runLabel, o.digest, req.sha256, key);
      written.push({ trialId: key, customId: id });
      yield [id, `${JSON.stringify(inputLine('openai', id, body))}\n`] as const;
    }
  }
  const rec = o.record;
  const recorded = path.resolve(file);
  // Writing the file again must keep what an earlier export to it still holds (batch-exports.ts).
  if (rec)
    refuseOverwrite(rec.db, recorded, {
      runId: rec.runId,
      model: o.judge.name,
      keys: new Set(o.pending.map(o.targetIdOf)),
    });
  const commit = rec
    ? (n: number) =>
        recordExport(rec.db, rec.runId, o.judge.name, { file: recorded, parts: n, lines: written })
    : undefined;
  await mkdir(o.dir, { recursive: true });
  const parts = await writeParts(file, partLimits('openai', o.parts), lines(), commit);
  return {
    file: parts[0]!.file,
    requests: o.pending.length,
    parts: parts.map(({ file: f, requests, bytes }) => ({ file: f, requests, bytes })),
  };
}

/** What importing a judge's results files recorded. */
interface JudgeImport {
  files: string[];
  /** Final labels recorded (answers, and refusals or other outcomes a live call would record). */
  recorded: number;
  /** Lines recorded as failed (a permanent error) or as an attempt to try again (no result). */
  failed: number;
  /** Lines recorded before, or of responses already judged. */
  skipped: number;
}

type Row = Parameters<LedgerWriter['recordMany']>[0][number];

/** Checked result lines, read again (streamed) on each call (judge-batch-read.ts). */
interface JudgeRead {
  files: string[];
  lines: () => AsyncIterable<JudgeResultLine>;
}

/** Rows recorded per transaction. */
const ROWS_PER_COMMIT = 500;

/** The ledger rows of one checked line, as a live call's reply would give. */
function rowOf(
  judge: ModelSpec,
  l: JudgeResultLine,
  attempt: number,
  request: { body: RequestBody; sha256: string },
): { row: Row; done: boolean } {
  const tag = `batch-line:${sha256(l.raw.trim())}`;
  const v = lineVerdict(providerOf(judge), l.value, l.raw);
  const base = { request_sha256: request.sha256, attempts: 1, latency_ms: null };
  const row = { model: judge.name, trialId: l.key, attempt, source: 'batch' };
  const head = { ...row, requestSha256: request.sha256, endpoint: tag };
  if (v.kind === 'final') {
    const rec = recordOf(v.reply, base);
    // the judge's price, less the batch discount (run/cost.ts), as run's batch import
    const images = imageRefs(request.body).length;
    const cost = costOfUsage(v.reply.usage, judge.price, images, true);
    return { row: { ...head, end: rec.end, final: { ...rec.final, cost_usd: cost } }, done: true };
  }
  if (v.kind === 'failed' || v.kind === 'auth') {
    // as a live call: a permanent failure is the response's (failed) result
    const errorClass = v.kind === 'failed' ? v.errorClass : `http_${v.httpStatus}`;
    const fault = { error_class: errorClass, http_status: v.httpStatus, error_body: v.body };
    const end = { outcome: 'failed' as const, ...fault };
    return { row: { ...head, end, final: { ...base, ...end } }, done: true };
  }
  // an infrastructure fault (or no result): the response stays unjudged (export again to retry it)
  const fault =
    v.kind === 'retry'
      ? { error_class: v.errorClass, http_status: v.httpStatus, error_body: v.body }
      : {};
  return { row: { ...head, end: { outcome: 'retry', ...fault }, final: null }, done: false };
}

/**
 * Record checked result lines into the judge ledger in one transaction: each as a live call's
 * reply would be (a final result, or a failed attempt that leaves the response unjudged); lines
 * of responses already judged, or recorded before (same bytes), are skipped.
 */
async function importJudgeBatch<T>(o: {
  judge: ModelSpec;
  read: JudgeRead;
  byKey: ReadonlyMap<string, T>;
  done: Set<string>;
  prior: Map<string, number>;
  request: (t: T) => { body: RequestBody; sha256: string };
  writer: LedgerWriter;
  /** `batch-line:<sha256>` tags of lines recorded before (a line is recorded once). */
  seenLines: Set<string>;
  /** Keys a line names (recorded now or before): their export is read. */
  keysRead: Set<string>;
}): Promise<JudgeImport> {
  const res: JudgeImport = { files: o.read.files, recorded: 0, failed: 0, skipped: 0 };
  let rows: Row[] = [];
  let chars = 0;
  for await (const l of o.read.lines()) {
    // recorded in transactions of at most ROWS_PER_COMMIT rows and COMMIT_CHARS characters of
    // their lines: memory stays bounded whatever the files' size
    if (rows.length >= ROWS_PER_COMMIT || chars >= COMMIT_CHARS) {
      o.writer.recordMany(rows);
      rows = [];
      chars = 0;
    }
    chars += l.raw.length;
    o.keysRead.add(l.key);
    const tag = `batch-line:${sha256(l.raw.trim())}`;
    if (o.done.has(l.key) || o.seenLines.has(tag)) {
      res.skipped++;
      continue;
    }
    o.seenLines.add(tag);
    const attempt = (o.prior.get(l.key) ?? 0) + 1;
    o.prior.set(l.key, attempt);
    const { row, done } = rowOf(o.judge, l, attempt, o.request(o.byKey.get(l.key)!));
    rows.push(row);
    if (done) o.done.add(l.key);
    if (row.final && row.final.outcome !== 'failed') res.recorded++;
    else res.failed++;
  }
  o.writer.recordMany(rows);
  return res;
}

/** What a judging through batch files did. */
export interface JudgeBatchResult {
  imported?: JudgeImport;
  /** `file` null: nothing was pending, so no requests file was written (a batch API refuses an empty one). */
  exported?: {
    file: string | null;
    requests: number;
    parts?: Array<Omit<PartFile, 'sha256'>>;
    /** Responses left out: an earlier export holds them and no import has read their results. */
    in_batch: number;
  };
  /** Every response was judged before: no results file was needed, no requests file written. */
  nothing_pending?: true;
}

/**
 * Judge through batch files instead of calls: record the checked result lines (`read`), then
 * write the requests still unanswered (`batch.out`), leaving out those an earlier export holds
 * unless `batch.reexport`; the export is recorded in the judge ledger. Sends nothing.
 */
export async function judgeThroughBatch<T>(
  batch: JudgeBatch,
  o: {
    judge: ModelSpec;
    runLabel: string;
    digest: string;
    targets: readonly T[];
    read?: JudgeRead;
    done: Set<string>;
    prior: Map<string, number>;
    targetIdOf: (t: T) => string;
    request: (t: T) => { body: RequestBody; sha256: string };
    materialize: (b: RequestBody) => Promise<RequestBody>;
    writer: LedgerWriter;
    seenLines: Set<string>;
    ledger: ExportRecord;
  },
): Promise<JudgeBatchResult> {
  const unjudged = () => o.targets.filter((t) => !o.done.has(o.targetIdOf(t)));
  const out: JudgeBatchResult = unjudged().length === 0 ? { nothing_pending: true } : {};
  if (o.read) {
    const byKey = new Map(o.targets.map((t) => [o.targetIdOf(t), t]));
    const keysRead = new Set<string>();
    out.imported = await importJudgeBatch({ ...o, read: o.read, byKey, keysRead });
    markImported(o.ledger.db, o.ledger.runId, o.judge.name, keysRead);
  }
  if (!batch.out) return out;
  // After the import: a response it answered is not written again.
  const held = batch.reexport
    ? new Map<string, InBatch>()
    : inBatch(o.ledger.db, o.ledger.runId, o.judge.name);
  const left = unjudged();
  const pending = left.filter((t) => !held.has(o.targetIdOf(t)));
  const in_batch = left.length - pending.length;
  out.exported =
    pending.length === 0
      ? { file: null, requests: 0, in_batch }
      : {
          ...(await exportJudgeBatch({
            ...o,
            dir: batch.out,
            pending,
            parts: batch.parts,
            record: o.ledger,
          })),
          in_batch,
        };
  return out;
}
