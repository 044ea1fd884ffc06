/**
 * `stimkit batch export|import --judge NAME`: the judges of `score` through batch files. Export
 * writes, per judge, the requests of every response not judged yet: the audit judge's
 * (`<judge>.rubric.requests.jsonl`) and the instrument free-text judge's
 * (`<judge>.instrument.requests.jsonl`, only when there is free text to judge), in the OpenAI
 * Batch format, in numbered parts within its limits (`….part-0001-of-0003.jsonl`,
 * batch/parts.ts), and sends nothing. Import records a judge's output files into the judge ledger
 * exactly as live calls would (audit/judge-batch.ts), each file checked whole first; `score
 * --judge NAME` then finds every response judged and sends nothing.
 */
import { sep } from 'node:path';
import { StimkitError } from '../core/errors.js';
import { prepareAudit } from './audit-prepare.js';
import type { JudgeBatch } from '../audit/judge-batch.js';
import type { PartOptions } from '../batch/parts.js';
import { judgingOfFile } from '../audit/judge-batch-read.js';
import type { JudgeRunResult } from '../audit/judge-calls.js';
import { prepareInstrumentJudge } from './instrument-judge.js';
import type { ResponseSource } from './score.js';

/** Options of `judgeBatchExport` / `judgeBatchImport` (as `score`'s). */
export interface JudgeBatchOptions {
  bundle: string;
  source: ResponseSource;
  models: string;
  judges: string[];
  judgeLedger?: string;
  rubric?: string;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

/** What one judge's batch files did for one judging. */
export interface JudgeBatchFileResult {
  judge: string;
  judging: 'audit' | 'instrument';
  /** The judge run in the judge ledger. */
  run: string;
  /** Export: the requests file written (its first part; null: nothing pending, none written), and how many requests it holds. */
  file?: string | null;
  requests?: number;
  /** Export: every part written, in order: file, requests, bytes (parts.ts). */
  parts?: Array<{ file: string; requests: number; bytes: number }>;
  /** Export: responses left out, held by an earlier export whose results are not imported. */
  in_batch?: number;
  /** Import: the output files recorded, and what they gave. */
  files?: string[];
  recorded?: number;
  failed?: number;
  skipped?: number;
}

async function judgeAll(
  o: JudgeBatchOptions,
  batch: JudgeBatch,
): Promise<Array<{ judging: 'audit' | 'instrument'; r: JudgeRunResult }>> {
  const common = { ...o, judgeBatch: batch };
  const audit = await prepareAudit(common);
  const instrument = await prepareInstrumentJudge(common);
  return [
    ...audit.judged.map((r) => ({ judging: 'audit' as const, r })),
    ...instrument.judged.map((r) => ({ judging: 'instrument' as const, r })),
  ];
}

/** Write each judge's pending requests into `out` (one file per judge and judging). */
export async function judgeBatchExport(
  o: JudgeBatchOptions & { out: string; parts?: PartOptions; reexport?: boolean },
): Promise<JudgeBatchFileResult[]> {
  const done = await judgeAll(o, { out: o.out, parts: o.parts, reexport: o.reexport });
  return done.flatMap(({ judging, r }) =>
    r.batch?.exported ? [{ judge: r.judge, judging, run: r.run, ...r.batch.exported }] : [],
  );
}

/**
 * Record one judge's batch output files (or folders holding `<judge>.<judging>.results.jsonl`)
 * into the judge ledger. A file that answers no judging of these responses is refused, naming
 * it; each file is checked whole before it is recorded, so a refused file records nothing.
 */
export async function judgeBatchImport(
  o: JudgeBatchOptions & { files: string[]; partial?: boolean },
): Promise<JudgeBatchFileResult[]> {
  if (o.judges.length !== 1)
    throw StimkitError.usage(
      'E_BATCH_USAGE',
      'batch import records the output of one judge at a time: give exactly one --judge NAME',
      'run batch import once per judge, each with its --judge NAME and that judge’s output files',
    );
  const done = await judgeAll(o, { in: o.files, partial: o.partial });
  const out = done.flatMap(({ judging, r }) => {
    const imp = r.batch?.imported;
    return imp && imp.files.length > 0 ? [{ judge: r.judge, judging, run: r.run, ...imp }] : [];
  });
  const used = out.flatMap((f) => f.files);
  const unused = o.files.filter(
    (f) =>
      !used.some((u) => u === f || u.startsWith(`${f.replace(/(?<![\\/])[\\/]+$/, '')}${sep}`)),
  );
  if (unused.length > 0) {
    const judging = await judgingOfFile(unused[0]!);
    throw StimkitError.fromProblem({
      code: 'E_JUDGE_BATCH_UNUSED',
      file: unused[0],
      message: `this output answers no judging of these responses by judge "${o.judges[0]}"${out.length ? ' (the other files were recorded)' : ''}`,
      expected: done.map((d) => d.r.run.split('/').pop()).join(' or ') || 'responses to judge',
      got: judging ?? 'no judge request id',
      fix: 'import it with the --rubric, responses (--ledger/--run or --responses) and judge it was exported with',
    });
  }
  return out;
}
