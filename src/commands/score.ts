/** `stimkit score --bundle B (--ledger FILE | --responses FILE.jsonl) [--models FILE] [--judge NAME]… [--rubric FILE] --out DIR` */
import { Option } from 'commander';
import { CSV_RAW_FLAG } from '../cli/flags.js';
import { EXIT, StimkitError } from '../core/errors.js';
import { partsOf, withPartOptions } from './batch.js';
import type { CommandSpec } from './index.js';
import { z } from 'zod';
import { flag, parseOptions } from '../cli/options.js';

/** The flags this command reads, as commander parses them. */
const ScoreFlags = z.looseObject({
  bundle: z.string(),
  out: z.string(),
  responses: flag.text,
  ledger: flag.text,
  run: flag.text,
  models: flag.text,
  judge: flag.list,
  judgeLedger: flag.text,
  judgeBatchOut: flag.text,
  judgeBatchIn: flag.text,
  rubric: flag.text,
  partRequests: flag.int,
  partMib: flag.int,
  reexport: flag.on,
  sendExported: flag.on,
});

export const scoreCommand: CommandSpec = {
  name: 'score',
  description:
    'score every response to a bundle (forced choice + polarity keying for the instrument) into scores.jsonl and CSV tables',
  configure: (cmd) =>
    withPartOptions(cmd)
      .requiredOption('--bundle <dir>', 'the sealed bundle the responses answer')
      .addOption(
        new Option(
          '--responses <file>',
          'JSONL of {trial_id, model, response}, or stimkit run export JSONL (responses produced elsewhere)',
        ).conflicts('ledger'),
      )
      .addOption(new Option('--ledger <file>', 'a run ledger (stimkit run)').conflicts('responses'))
      .option('--run <label>', 'with --ledger: the run to score (default: the latest)')
      .option(
        '--models <file>',
        'models file: origin, vendor and simulated flag of each model, and the judges',
      )
      .option(
        '--judge <name>',
        'a judge (role: judge in --models) for the VLM paradigms and free-text instrument answers; repeat for several, the first is primary',
        (v: string, prev: string[] = []) => [...prev, v],
      )
      .option(
        '--rubric <file>',
        'audit rubric overriding the one sealed in the bundle (recorded with its digest)',
      )
      .option(
        '--judge-ledger <file>',
        'ledger of judge calls (default: beside the run ledger, .judges.sqlite)',
      )
      .option(
        '--judge-batch-out <dir>',
        "send no judge calls: write each judge's pending requests as batch input files here, in parts within the OpenAI Batch limits or --part-requests/--part-mib (as batch export --judge)",
      )
      .option(
        '--judge-batch-in <dir>',
        "send no judge calls: record each judge's batch results found here (<judge>.<rubric|instrument>.results.jsonl, or every part of it: ….results.part-0001-of-0003.jsonl) into the judge ledger (as batch import --judge)",
      )
      .option(
        '--reexport',
        'with --judge-batch-out: write again the responses an earlier judge batch export holds whose results are not imported (its batch failed, expired or was never sent)',
      )
      .option(
        '--send-exported',
        'judge calls: also ask about the responses a judge batch export holds whose results are not imported (paid again if that batch runs)',
      )
      .requiredOption(
        '--out <dir>',
        'folder for score.json, scores.jsonl, trials.csv, instrument.csv (replaced whole when complete)',
      )
      .option(...CSV_RAW_FLAG),
  run: async (_args, flags, io) => {
    const opts = parseOptions(ScoreFlags, flags);
    const responses = opts.responses;
    const ledger = opts.ledger;
    if (!responses && !ledger)
      throw StimkitError.usage(
        'E_SCORE_USAGE',
        'give the responses: --ledger FILE or --responses FILE.jsonl',
        'add --ledger FILE (from `stimkit run`) or --responses FILE.jsonl',
      );
    const parts = partsOf(opts);
    if ((parts.partRequests ?? parts.partMib) !== undefined && !opts.judgeBatchOut)
      throw StimkitError.usage(
        'E_SCORE_USAGE',
        '--part-requests and --part-mib set the parts of the judges’ batch files: they go with --judge-batch-out DIR',
        'add --judge-batch-out DIR, or leave the part options out',
      );
    if (opts.reexport && !opts.judgeBatchOut)
      throw StimkitError.usage(
        'E_SCORE_USAGE',
        '--reexport writes the judges’ batch files again: it goes with --judge-batch-out DIR',
        'add --judge-batch-out DIR, or leave --reexport out',
      );
    if (opts.sendExported && (opts.judgeBatchOut || opts.judgeBatchIn))
      throw StimkitError.usage(
        'E_SCORE_USAGE',
        '--send-exported is for judge calls: with --judge-batch-out or --judge-batch-in nothing is sent',
        'leave --send-exported out, or the batch options',
      );
    const source = ledger
      ? { kind: 'ledger' as const, file: ledger, run: opts.run }
      : { kind: 'responses' as const, file: responses! };
    const judging = {
      bundle: String(opts.bundle),
      source,
      models: opts.models,
      judges: opts.judge,
      judgeLedger: opts.judgeLedger,
      judgeBatch:
        opts.judgeBatchOut || opts.judgeBatchIn
          ? {
              out: opts.judgeBatchOut,
              parts,
              in: opts.judgeBatchIn ? [opts.judgeBatchIn] : undefined,
              reexport: Boolean(opts.reexport),
            }
          : opts.sendExported
            ? { sendExported: true }
            : undefined,
      log: (l: string) => io.stderr(`${l}\n`),
    };
    // The score stage loads when scoring starts: `score --help` and a usage error never need it.
    const [
      { defaultJudgeLedger, prepareAudit },
      { prepareInstrumentJudge },
      { SCORERS },
      { scoreToFolder },
      { scoreHuman, scoreJson },
    ] = await Promise.all([
      import('../score/audit-prepare.js'),
      import('../score/instrument-judge.js'),
      import('../score/registry.js'),
      import('../score/score.js'),
      import('../score/summary.js'),
    ]);
    const audit = await prepareAudit({ ...judging, rubric: opts.rubric });
    const instrument = await prepareInstrumentJudge(judging);
    const result = await scoreToFolder({
      bundle: String(opts.bundle),
      source,
      models: opts.models,
      out: String(opts.out),
      // cost.csv includes the judges' calls of this scoring (score/cost.ts).
      judgeLedger: opts.judge ? (opts.judgeLedger ?? defaultJudgeLedger(source)) : undefined,
      csvRaw: Boolean(opts.csvRaw),
      scorers: [
        ...SCORERS.map((s) => (s.name === instrument.scorer.name ? instrument.scorer : s)),
        audit.scorer,
      ],
    });
    return { summary: scoreJson(result), human: scoreHuman(result), exitCode: EXIT.ok };
  },
};
