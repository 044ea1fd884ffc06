/**
 * `stimkit batch export <bundle> --models FILE --model NAME --out in.jsonl [--where EXPR] [--limit N] [--part-requests N] [--part-mib N]`
 * `stimkit batch import <out.jsonl…> --bundle B --model NAME --ledger FILE [--models FILE] [--new-run LABEL]`
 *
 * The judges of `score` (score/judge-batch.ts), with `score`'s options for the responses:
 * `stimkit batch export <bundle> --models FILE --judge NAME… (--ledger FILE [--run LABEL] | --responses FILE) [--judge-ledger FILE] [--rubric FILE] --out DIR`
 * `stimkit batch import <output…> --bundle B --models FILE --judge NAME (--ledger FILE [--run LABEL] | --responses FILE) [--judge-ledger FILE] [--rubric FILE]`
 */
import { Option, type Command } from 'commander';
import { list, positiveInt } from '../cli/flags.js';
import type { CommandResult, Io } from '../cli/output.js';
import { EXIT, StimkitError } from '../core/errors.js';
import type { JudgeBatchFileResult, JudgeBatchOptions } from '../score/judge-batch.js';
import type { PartOptions } from '../batch/parts.js';
import type { CommandSpec } from './index.js';
import { z } from 'zod';
import { flag, parseOptions } from '../cli/options.js';

const fmt = (rec: Record<string, number>) =>
  Object.entries(rec)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ') || 'none';

/** The options of the judge mode, shared by export and import (as `score`'s). */
function judgeOptions(cmd: Command): Command {
  return cmd
    .option(
      '--judge <name>',
      'judge mode: a judge of score (role: judge in --models); its requests for the responses given (export: repeat for several), or its batch output (import)',
      (v: string, prev: string[] = []) => [...prev, v],
    )
    .addOption(
      new Option('--responses <file>', 'judge mode: the responses judged, as score --responses'),
    )
    .option('--run <label>', 'judge mode, with --ledger: the run judged (default: the latest)')
    .option(
      '--judge-ledger <file>',
      'judge mode: the ledger of judge calls (default: beside the responses, .judges.sqlite)',
    )
    .option('--rubric <file>', "judge mode: the audit rubric, as score's --rubric");
}

/** The flags both batch commands read for the judge mode, as commander parses them. */
const JudgeFlags = z.looseObject({
  judge: flag.list,
  model: z.union([z.array(z.string()), z.string()]).optional(),
  ledger: flag.text,
  responses: flag.text,
  run: flag.text,
  models: flag.text,
  judgeLedger: flag.text,
  rubric: flag.text,
});
type JudgeFlags = z.output<typeof JudgeFlags>;

/** The flags of `batch export`. */
const ExportFlags = JudgeFlags.extend({
  model: flag.list,
  models: z.string(),
  out: z.string(),
  where: flag.text,
  limit: flag.int,
  partRequests: flag.int,
  partMib: flag.int,
  reexport: flag.on,
  newRun: flag.text,
});

/** The flags of `batch import`. */
const ImportFlags = JudgeFlags.extend({
  bundle: z.string(),
  model: flag.text,
  newRun: flag.text,
  requests: flag.list,
  partial: flag.on,
});
type ImportFlags = z.output<typeof ImportFlags>;

/** `--part-requests N` and `--part-mib N`: lower limits of a batch file's parts (batch/parts.ts). */
export function withPartOptions(cmd: Command): Command {
  return cmd
    .addOption(
      new Option(
        '--part-requests <n>',
        'at most N requests per part (default and maximum: the vendor’s limit)',
      ).argParser(positiveInt),
    )
    .addOption(
      new Option(
        '--part-mib <n>',
        'at most N MiB per part, as written (default and maximum: the vendor’s limit)',
      ).argParser(positiveInt),
    );
}

/** The parts' limits the options give. */
export const partsOf = (opts: {
  partRequests?: number | undefined;
  partMib?: number | undefined;
}): PartOptions => ({
  partRequests: opts.partRequests,
  partMib: opts.partMib,
});

/** The judge mode's options, checked: exactly one of --model and --judge, and the responses. */
function judgeMode(opts: JudgeFlags, bundle: string, io: Io): JudgeBatchOptions | null {
  const judges = opts.judge;
  const model = opts.model;
  if (!judges && !model)
    throw StimkitError.usage(
      'E_BATCH_USAGE',
      'give --model NAME (a model) or --judge NAME',
      'add --model NAME for a model’s requests, or --judge NAME (a role: judge model of --models) for a judge’s',
    );
  if (judges && model)
    throw StimkitError.usage(
      'E_BATCH_USAGE',
      '--model and --judge do not go together: a batch file holds one model’s or one judge’s requests',
      'run batch once with --model NAME and once with --judge NAME',
    );
  if (!judges) return null;
  const ledger = opts.ledger;
  const responses = opts.responses;
  if (!opts.models || (!ledger && !responses) || (ledger && responses))
    throw StimkitError.usage(
      'E_BATCH_USAGE',
      '--judge needs --models FILE and the responses judged: --ledger FILE (a run ledger) or --responses FILE.jsonl',
      'add --models FILE and one of --ledger FILE or --responses FILE.jsonl (not both)',
    );
  return {
    bundle,
    source: ledger
      ? { kind: 'ledger', file: ledger, run: opts.run }
      : { kind: 'responses', file: responses! },
    models: opts.models,
    judges,
    judgeLedger: opts.judgeLedger,
    rubric: opts.rubric,
    log: (l) => io.stderr(`${l}\n`),
  };
}

function judgeResult(command: string, files: JudgeBatchFileResult[]): CommandResult {
  const held = (f: JudgeBatchFileResult) =>
    f.in_batch
      ? `; ${f.in_batch} left out: an earlier export holds them and their results are not imported (import them, or --reexport if that batch failed or was never sent)`
      : '';
  const human = files.map((f) =>
    f.requests !== undefined
      ? f.file === null
        ? `${f.judge} (${f.judging}): nothing pending (every response judged before${f.in_batch ? ' or in a batch file' : ''}), no requests file written${held(f)}`
        : [
            `${f.judge} (${f.judging}): wrote ${f.requests} request(s) in ${f.parts!.length} part(s)${held(f)}:`,
            ...partLines(f.parts!),
          ].join('\n')
      : `${f.judge} (${f.judging}): ${f.files!.join(', ')}: recorded ${f.recorded}, ${f.failed} without a label, ${f.skipped} recorded before`,
  );
  return {
    summary: { ok: true, command, judges: files },
    human: human.join('\n') || 'no responses to judge',
    exitCode: EXIT.ok,
  };
}

const exportCommand: CommandSpec = {
  name: 'export',
  description:
    "write one model's requests as a batch input file in its provider's format (OpenAI Batch, Anthropic Message Batches, Gemini batch JSONL), or with --judge a judge's pending requests (OpenAI Batch)",
  configure: (cmd) =>
    withPartOptions(
      judgeOptions(
        cmd
          .argument('<bundle>', 'bundle folder (verified first)')
          .requiredOption('--models <file>', 'models file')
          .addOption(new Option('--model <name>', 'the one model of this file').argParser(list))
          .option(
            '--ledger <file>',
            'judge mode: the run ledger of the responses judged; with --model: the ledger the output will be imported into: the export is recorded there (run does not send these trials until batch import reads their output), the trials it has a result for are left out, and a conversation turn is exported only once the turn before is answered in it',
          )
          .requiredOption(
            '--out <path>',
            'the batch input file to write (JSONL); with --judge, the folder for the judges’ files',
          )
          .option(
            '--where <expr>',
            'only trials whose fields match, e.g. paradigm=describe,lang=zh',
          )
          .addOption(new Option('--limit <n>', 'at most N requests').argParser(positiveInt))
          .option(
            '--reexport',
            'with --ledger: write again the trials an earlier export to it holds whose output is not imported (its batch failed, expired or was never sent)',
          )
          .option(
            '--new-run <label>',
            'with --model and --ledger: record the export in a new run of the ledger, as run --new-run (later exports, imports and runs continue it)',
          ),
      ),
    ),
  run: async ([bundle], flags, io) => {
    const opts = parseOptions(ExportFlags, flags);
    const judging = judgeMode(opts, String(bundle), io);
    const parts = partsOf(opts);
    if (judging) {
      if (opts.newRun !== undefined)
        throw StimkitError.usage(
          'E_BATCH_USAGE',
          '--new-run is for a model’s export: a judge’s export is recorded in its judge run',
          'leave --new-run out with --judge',
        );
      const { judgeBatchExport } = await import('../score/judge-batch.js');
      return judgeResult(
        'batch export',
        await judgeBatchExport({
          ...judging,
          out: String(opts.out),
          parts,
          reexport: Boolean(opts.reexport),
        }),
      );
    }
    const { batchExport } = await import('../batch/export.js');
    const r = await batchExport({
      bundle: String(bundle),
      modelsFile: opts.models,
      modelNames: opts.model,
      out: String(opts.out),
      where: opts.where,
      limit: opts.limit,
      ledger: opts.ledger,
      reexport: Boolean(opts.reexport),
      newRun: opts.newRun,
      ...parts,
    });
    for (const w of r.warnings) io.stderr(`warning: ${w}\n`);
    const dropped = Object.entries(r.dropped)
      .map(([f, n]) => `${f} ${n} of ${r.requests}`)
      .join(', ');
    return {
      summary: { ok: true, command: 'batch export', ...r },
      human: [
        r.requests === 0
          ? `nothing to export for ${r.model}: no request written`
          : `wrote ${r.requests} request(s) for ${r.model} in ${r.parts.length} part(s)${dropped ? ` (dropped from requests: ${dropped})` : ''}:`,
        ...partLines(r.parts),
        ...(r.held.waiting + r.held.after_no_answer + r.held.after_failed > 0
          ? [
              `conversation turns held for a later round: ${r.held.waiting} wait for the turn before (import it, then export again), ${r.held.after_no_answer} follow a turn without an answer, ${r.held.after_failed} follow a failed turn (stimkit run --retry-failed sends it again, then them)`,
            ]
          : []),
        ...(r.in_batch.trials > 0
          ? [
              `${r.in_batch.trials} trial(s) left out: an earlier export holds them (${r.in_batch.files.join(', ')}) and no import has read their output; import it, or add --reexport if that batch failed or was never sent`,
            ]
          : []),
        ...(r.recorded_in
          ? [
              `recorded in ${r.recorded_in}: stimkit run holds these trials back until batch import reads their output`,
            ]
          : []),
      ].join('\n'),
      exitCode: EXIT.ok,
    };
  },
};

/** One line per part: its file, requests and bytes. */
const partLines = (parts: ReadonlyArray<{ file: string; requests: number; bytes: number }>) =>
  parts.map((p) => `  ${p.file}: ${p.requests} request(s), ${p.bytes} bytes`);

async function importModel(files: string[], opts: ImportFlags, io: Io): Promise<CommandResult> {
  if (!opts.ledger)
    throw StimkitError.usage(
      'E_BATCH_USAGE',
      'batch import --model records into a ledger: give --ledger FILE',
      'stimkit batch import FILE… --bundle DIR --model NAME --ledger FILE (every part of one export, each once)',
    );
  const { batchImport } = await import('../batch/import.js');
  const r = await batchImport({
    files,
    bundle: String(opts.bundle),
    model: String(opts.model),
    ledger: opts.ledger,
    modelsFile: opts.models,
    requests: opts.requests,
    newRun: opts.newRun,
    partial: Boolean(opts.partial),
  });
  for (const w of r.warnings) io.stderr(`warning: ${w}\n`);
  const human = [
    `${r.files.join(', ')}: ${r.lines} line(s); recorded ${r.recorded} (${fmt(r.outcomes)}); ${r.skipped} already recorded; errors without a result: ${fmt(r.errors)}`,
    r.unknown.length
      ? `  ${r.unknown.length} line(s) name no trial of this bundle that this model runs (its model set, modalities and paradigms): ${r.unknown.slice(0, 5).join(', ')}${r.unknown.length > 5 ? ', …' : ''}`
      : '',
    r.not_sent
      ? `  ${r.not_sent} later conversation turn(s) recorded as not sent: a turn before them ended without an answer`
      : '',
    r.missing.length
      ? `  ${r.missing.length} trial(s) of ${r.model} still without a result: ${r.missing.slice(0, 10).join(', ')}${r.missing.length > 10 ? ', …' : ''}`
      : `  every trial of ${r.model} has a result`,
    r.in_batch
      ? `  ${r.in_batch} of them exported to a batch and not answered in any file imported so far: import the rest of that batch's output, or if it failed or expired, batch export --reexport (or stimkit run --send-exported)`
      : '',
  ]
    .filter(Boolean)
    .join('\n');
  return {
    summary: { ok: r.unknown.length === 0, command: 'batch import', ...r },
    human,
    exitCode: r.unknown.length === 0 ? EXIT.ok : EXIT.rejected,
  };
}

const importCommand: CommandSpec = {
  name: 'import',
  description:
    'record a batch output file into a ledger exactly once, and list the trials still missing; with --judge, a judge’s output files into the judge ledger',
  configure: (cmd) =>
    judgeOptions(
      cmd
        .argument(
          '<output...>',
          'the batch output files (JSONL): every part of one export, in any order, each once',
        )
        .requiredOption('--bundle <dir>', 'the bundle the requests came from')
        .option('--model <name>', 'the model that answered')
        .option(
          '--ledger <file>',
          'the ledger to record into; with --judge, the run ledger of the responses judged',
        )
        .option(
          '--models <file>',
          "models file (records the model's request settings, as run does)",
        )
        .option(
          '--requests <files...>',
          'model mode: the export’s input files (every part); a request changed since the export is named setting by setting',
        )
        .option('--new-run <label>', 'start a new run in the ledger')
        .option(
          '--partial',
          'the output of some parts of an export only (another part’s batch failed or still runs): a missing part is allowed, its trials stay held in their batch file',
        ),
    ),
  run: async ([files], flags, io) => {
    const opts = parseOptions(ImportFlags, flags);
    const list = files as string[];
    const judging = judgeMode(opts, String(opts.bundle), io);
    if (!judging) return importModel(list, opts, io);
    const { judgeBatchImport } = await import('../score/judge-batch.js');
    return judgeResult(
      'batch import',
      await judgeBatchImport({ ...judging, files: list, partial: Boolean(opts.partial) }),
    );
  },
};

export const batchCommand: CommandSpec = {
  name: 'batch',
  description:
    'batch files (OpenAI, Anthropic, Gemini): export requests for a batch API or vllm run-batch, import the results into a ledger; the judges of score too (--judge)',
  configure: (cmd) => cmd,
  subcommands: [exportCommand, importCommand],
};
