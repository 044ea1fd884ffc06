/** `stimkit variants <entries.yaml or corpus lock> [--only LIST] [--recipe FILE] [--out DIR] [--jobs N] [--shard I/N]` */
import { InvalidArgumentError, Option } from 'commander';
import { EXIT } from '../core/errors.js';
import { list, positiveInt } from '../cli/flags.js';
import { processIo } from '../cli/output.js';
import { Role } from '../ingest/schema.js';
import { prestartPool } from '../variants/pool/pool.js';
import { RECIPE_FLAGS, type RecipeOverrides } from '../variants/recipe.js';
import type { CommandSpec } from './index.js';
import { z } from 'zod';
import { flag, parseOptions } from '../cli/options.js';

function roles(value: string): Role[] {
  const items = list(value);
  const parsed = z.array(Role).safeParse(items);
  if (!parsed.success)
    throw new InvalidArgumentError(
      `Expected roles among ${Role.options.join(', ')} but received "${items.filter((r) => !Role.safeParse(r).success).join(',')}".`,
    );
  return parsed.data;
}

/** Numbers stay numbers; anything else goes to the recipe check as given (and is rejected there, exit 1). */
function recipeValue(value: string): string | number {
  return value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
}

const RECIPE_FLAG_HELP: Record<keyof typeof RECIPE_FLAGS, string> = {
  maxSide: 'A0: long side above which images are downscaled (default 1024)',
  cropFraction: 'A1: fraction of each side kept, in (0, 1] (default 0.6)',
  binaryThreshold: 'A4: otsu, or a fixed threshold 0-255 (default otsu)',
  lowpassFilter: 'A5: gaussian or ideal (default gaussian)',
  cutoff: 'A5: cutoff in cycles per pixel, in (0, 1] (default 0.05)',
  lowpassChannels: 'A5: grey (filter A2) or rgb (each channel of A0) (default grey)',
  silhouette: 'A6: isnet (network) or grabcut (classical fallback) (default isnet)',
  metrics:
    'full (every metric) or basic (only those made with the variant: no SSIM, edge or FFT passes) (default full)',
};

/** The recipe flags (`--cutoff 0.1`): a number where the value reads as one (recipeValue). */
const RecipeFlags = z.looseObject(
  Object.fromEntries(
    Object.keys(RECIPE_FLAGS).map((k) => [k, z.union([z.string(), z.number()]).optional()]),
  ),
);

/** The flags this command reads, as commander parses them. */
const VariantsFlags = z.looseObject({
  shard: flag.text,
  out: flag.text,
  only: flag.list,
  recipe: flag.text,
  jobs: flag.int,
  roles: z.array(Role).optional(),
});

export const variantsCommand: CommandSpec = {
  name: 'variants',
  description: 'produce the abstraction ladder A0-A6, the variants lock and a contact sheet',
  configure: (cmd) => {
    cmd
      .argument('<input>', 'entries manifest (ingested first) or corpus lock (corpus.lock.json)')
      .option('--only <codes>', 'variants to produce, e.g. A3,A5 (default: A0-A6)', list)
      .option('--recipe <file>', 'recipe file (YAML/JSON) overriding the defaults of VARIANTS.md')
      .option('--out <dir>', 'output folder (default: variants/<corpus>)')
      .addOption(
        new Option('--jobs <n>', 'entries processed at once (default: number of cores)').argParser(
          positiveInt,
        ),
      )
      .option(
        '--shard <I/N>',
        'process only share I of N of the entries (writes variants.shard-I-of-N.lock.json)',
      )
      .addOption(
        new Option(
          '--roles <roles>',
          'only entries with one of these roles, e.g. abstraction (default: all)',
        ).argParser(roles),
      )
      .option('--no-contact-sheet', 'do not write the contact sheet')
      .option(
        '--review',
        'also write review.png: only the entries with quality warnings, beside their A0',
      )
      .option(
        '--strict',
        'treat quality warnings (empty silhouette, edges everywhere, ...) as errors: exit 1',
      );
    for (const [key, spec] of Object.entries(RECIPE_FLAGS)) {
      const placeholder = spec.flag.replace(/^--/, '').split('-').pop()!;
      cmd.addOption(
        new Option(
          `${spec.flag} <${placeholder}>`,
          RECIPE_FLAG_HELP[key as keyof typeof RECIPE_FLAGS],
        ).argParser(recipeValue),
      );
    }
  },
  run: async ([input], flags, io) => {
    const opts = parseOptions(VariantsFlags, flags);
    const recipe = parseOptions(RecipeFlags, flags);
    const overrides: RecipeOverrides = {};
    for (const key of Object.keys(RECIPE_FLAGS) as Array<keyof typeof RECIPE_FLAGS>) {
      const value = recipe[key];
      if (value !== undefined) overrides[key] = value;
    }
    // The workers start loading now, while this thread loads the stage (a fresh process spends
    // about half a second there); runVariants closes them, used or not.
    const pool = prestartPool(opts.jobs, opts.only);
    let result;
    try {
      const [{ parseShard }, { createProgress }, { runVariants }] = await Promise.all([
        import('../variants/input.js'),
        import('../variants/progress.js'),
        import('../variants/run.js'),
      ]);
      const shard = opts.shard === undefined ? undefined : parseShard(opts.shard);
      const progress = createProgress(
        'variants',
        io.stderr,
        io === processIo ? process.stderr : undefined,
      );
      result = await runVariants(String(input), {
        out: opts.out,
        only: opts.only,
        recipeFile: opts.recipe,
        overrides,
        jobs: opts.jobs,
        shard,
        roles: opts.roles,
        contactSheet: opts.contactSheet !== false,
        review: Boolean(opts.review),
        progress,
        pool,
      });
    } finally {
      await pool?.close();
    }
    const { variantsHuman, variantsJson } = await import('../variants/summary.js');
    const strict = Boolean(opts.strict);
    const warned = result.lock.quality?.warnings ?? 0;
    return {
      summary: variantsJson(result, { strict }),
      human: variantsHuman(result, { strict }),
      exitCode: result.failed > 0 || (strict && warned > 0) ? EXIT.rejected : EXIT.ok,
    };
  },
};
