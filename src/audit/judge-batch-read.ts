/**
 * Reading a judge's batch results before anything is recorded. Every line of every file is
 * checked first: JSON (a file cut short fails on its last line), the OpenAI Batch output format
 * (the format judges are sent in), a `custom_id` that stimkit wrote for this judging, bundle and
 * response (`<judging>:<bundle 12 hex>:<request sha256 16 hex>:<trial>@<model>`, judge-batch.ts),
 * the request a live call would send now (same hash), and the model that served it. Any problem
 * refuses the file, naming it and the line, with nothing recorded.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { StimkitError } from '../core/errors.js';
import { formatOf, servedOf } from '../batch/formats.js';
import { outputLines } from '../batch/import-check.js';
import { checkPartSet, partOf } from '../batch/parts.js';
import { checkServedModel, servedMatches } from '../batch/served-model.js';
import { readTextLines } from '../core/fsio.js';
import type { ModelSpec } from '../models/schema.js';

/** One checked output line: its target's key and its text. */
export interface JudgeResultLine {
  file: string;
  line: number;
  raw: string;
  value: Record<string, unknown>;
  key: string;
}

/** The part of a judge run's label that names the judging: `rubric-<12 hex>` or `instrument-<12 hex>`. */
export function judgingOf(runLabel: string): string {
  return runLabel.split('/').pop()!;
}

/** The `custom_id` of a judge request: judging, bundle, request hash and judge key. */
export function judgeCustomId(
  runLabel: string,
  digest: string,
  requestSha256: string,
  key: string,
): string {
  return `${judgingOf(runLabel)}:${digest.slice(0, 12)}:${requestSha256.slice(0, 16)}:${key}`;
}

const ID_RE = /^([^:]+):([0-9a-f]{12}):([0-9a-f]{16}):(.+)$/;

/** The judging a results file answers (its first line's), or null when it names none. */
export async function judgingOfFile(file: string): Promise<string | null> {
  let first: string | undefined;
  try {
    // the first line that is not blank, streamed (a results file can be gigabytes)
    for await (const l of readTextLines(file)) {
      if (l.trim() === '') continue;
      first = l;
      break;
    }
  } catch {
    return null;
  }
  try {
    const id = (JSON.parse(first ?? '') as { custom_id?: unknown }).custom_id;
    return typeof id === 'string' ? (ID_RE.exec(id)?.[1] ?? null) : null;
  } catch {
    return null;
  }
}

/** What a results file must match. */
export interface JudgeResultsContext {
  judge: ModelSpec;
  runLabel: string;
  digest: string;
  /** The request sha256 of each target a live call would send now, by judge key. */
  expected: ReadonlyMap<string, string>;
}

function lineProblem(
  file: string,
  line: number,
  code: string,
  p: { message: string; field?: string; expected?: string; got?: string; fix: string },
): StimkitError {
  return StimkitError.fromProblem({ code, file, line, ...p });
}

/** Check one parsed line's id against this judging; returns its judge key. */
function checkId(file: string, line: number, id: unknown, c: JudgeResultsContext): string {
  const m = typeof id === 'string' ? ID_RE.exec(id) : null;
  const judging = judgingOf(c.runLabel);
  const fail = (code: string, message: string, expected: string, got: string, fix: string) =>
    lineProblem(file, line, code, { field: 'custom_id', message, expected, got, fix });
  if (!m)
    throw fail(
      'E_JUDGE_BATCH_ID',
      'not a judge request id written by stimkit batch export --judge; nothing recorded',
      '<judging>:<bundle>:<request>:<trial>@<model>',
      JSON.stringify(id),
      'import the output of the judge batch that batch export --judge wrote, unchanged',
    );
  const [, what, bundle, request, key] = m as unknown as [string, string, string, string, string];
  if (what !== judging)
    throw fail(
      'E_JUDGE_BATCH_JUDGING',
      `this line answers another judging (another rubric or judge prompt) than the one being recorded; nothing recorded`,
      judging,
      what,
      'import each judge batch output for the rubric and prompt it was exported with (--rubric as at export)',
    );
  if (bundle !== c.digest.slice(0, 12))
    throw fail(
      'E_JUDGE_BATCH_BUNDLE',
      'this line answers a request made for another bundle; nothing recorded',
      `bundle ${c.digest.slice(0, 12)}…`,
      `bundle ${bundle}…`,
      'import it with --bundle the bundle it was exported from',
    );
  const want = c.expected.get(key);
  if (want === undefined)
    throw fail(
      'E_JUDGE_BATCH_UNKNOWN',
      `"${key}" is no response this judge has to judge here; nothing recorded`,
      'a <trial>@<model> of the responses given (--ledger / --run, or --responses)',
      key,
      'import it against the responses it was exported from',
    );
  if (want.slice(0, 16) !== request)
    throw fail(
      'E_JUDGE_BATCH_REQUEST',
      `"${key}": this line answers another request than the judge would send now (the response, the judge's api_model or settings changed since export); nothing recorded`,
      `request ${want.slice(0, 16)}…`,
      `request ${request}…`,
      'export the judge batch again and run it, or judge with the settings it was exported with',
    );
  return key;
}

/** The lines of one results file (streamed), each checked: JSON, format and id (the served model after). */
async function* checkedLines(
  file: string,
  c: JudgeResultsContext,
): AsyncGenerator<JudgeResultLine> {
  const lines = outputLines(file);
  // A refused line (or a consumer that stops) leaves `lines` part-read: end it, so that the file
  // it holds open is closed now, not by the garbage collector.
  try {
    for (;;) {
      let next: IteratorResult<{ line: number; raw: string; value: Record<string, unknown> }>;
      try {
        next = await lines.next();
      } catch (err) {
        // a results file that cannot be read is named as such
        if (err instanceof StimkitError && err.code === 'E_BATCH_READ')
          throw unreadableResults(file, err.message);
        throw err;
      }
      if (next.done) return;
      const { line, raw, value } = next.value;
      const format = formatOf(value);
      if (format !== 'openai')
        throw lineProblem(file, line, 'E_BATCH_FORMAT', {
          message: `not an OpenAI Batch output line (judge "${c.judge.name}" is sent in the OpenAI Batch format); nothing recorded`,
          expected: 'an OpenAI Batch output line {custom_id, response: {status_code, body}, error}',
          got: format ? `a ${format} batch output line` : 'another shape',
          fix: 'import the output file of the judge batch run, unchanged',
        });
      yield { file, line, raw, value, key: '' };
    }
  } finally {
    await lines.return(undefined);
  }
}

/**
 * Check every line of one results file, streamed (nothing held): another judge's output is named
 * as such (E_BATCH_MODEL) before the requests are compared.
 */
async function checkFile(file: string, c: JudgeResultsContext): Promise<void> {
  const requested = c.judge.api_model ?? c.judge.name;
  const badServed: Array<{ line: number; served: unknown }> = [];
  for await (const l of checkedLines(file, c)) {
    const served = servedOf('openai', l.value);
    if (typeof served === 'string' && served !== '' && !servedMatches(requested, served))
      badServed.push({ line: l.line, served });
  }
  checkServedModel(file, c.judge.name, requested, badServed);
  for await (const l of checkedLines(file, c)) checkId(file, l.line, l.value.custom_id, c);
}

/** The checked lines of `files` again, streamed, each with its judge key (after `checkFile`). */
async function* linesOf(
  files: readonly string[],
  c: JudgeResultsContext,
): AsyncGenerator<JudgeResultLine> {
  for (const f of files)
    for await (const l of checkedLines(f, c))
      yield { ...l, key: checkId(f, l.line, l.value.custom_id, c) };
}

/** A results file that cannot be read (E_JUDGE_BATCH_READ). */
export function unreadableResults(file: string, why: string): StimkitError {
  return StimkitError.fromProblem({
    code: 'E_JUDGE_BATCH_READ',
    file,
    message: `cannot read the judge's batch results (${why})`,
    fix: 'save the output file of the judge batch run there, or name the file',
  });
}

/**
 * The results files among `inputs` that answer this judging, every line checked: a folder gives
 * its `<judge>.<judging>.results.jsonl`, or the numbered parts of it
 * (`….results.part-0001-of-0003.jsonl`; judge-batch.ts's names; none there is `missing`: an
 * error only when the judging has responses pending, judge-calls.ts), a file is taken when its
 * first line names this judging, or names none (to report why). The files must hold each part
 * once (E_BATCH_PARTS). Throws on the first problem, before anything is recorded; `lines` reads
 * the checked lines again, streamed (memory stays bounded whatever the files' size).
 */
export async function readJudgeResults(
  inputs: readonly string[],
  c: JudgeResultsContext,
  folderFile: (dir: string) => string,
  partial = false,
): Promise<{ files: string[]; lines: () => AsyncIterable<JudgeResultLine>; missing: string[] }> {
  const files: string[] = [];
  const missing: string[] = [];
  for (const p of inputs) {
    const isDir = await stat(p).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (isDir) {
      const found = await folderResults(p, folderFile(p));
      if (found.length > 0) files.push(...found);
      else missing.push(folderFile(p));
    } else {
      // a file that names no judging is taken, so that its first problem is reported
      const judging = await judgingOfFile(p);
      if (judging === null || judging === judgingOf(c.runLabel)) files.push(p);
    }
  }
  await checkPartSet(files, { partial });
  for (const f of files) await checkFile(f, c);
  return { files, lines: () => linesOf(files, c), missing };
}

/** The results file `file` in `dir`, or its numbered parts there (`<stem>.part-NNNN-of-MMMM.jsonl`). */
async function folderResults(dir: string, file: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const base = path.basename(file);
  if (names.includes(base)) return [file];
  const ext = path.extname(base);
  const stem = base.slice(0, -ext.length);
  return names
    .filter((n) => n.startsWith(`${stem}.part-`) && n.endsWith(ext) && partOf(n) !== null)
    .sort()
    .map((n) => path.join(dir, n));
}
