/** `stimkit ingest <entries.yaml> [--images DIR] [--out DIR] [--strict] [--allow-missing]` */
import { Option } from 'commander';
import { EXIT } from '../core/errors.js';
import { nonNegativeInt, positiveInt } from '../cli/flags.js';
import { DEFAULT_NEAR_DUPLICATE_THRESHOLD, DEFAULT_PIXEL_LIMIT, ingest } from '../ingest/ingest.js';
import { ingestHuman, ingestJson } from '../ingest/summary.js';
import type { CommandSpec } from './index.js';
import { z } from 'zod';
import { flag, parseOptions } from '../cli/options.js';

/** The flags this command reads, as commander parses them. */
const IngestFlags = z.looseObject({
  images: flag.text,
  out: flag.text,
  pixelLimit: z.number().int(),
  nearDuplicateThreshold: z.number().int(),
  jobs: flag.int,
});

export const ingestCommand: CommandSpec = {
  name: 'ingest',
  description: 'validate an entries manifest and its images, and write the corpus lock',
  configure: (cmd) =>
    cmd
      .argument('<entries>', 'entries manifest (YAML or JSON)')
      .option(
        '--images <dir>',
        "images root (default: the manifest's `images` field, relative to the manifest)",
      )
      .option(
        '--out <dir>',
        "folder for the corpus lock, written as DIR/corpus.lock.json (default: the manifest's folder, as <name>.corpus.lock.json)",
      )
      .option('--strict', 'treat warnings (missing licence or credit, near-duplicates) as errors')
      .option(
        '--allow-missing',
        'list entries whose image is not supplied yet as missing instead of failing',
      )
      .option('--allow-duplicates', 'allow the same image bytes under several ids')
      .addOption(
        new Option(
          '--pixel-limit <pixels>',
          'maximum decoded pixels per image (decompression-bomb guard)',
        )
          .argParser(positiveInt)
          .default(DEFAULT_PIXEL_LIMIT),
      )
      .addOption(
        new Option(
          '--near-duplicate-threshold <bits>',
          'perceptual-hash Hamming distance reported as a near-duplicate',
        )
          .argParser(nonNegativeInt)
          .default(DEFAULT_NEAR_DUPLICATE_THRESHOLD),
      )
      .addOption(
        new Option('--jobs <n>', 'parallel decodes (default: number of cores)').argParser(
          positiveInt,
        ),
      ),
  run: async ([entries], flags) => {
    const opts = parseOptions(IngestFlags, flags);
    const result = await ingest(String(entries), {
      images: opts.images,
      out: opts.out,
      strict: Boolean(opts.strict),
      allowMissing: Boolean(opts.allowMissing),
      allowDuplicates: Boolean(opts.allowDuplicates),
      pixelLimit: opts.pixelLimit,
      nearDuplicateThreshold: opts.nearDuplicateThreshold,
      jobs: opts.jobs,
    });
    return {
      summary: ingestJson(result),
      human: ingestHuman(result),
      exitCode: result.errors > 0 ? EXIT.rejected : EXIT.ok,
    };
  },
};
