/**
 * Reading a judge's batch results before anything is recorded. Every line of every file is
 * checked first: JSON (a file cut short fails on its last line), the OpenAI Batch output format
 * (the format judges are sent in), a `custom_id` that stimkit wrote for this judging, bundle and
 * response (`<judging>:<bundle 12 hex>:<request sha256 16 hex>:<trial>@<model>`, judge-batch.ts),
 * the request a live call would send now (same hash), and the model that served it. Any problem
 * refuses the file, naming it and the line, with nothing recorded.
 */
import { readFile, stat } from 'node:fs/promises';
import { StimkitError } from '../core/errors.js';
import { formatOf, servedOf } from '../batch/formats.js';
import { checkServedModel } from '../batch/served-model.js';
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
  const text = await readFile(file, 'utf8').catch(() => '');
  const first = text.split('\n').find((l) => l.trim() !== '');
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

/** Parse and check every line of one results file. */
function checkFile(file: string, text: string, c: JudgeResultsContext): JudgeResultLine[] {
  const out: JudgeResultLine[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw lineProblem(file, i + 1, 'E_BATCH_LINE', {
        message: 'not a JSON object (a file cut short ends in a broken line); nothing recorded',
        fix: 'download the batch output file again, whole, and import it unchanged',
      });
    }
    const format = formatOf(value);
    if (format !== 'openai')
      throw lineProblem(file, i + 1, 'E_BATCH_FORMAT', {
        message: `not an OpenAI Batch output line (judge "${c.judge.name}" is sent in the OpenAI Batch format); nothing recorded`,
        expected: 'an OpenAI Batch output line {custom_id, response: {status_code, body}, error}',
        got: format ? `a ${format} batch output line` : 'another shape',
        fix: 'import the output file of the judge batch run, unchanged',
      });
    out.push({ file, line: i + 1, raw, value: value as Record<string, unknown>, key: '' });
  });
  // another judge's output is named as such before its requests are compared
  checkServedModel(
    file,
    c.judge.name,
    c.judge.api_model ?? c.judge.name,
    out.map((l) => ({ line: l.line, served: servedOf('openai', l.value) })),
  );
  return out.map((l) => ({ ...l, key: checkId(file, l.line, l.value.custom_id, c) }));
}

async function readResults(file: string): Promise<string> {
  return readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw unreadableResults(file, err.code ?? err.message);
  });
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
 * The checked lines of the results files among `inputs` that answer this judging: a folder gives
 * its `<judge>.<judging>.results.jsonl` (judge-batch.ts's name; one not there is `missing`: an
 * error only when the judging has responses pending, judge-calls.ts), a file is
 * taken when its first line names this judging, or names none (to report why). Throws on the first problem, before anything is
 * recorded.
 */
export async function readJudgeResults(
  inputs: readonly string[],
  c: JudgeResultsContext,
  folderFile: (dir: string) => string,
): Promise<{ files: string[]; lines: JudgeResultLine[]; missing: string[] }> {
  const files: string[] = [];
  const missing: string[] = [];
  for (const p of inputs) {
    const isDir = await stat(p).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (isDir) {
      const f = folderFile(p);
      const there = await stat(f).then(
        () => true,
        () => false,
      );
      (there ? files : missing).push(f);
    } else {
      // a file that names no judging is taken, so that its first problem is reported
      const judging = await judgingOfFile(p);
      if (judging === null || judging === judgingOf(c.runLabel)) files.push(p);
    }
  }
  const lines: JudgeResultLine[] = [];
  for (const f of files) lines.push(...checkFile(f, await readResults(f), c));
  return { files, lines, missing };
}
