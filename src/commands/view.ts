/** `stimkit view <bundle> [--scores DIR] [--port N] [--host H]` */
import { Option } from 'commander';
import { nonNegativeInt } from '../cli/flags.js';
import { EXIT } from '../core/errors.js';
import { announceListening, untilStopped } from './serving.js';
import type { CommandSpec } from './index.js';
import { z } from 'zod';
import { flag, parseOptions } from '../cli/options.js';

/** The flags this command reads, as commander parses them. */
const ViewFlags = z.looseObject({
  scores: flag.text,
  ledger: flag.text,
  port: z.number().int(),
  host: flag.text,
});

export const viewCommand: CommandSpec = {
  name: 'view',
  description:
    "a read-only browser of a bundle's entries, variant ladders and trials, and of responses with their labels (--scores)",
  configure: (cmd) =>
    cmd
      .argument('<bundle>', 'bundle folder')
      .option(
        '--scores <path>',
        'scores folder (stimkit score --out) or file (JSONL or CSV rows with trial_id or trial, and model)',
      )
      .option(
        '--ledger <file>',
        'with --scores: the run ledger holding the response text (default: the one score.json names)',
      )
      .addOption(
        new Option('--port <n>', 'port (0 picks a free one)')
          .argParser(nonNegativeInt)
          .default(8766),
      )
      .option('--host <host>', 'interface to listen on (default 127.0.0.1, this machine only)'),
  run: async ([bundle], flags, io) => {
    const opts = parseOptions(ViewFlags, flags);
    const [{ serveView }, { startupLine }] = await Promise.all([
      import('../view/serve.js'),
      import('../view/shell.js'),
    ]);
    const server = await serveView({
      bundle: String(bundle),
      scores: opts.scores,
      ledger: opts.ledger,
      port: opts.port,
      host: opts.host,
    });
    const d = server.data;
    io.stderr(
      `${startupLine(d)}\n` +
        `  open this address in a browser on this machine (Ctrl-C stops the server):\n  ${server.running.url}\n`,
    );
    announceListening(io, Boolean(opts.json), 'view', server.running, {
      entries: d.bundle.entries.size,
      trials: d.bundle.trials.length,
      responses: d.scores ? d.scores.length : null,
      with_text: d.scores ? (d.withText ?? 0) : null,
    });
    await untilStopped();
    await server.close();
    return {
      summary: { ok: true, command: 'view', event: 'stopped' },
      human: 'stimkit view: stopped',
      exitCode: EXIT.ok,
    };
  },
};
