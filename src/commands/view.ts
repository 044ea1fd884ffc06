/** `stimkit view <bundle> [--scores DIR] [--port N] [--host H]` */
import { Option } from 'commander';
import { nonNegativeInt } from '../cli/flags.js';
import { EXIT } from '../core/errors.js';
import { serveView } from '../view/serve.js';
import { startupLine } from '../view/shell.js';
import { announceListening, untilStopped } from './serving.js';
import type { CommandSpec } from './index.js';

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
  run: async ([bundle], opts, io) => {
    const server = await serveView({
      bundle: String(bundle),
      scores: opts.scores as string | undefined,
      ledger: opts.ledger as string | undefined,
      port: opts.port as number,
      host: opts.host as string | undefined,
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
