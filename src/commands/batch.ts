/**
 * `stimkit batch export <bundle> --models FILE --model NAME --out in.jsonl [--where EXPR] [--limit N]`
 * `stimkit batch import <out.jsonl> --bundle B --model NAME --ledger FILE [--models FILE] [--new-run LABEL]`
 */
import { Option } from 'commander';
import { list, positiveInt } from '../cli/flags.js';
import { EXIT } from '../core/errors.js';
import { batchExport } from '../batch/export.js';
import { batchImport } from '../batch/import.js';
import type { CommandSpec } from './index.js';

const fmt = (rec: Record<string, number>) =>
  Object.entries(rec)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ') || 'none';

const exportCommand: CommandSpec = {
  name: 'export',
  description:
    "write one model's requests as a batch input file in its provider's format (OpenAI Batch, Anthropic Message Batches, Gemini batch JSONL)",
  configure: (cmd) =>
    cmd
      .argument('<bundle>', 'bundle folder (verified first)')
      .requiredOption('--models <file>', 'models file')
      .addOption(
        new Option('--model <name>', 'the one model of this file')
          .argParser(list)
          .makeOptionMandatory(),
      )
      .requiredOption('--out <file>', 'the batch input file to write (JSONL)')
      .option('--where <expr>', 'only trials whose fields match, e.g. paradigm=describe,lang=zh')
      .addOption(new Option('--limit <n>', 'at most N requests').argParser(positiveInt)),
  run: async ([bundle], opts) => {
    const r = await batchExport({
      bundle: String(bundle),
      modelsFile: opts.models as string,
      modelNames: opts.model as string[],
      out: String(opts.out),
      where: opts.where as string | undefined,
      limit: opts.limit as number | undefined,
    });
    return {
      summary: { ok: true, command: 'batch export', ...r },
      human: `wrote ${r.requests} request(s) for ${r.model} to ${r.out}${r.dropped.length ? ` (dropped from requests: ${r.dropped.join(', ')})` : ''}`,
      exitCode: EXIT.ok,
    };
  },
};

const importCommand: CommandSpec = {
  name: 'import',
  description:
    'record a batch output file into a ledger exactly once, and list the trials still missing',
  configure: (cmd) =>
    cmd
      .argument('<output>', 'the batch output file (JSONL)')
      .requiredOption('--bundle <dir>', 'the bundle the requests came from')
      .requiredOption('--model <name>', 'the model that answered')
      .requiredOption('--ledger <file>', 'the ledger to record into')
      .option('--models <file>', "models file (records the model's request settings, as run does)")
      .option('--new-run <label>', 'start a new run in the ledger'),
  run: async ([file], opts) => {
    const r = await batchImport({
      file: String(file),
      bundle: String(opts.bundle),
      model: String(opts.model),
      ledger: String(opts.ledger),
      modelsFile: opts.models as string | undefined,
      newRun: opts.newRun as string | undefined,
    });
    const human = [
      `${r.file}: ${r.lines} line(s); recorded ${r.recorded} (${fmt(r.outcomes)}); ${r.skipped} already recorded; errors without a result: ${fmt(r.errors)}`,
      r.unknown.length
        ? `  ${r.unknown.length} line(s) name no trial of this bundle: ${r.unknown.slice(0, 5).join(', ')}${r.unknown.length > 5 ? ', …' : ''}`
        : '',
      r.missing.length
        ? `  ${r.missing.length} trial(s) of ${r.model} still without a result: ${r.missing.slice(0, 10).join(', ')}${r.missing.length > 10 ? ', …' : ''}`
        : `  every trial of ${r.model} has a result`,
    ]
      .filter(Boolean)
      .join('\n');
    return {
      summary: { ok: r.unknown.length === 0, command: 'batch import', ...r },
      human,
      exitCode: r.unknown.length === 0 ? EXIT.ok : EXIT.rejected,
    };
  },
};

export const batchCommand: CommandSpec = {
  name: 'batch',
  description:
    'batch files (OpenAI, Anthropic, Gemini): export requests for a batch API or vllm run-batch, import the results into a ledger',
  configure: (cmd) => cmd,
  subcommands: [exportCommand, importCommand],
};
