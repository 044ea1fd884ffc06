/**
 * The judge at scale through batch files: instead of calling a judge, `score --judge-batch-out
 * DIR` writes the requests of every response the judge has not answered yet as an OpenAI Batch
 * input file, one per judge and judging (`<judge>.<audit|instrument>.requests.jsonl`, `custom_id`
 * = the judge key `<trial>@<model>`); after the batch run, `score --judge-batch-in DIR` records
 * `<judge>.<audit|instrument>.results.jsonl` into the judge ledger exactly as live calls would
 * (same request hashes, same classification, idempotent), and scores from the ledger. Neither
 * mode sends anything.
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { StimkitError } from '../core/errors.js';
import { sha256 } from '../core/fsio.js';
import type { LedgerWriter } from '../ledger/write.js';
import type { ModelSpec } from '../models/schema.js';
import { BATCH_URL, formatOf, idOf, lineVerdict, servedOf } from '../batch/formats.js';
import { checkServedModel } from '../batch/served-model.js';
import { recordOf } from '../run/classify.js';
import { providerOf } from '../run/providers/index.js';
import type { RequestBody } from '../run/request.js';

/** Where judge batch files go and come from. */
export interface JudgeBatch {
  /** Write the pending requests here (nothing is sent). */
  out?: string;
  /** Record the results found here (nothing is sent). */
  in?: string;
}

/** The file of a judge's requests or results for one judging (the part of its run label after the last `/`). */
export function judgeBatchFile(
  dir: string,
  judge: string,
  runLabel: string,
  kind: 'requests' | 'results',
): string {
  const what = runLabel
    .split('/')
    .pop()!
    .replace(/-[0-9a-f]+$/, '');
  const safe = judge.replace(/[^A-Za-z0-9._-]+/g, '_');
  return path.join(dir, `${safe}.${what}.${kind}.jsonl`);
}

/** Write the requests of `pending` as an OpenAI Batch input file; returns the file and its count. */
async function exportJudgeBatch<T>(o: {
  dir: string;
  judge: ModelSpec;
  runLabel: string;
  pending: readonly T[];
  keyOf: (t: T) => string;
  request: (t: T) => { body: RequestBody };
  materialize: (b: RequestBody) => Promise<RequestBody>;
}): Promise<{ file: string; requests: number }> {
  const file = judgeBatchFile(o.dir, o.judge.name, o.runLabel, 'requests');
  const lines: string[] = [];
  for (const t of o.pending) {
    const body = await o.materialize(o.request(t).body);
    lines.push(
      `${JSON.stringify({ custom_id: o.keyOf(t), method: 'POST', url: BATCH_URL, body })}\n`,
    );
  }
  await mkdir(o.dir, { recursive: true });
  await writeFile(file, lines.join(''));
  return { file, requests: lines.length };
}

/**
 * Record a judge's results file into the judge ledger: each line as a live call's reply would be
 * (a final result, or a failed attempt that leaves the response unjudged); lines of responses
 * already judged, or of no target, are skipped. Returns the counts.
 */
async function importJudgeBatch<T>(o: {
  dir: string;
  judge: ModelSpec;
  runLabel: string;
  targets: readonly T[];
  done: Set<string>;
  prior: Map<string, number>;
  keyOf: (t: T) => string;
  request: (t: T) => { sha256: string };
  writer: LedgerWriter;
  /** `batch-line:<sha256>` tags of lines recorded before (a line is recorded once). */
  seenLines: Set<string>;
}): Promise<{ file: string; recorded: number; failed: number }> {
  const file = judgeBatchFile(o.dir, o.judge.name, o.runLabel, 'results');
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw StimkitError.fromProblem({
      code: 'E_JUDGE_BATCH_READ',
      file,
      message: `cannot read the judge's batch results (${err.code ?? err.message})`,
      fix: `save the output of the batch run of ${path.basename(judgeBatchFile(o.dir, o.judge.name, o.runLabel, 'requests'))} under this name`,
    });
  });
  const provider = providerOf(o.judge);
  const byKey = new Map(o.targets.map((t) => [o.keyOf(t), t]));
  const parsed = text
    .split('\n')
    .map((raw, i) => ({ raw, line: i + 1 }))
    .filter((l) => l.raw.trim() !== '')
    .map((l) => {
      try {
        return { ...l, value: JSON.parse(l.raw) as Record<string, unknown> };
      } catch {
        throw StimkitError.fromProblem({
          code: 'E_BATCH_LINE',
          file,
          line: l.line,
          message: 'not a JSON object',
          fix: 'pass the batch output file unchanged',
        });
      }
    });
  const foreign = parsed.find((l) => formatOf(l.value) !== provider.name);
  if (foreign)
    throw StimkitError.fromProblem({
      code: 'E_BATCH_FORMAT',
      file,
      line: foreign.line,
      message: `not an OpenAI Batch output line (judge "${o.judge.name}" is provider ${provider.name}); nothing recorded`,
      fix: 'save the output file of the judge batch run unchanged',
    });
  const api = o.judge.api_model ?? o.judge.name;
  checkServedModel(
    file,
    o.judge.name,
    api,
    parsed.map((l) => ({ line: l.line, served: servedOf(provider.name, l.value) })),
  );
  const res = { file, recorded: 0, failed: 0 };
  const rows: Parameters<LedgerWriter['recordMany']>[0] = [];
  for (const l of parsed) {
    const key = idOf(provider.name, l.value);
    const t = key !== undefined ? byKey.get(key) : undefined;
    const tag = `batch-line:${sha256(l.raw.trim())}`;
    if (key === undefined || t === undefined || o.done.has(key) || o.seenLines.has(tag)) continue;
    o.seenLines.add(tag);
    const v = lineVerdict(provider, l.value, l.raw);
    const attempt = (o.prior.get(key) ?? 0) + 1;
    o.prior.set(key, attempt);
    const base = { request_sha256: o.request(t).sha256, attempts: 1 };
    const row = {
      model: o.judge.name,
      trialId: key,
      attempt,
      source: 'batch',
      requestSha256: base.request_sha256,
      endpoint: tag,
    };
    if (v.kind === 'final') {
      const r = v.reply;
      o.done.add(key);
      res.recorded++;
      rows.push({
        ...row,
        ...recordOf(r, base),
      });
    } else if (v.kind === 'failed' || v.kind === 'auth') {
      // as a live call: a permanent failure is the response's (failed) result
      const errorClass = v.kind === 'failed' ? v.errorClass : `http_${v.httpStatus}`;
      const fault = { error_class: errorClass, http_status: v.httpStatus, error_body: v.body };
      o.done.add(key);
      res.failed++;
      rows.push({
        ...row,
        end: { outcome: 'failed', ...fault },
        final: { ...base, outcome: 'failed', ...fault },
      });
    } else if (v.kind === 'retry') {
      // an infrastructure fault: the response stays unjudged (export again to retry it)
      res.failed++;
      rows.push({
        ...row,
        end: {
          outcome: 'retry',
          error_class: v.errorClass,
          http_status: v.httpStatus,
          error_body: v.body,
        },
        final: null,
      });
    }
  }
  o.writer.recordMany(rows);
  return res;
}

/** What a judging through batch files did. */
export interface JudgeBatchResult {
  imported?: { file: string; recorded: number; failed: number };
  exported?: { file: string; requests: number };
}

/**
 * Judge through batch files instead of calls: record the results file (`batch.in`), then write
 * the requests still unanswered (`batch.out`). Sends nothing.
 */
export async function judgeThroughBatch<T>(
  batch: JudgeBatch,
  o: {
    judge: ModelSpec;
    runLabel: string;
    targets: readonly T[];
    done: Set<string>;
    prior: Map<string, number>;
    keyOf: (t: T) => string;
    request: (t: T) => { body: RequestBody; sha256: string };
    materialize: (b: RequestBody) => Promise<RequestBody>;
    writer: LedgerWriter;
    seenLines: Set<string>;
  },
): Promise<JudgeBatchResult> {
  const out: JudgeBatchResult = {};
  if (batch.in) out.imported = await importJudgeBatch({ ...o, dir: batch.in });
  if (batch.out) {
    const pending = o.targets.filter((t) => !o.done.has(o.keyOf(t)));
    out.exported = await exportJudgeBatch({ ...o, dir: batch.out, pending });
  }
  return out;
}
