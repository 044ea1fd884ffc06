/** `stimkit export inspect --bundle B --ledger L [--scores S] [--run LABEL] --out DIR` */
import { EXIT } from '../core/errors.js';
import { relPosix } from '../core/fsio.js';
import type { CommandSpec } from './index.js';
import { z } from 'zod';
import { flag, parseOptions } from '../cli/options.js';

/** The flags this command reads, as commander parses them. */
const ExportFlags = z.looseObject({
  scores: flag.text,
  run: flag.text,
});

const inspectCommand: CommandSpec = {
  name: 'inspect',
  description:
    'Inspect eval logs (.eval, log format version 2): one per study × paradigm × model, a trial a sample',
  configure: (cmd) =>
    cmd
      .requiredOption('--bundle <dir>', 'the sealed bundle the ledger ran')
      .requiredOption('--ledger <file>', 'the run ledger (stimkit run)')
      .option(
        '--scores <dir>',
        'a scores folder of that run (stimkit score --out): instrument labels and audit dimensions as scores',
      )
      .option('--run <label>', 'the ledger run to export (default: the latest)')
      .requiredOption('--out <dir>', 'output folder (the .eval files and export.json)'),
  run: async (_args, flags) => {
    const opts = parseOptions(ExportFlags, flags);
    const { exportInspect } = await import('../export/inspect.js');
    const r = await exportInspect({
      bundle: String(opts.bundle),
      ledger: String(opts.ledger),
      scores: opts.scores,
      run: opts.run,
      out: String(opts.out),
    });
    const out = relPosix(process.cwd(), r.out);
    const human = [
      `export inspect: ${r.files.length} log(s), ${r.samples} sample(s) of run "${r.run}" into ${out}`,
      ...r.files.map((f) => `  ${f.file}: ${f.samples} sample(s)`),
    ].join('\n');
    return {
      summary: {
        ok: true,
        command: 'export inspect',
        out,
        bundle: r.digest,
        run: r.run,
        samples: r.samples,
        files: r.files,
      },
      human,
      exitCode: EXIT.ok,
    };
  },
};

export const exportCommand: CommandSpec = {
  name: 'export',
  description: 'results in other tools’ formats: `export inspect` (Inspect eval logs)',
  configure: (cmd) => cmd,
  subcommands: [inspectCommand],
};
