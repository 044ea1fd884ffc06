/**
 * `stimkit run <bundle> --models FILE [--model NAME,…] [--where EXPR] [--limit N] [--ledger FILE]
 * [--concurrency N] [--max-attempts N] [--retry-failed] [--dry-run] [--budget USD] [--new-run LABEL]`, or one
 * model: `--model NAME --endpoint URL [--api-model ID] [--api-key-env VAR]`. Subcommand: `run export`.
 */
import { Option } from 'commander';
import { z } from 'zod';
import { list, positiveInt, usdAmount } from '../cli/flags.js';
import { flag, parseOptions } from '../cli/options.js';
import { EXIT } from '../core/errors.js';
import type { CommandSpec } from './index.js';
import { runExportCommand } from './run-export.js';

/** Exit code of a run stopped with Ctrl-C (128 + SIGINT). */
export const EXIT_INTERRUPTED = 130;

/** The flags of `stimkit run`, as commander parses them. */
const RunFlags = z.object({
  models: flag.text,
  model: flag.list,
  endpoint: flag.text,
  apiModel: flag.text,
  apiKeyEnv: flag.text,
  where: flag.text,
  limit: flag.int,
  ledger: flag.text,
  concurrency: flag.int,
  maxAttempts: z.number().int(),
  retryFailed: flag.on,
  sendExported: flag.on,
  dryRun: flag.on,
  budget: flag.number,
  newRun: flag.text,
  json: flag.on,
});

export const runCommand: CommandSpec = {
  name: 'run',
  description:
    "send a sealed bundle's trials to models (OpenAI-compatible, Anthropic, Gemini or simulated) into a resumable SQLite ledger",
  configure: (cmd) =>
    cmd
      .argument('<bundle>', 'bundle folder (verified first)')
      .option('--models <file>', 'models file (stimkit.models)')
      .addOption(
        new Option(
          '--model <names>',
          "only these models (comma-separated); with --endpoint, the one model's name",
        ).argParser(list),
      )
      .option(
        '--endpoint <url>',
        'one-model shorthand: the base URL (…/v1) of an OpenAI-compatible server',
      )
      .option('--api-model <id>', 'one-model shorthand: the served model id (default: --model)')
      .option(
        '--api-key-env <var>',
        'one-model shorthand: the environment variable holding the API key',
      )
      .option(
        '--where <expr>',
        'only trials whose fields match, e.g. paradigm=describe,lang=zh or variant=A3|A4',
      )
      .addOption(new Option('--limit <n>', 'at most N trials per model').argParser(positiveInt))
      .option('--ledger <file>', 'the ledger (default: <bundle>.ledger.sqlite beside the bundle)')
      .addOption(
        new Option(
          '--concurrency <n>',
          'requests in flight per model (overrides the models file)',
        ).argParser(positiveInt),
      )
      .addOption(
        new Option('--max-attempts <n>', 'attempts per trial before it is recorded as failed')
          .argParser(positiveInt)
          .default(8),
      )
      .option('--retry-failed', 'also send trials recorded as failed')
      .option(
        '--send-exported',
        'also send the trials a batch export to this ledger holds whose output is not imported (a batch that failed or was never sent): paid again if that batch runs',
      )
      .option(
        '--dry-run',
        'send nothing: counts per model and block, image sizes, estimated tokens and cost, one example request',
      )
      .addOption(
        new Option(
          '--budget <usd>',
          "refuse to start when the run's upper cost estimate exceeds USD; stop sending once the recorded cost reaches it",
        ).argParser(usdAmount),
      )
      .option(
        '--new-run <label>',
        'start a new run in the ledger (another bundle, or changed requests)',
      ),
  subcommands: [runExportCommand],
  run: async ([bundle], flags, io) => {
    const opts = parseOptions(RunFlags, flags);
    // The run stage loads when a run starts: `run --help` and a usage error never need it.
    const [{ runStudy }, { dryRunHuman, runHuman, runJson }] = await Promise.all([
      import('../run/run.js'),
      import('../run/summary.js'),
    ]);
    const result = await runStudy({
      bundle: String(bundle),
      modelsFile: opts.models,
      modelNames: opts.model,
      endpoint: opts.endpoint,
      apiModel: opts.apiModel,
      apiKeyEnv: opts.apiKeyEnv,
      where: opts.where,
      limit: opts.limit,
      ledger: opts.ledger,
      concurrency: opts.concurrency,
      maxAttempts: opts.maxAttempts,
      retryFailed: Boolean(opts.retryFailed),
      sendExported: Boolean(opts.sendExported),
      dryRun: Boolean(opts.dryRun),
      newRun: opts.newRun,
      budget: opts.budget,
      handleSigint: true,
      progress: { write: io.stderr, tty: Boolean(process.stderr.isTTY) && !opts.json },
    });
    if ('dryRun' in result)
      return {
        summary: { ok: true, command: 'run', ...result },
        human: dryRunHuman(result),
        exitCode: EXIT.ok,
      };
    const summary = runJson(result);
    const exitCode = result.interrupted ? EXIT_INTERRUPTED : summary.ok ? EXIT.ok : EXIT.rejected;
    return { summary, human: runHuman(result), exitCode };
  },
};
