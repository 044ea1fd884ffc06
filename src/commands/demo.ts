/** `stimkit demo [--out DIR] [--jobs N]` */
import path from 'node:path';
import { Option } from 'commander';
import { positiveInt } from '../cli/flags.js';
import { EXIT } from '../core/errors.js';
import { relPosix } from '../core/fsio.js';
import type { CommandSpec } from './index.js';
import { z } from 'zod';
import { flag, parseOptions } from '../cli/options.js';

/** The flags this command reads, as commander parses them. */
const DemoFlags = z.looseObject({
  out: z.string(),
  jobs: flag.int,
});

export const demoCommand: CommandSpec = {
  name: 'demo',
  description:
    'run the pipeline on the shipped demo corpus, offline: ingest, variants, bundle, verify, run (simulated respondents)',
  configure: (cmd) =>
    cmd
      .option('--out <dir>', 'output folder', 'stimkit-demo')
      .addOption(
        new Option('--jobs <n>', 'parallel work (default: number of cores)').argParser(positiveInt),
      ),
  run: async (_args, flags, io) => {
    const opts = parseOptions(DemoFlags, flags);
    const out = path.resolve(String(opts.out));
    const { runDemo } = await import('../demo/demo.js');
    const result = await runDemo(out, {
      jobs: opts.jobs,
      log: (line) => io.stderr(`stimkit demo: ${line}\n`),
    });
    const where = relPosix(process.cwd(), out);
    const human = [
      ...result.steps.map((s) => `== ${s.step} ==\n${s.human.trimEnd()}`),
      result.ok
        ? `demo finished: wrote ${result.outputs.join(', ')} in ${where}/; open ${where}/${result.open} first\nbundle digest: ${result.digest}`
        : 'demo stopped at a failing step (see above)',
    ].join('\n');
    return {
      summary: {
        ok: result.ok,
        command: 'demo',
        out: where,
        digest: result.digest,
        silhouette: result.silhouette,
        outputs: result.outputs,
        open: result.open,
        steps: result.steps.map(({ step, ok, summary }) => ({ step, ok, summary })),
      },
      human,
      exitCode: result.ok ? EXIT.ok : EXIT.rejected,
    };
  },
};
