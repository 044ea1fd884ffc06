/** `stimkit review <entries.yaml | corpus lock | bundle> --out DIR [--variants LOCK]` */
import { Option } from 'commander';
import { CSV_RAW_FLAG, positiveInt } from '../cli/flags.js';
import { EXIT } from '../core/errors.js';
import path from 'node:path';
import type { CommandSpec } from './index.js';
import { z } from 'zod';
import { flag, parseOptions } from '../cli/options.js';

/** The flags this command reads, as commander parses them. */
const ReviewFlags = z.looseObject({
  variants: flag.text,
  thumb: z.number().int(),
});

export const reviewCommand: CommandSpec = {
  name: 'review',
  description:
    'a self-contained HTML page (and a CSV) of a corpus: images, facts in every language, provenance, warnings, the A0-A6 ladder',
  configure: (cmd) =>
    cmd
      .argument('<input>', 'entries manifest, corpus lock, or bundle folder')
      .requiredOption('--out <dir>', 'folder for index.html, entries.csv and review.json')
      .option('--variants <lock>', 'variants lock whose A0-A6 images (and warnings) to show')
      .addOption(
        new Option('--thumb <pixels>', 'thumbnail size').argParser(positiveInt).default(320),
      )
      .option(...CSV_RAW_FLAG),
  run: async ([input], flags) => {
    const opts = parseOptions(ReviewFlags, flags);
    const { reviewCorpus } = await import('../review/index.js');
    const r = await reviewCorpus(String(input), {
      out: String(opts.out),
      variants: opts.variants,
      thumb: opts.thumb,
      csvRaw: Boolean(opts.csvRaw),
    });
    const warned = r.data.entries.filter((e) => e.warnings.length > 0).length;
    const missing = r.data.entries.filter((e) => !e.image).length;
    return {
      summary: {
        ok: true,
        command: 'review',
        input: String(input),
        html: path.join(String(opts.out), 'index.html'),
        csv: path.join(String(opts.out), 'entries.csv'),
        entries: r.data.entries.length,
        with_warnings: warned,
        without_image: missing,
        html_bytes: r.htmlBytes,
      },
      human: `review of ${r.data.kind} "${r.data.corpus}": ${r.data.entries.length} entries (${warned} with warnings, ${missing} without an image)\nwrote ${path.join(String(opts.out), 'index.html')} (${Math.round(r.htmlBytes / 1024)} KiB) and ${path.join(String(opts.out), 'entries.csv')}`,
      exitCode: EXIT.ok,
    };
  },
};
