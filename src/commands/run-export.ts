/** `stimkit run export --ledger FILE [--format jsonl|csv] [--model NAME,…] [--run LABEL] [--out FILE] [--csv-raw]` */
import { Option } from 'commander';
import { CSV_RAW_FLAG, list } from '../cli/flags.js';
import { EXIT, StimkitError } from '../core/errors.js';
import { writeFileAtomic } from '../core/fsio.js';
import type { CommandSpec } from './index.js';
import { z } from 'zod';
import { flag, parseOptions } from '../cli/options.js';

/** The flags this command reads, as commander parses them. */
const RunExportFlags = z.looseObject({
  format: z.enum(['jsonl', 'csv']),
  model: flag.list,
  run: flag.text,
  out: flag.text,
});

export const runExportCommand: CommandSpec = {
  name: 'export',
  description:
    "write a ledger's results as JSONL or CSV: one row per trial × model with the design fields and the response",
  configure: (cmd) =>
    cmd
      .requiredOption('--ledger <file>', 'the ledger stimkit run wrote')
      .addOption(
        new Option('--format <format>', 'output format').choices(['jsonl', 'csv']).default('jsonl'),
      )
      .addOption(
        new Option('--model <names>', 'only these models (comma-separated)').argParser(list),
      )
      .option('--run <label>', 'the run to export (default: the latest)')
      .option('--out <file>', 'write here (default: stdout)')
      .option(...CSV_RAW_FLAG),
  run: async (_args, flags, io) => {
    const opts = parseOptions(RunExportFlags, flags);
    const format = opts.format;
    const filter = {
      model: opts.model,
      run: opts.run,
    };
    const csv = { csvRaw: Boolean(opts.csvRaw) };
    const out = opts.out;
    if (!out && opts.json)
      throw StimkitError.usage(
        'E_USAGE',
        'with --json, give --out FILE (stdout carries the summary)',
        'add --out FILE for the export, or drop --json to write the export to stdout',
      );
    const { exportLedger } = await import('../run/export.js');
    let rows: number;
    if (out) {
      const parts: string[] = [];
      rows = exportLedger(String(opts.ledger), format, filter, (c) => parts.push(c), csv);
      await writeFileAtomic(out, parts.join(''));
    } else {
      rows = exportLedger(String(opts.ledger), format, filter, io.stdout, csv);
    }
    return {
      summary: {
        ok: true,
        command: 'run export',
        ledger: opts.ledger,
        format,
        rows,
        out: out ?? null,
      },
      human: `exported ${rows} row(s)${out ? ` to ${out}` : ''}`,
      exitCode: EXIT.ok,
    };
  },
};
