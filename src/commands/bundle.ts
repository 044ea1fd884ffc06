/** `stimkit bundle <study.yaml> --out DIR [--dry-run] [--work DIR] [--jobs N]` */
import { Option } from 'commander';
import { positiveInt } from '../cli/flags.js';
import { processIo } from '../cli/output.js';
import { createProgress } from '../variants/progress.js';
import { EXIT, StimkitError } from '../core/errors.js';
import type { CommandSpec } from './index.js';
import { z } from 'zod';
import { flag, parseOptions } from '../cli/options.js';

/** The flags this command reads, as commander parses them. */
const BundleFlags = z.looseObject({
  out: flag.text,
  work: flag.text,
  jobs: flag.int,
});

export const bundleCommand: CommandSpec = {
  name: 'bundle',
  description:
    'expand a study into its full trial plan and seal it as a BagIt bag; prints the digest',
  configure: (cmd) =>
    cmd
      .argument('<study>', 'study design (YAML or JSON)')
      .option('--out <dir>', 'bag folder to write: new, empty, or a bag stimkit wrote (replaced)')
      .option('--dry-run', 'print the counts by paradigm × language without writing anything')
      .option(
        '--work <dir>',
        "folder for corpus and variants locks that must be (re)made (default: the study's own paths)",
      )
      .addOption(
        new Option('--jobs <n>', 'parallel jobs for ingest and hashing').argParser(positiveInt),
      )
      .option(
        '--strict',
        'refuse to seal a plan that shows variants with quality warnings (e.g. an empty silhouette)',
      ),
  run: async ([study], flags, io) => {
    const opts = parseOptions(BundleFlags, flags);
    if (!opts.dryRun && !opts.out)
      throw StimkitError.usage(
        'E_USAGE',
        'bundle needs --out DIR (or --dry-run)',
        'add --out DIR for the sealed bundle, or --dry-run to only check the plan',
      );
    const [{ bundleStudy }, { bundleHuman, bundleJson }] = await Promise.all([
      import('../bundle/bundle.js'),
      import('../bundle/summary.js'),
    ]);
    const result = await bundleStudy(String(study), {
      out: opts.out,
      dryRun: Boolean(opts.dryRun),
      work: opts.work,
      jobs: opts.jobs,
      progress: createProgress(
        'variants',
        io.stderr,
        io === processIo ? process.stderr : undefined,
      ),
      log: (line) => io.stderr(`${line}\n`),
      strict: Boolean(opts.strict),
    });
    return { summary: bundleJson(result), human: bundleHuman(result), exitCode: EXIT.ok };
  },
};
