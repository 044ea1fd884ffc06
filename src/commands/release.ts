/** `stimkit release --bundle B --ledger L --scores S [--labels DIR] [--meta FILE] --out DIR` */
import { EXIT } from '../core/errors.js';
import { relPosix } from '../core/fsio.js';
import type { CommandSpec } from './index.js';
import { z } from 'zod';
import { flag, parseOptions } from '../cli/options.js';

/** The flags this command reads, as commander parses them. */
const ReleaseFlags = z.looseObject({
  bundle: z.string(),
  ledger: z.string(),
  scores: z.string(),
  labels: flag.text,
  meta: flag.text,
  out: z.string(),
});

export const releaseCommand: CommandSpec = {
  name: 'release',
  description:
    'a dataset release: Croissant 1.1 + RAI, a Hugging Face dataset card, Parquet and CSV; ships only the images their licences allow',
  configure: (cmd) =>
    cmd
      .requiredOption('--bundle <dir>', 'the sealed bundle')
      .requiredOption('--ledger <file>', 'the run ledger the scores were made from')
      .requiredOption('--scores <dir>', 'the scores folder (stimkit score --out)')
      .option('--labels <dir>', 'a folder with human labels (labels.csv of stimkit label export)')
      .option(
        '--meta <file>',
        'release.yaml: what only you can write (default: release.yaml beside --out; a template is written when missing)',
      )
      .requiredOption('--out <dir>', 'the release folder'),
  run: async (_args, flags) => {
    const opts = parseOptions(ReleaseFlags, flags);
    const { buildRelease } = await import('../release/index.js');
    const r = await buildRelease({
      bundle: opts.bundle,
      ledger: opts.ledger,
      scores: opts.scores,
      labels: opts.labels,
      meta: opts.meta,
      out: opts.out,
    });
    const out = relPosix(process.cwd(), r.out);
    const c = r.header.counts;
    const withheld = r.header.withheld.map((w) => `${w.entry} (${w.license || 'no licence'})`);
    return {
      summary: { ok: true, command: 'release', out, ...r.header },
      human: [
        `release: ${c.responses} responses, ${c.scores} scores${c.ratings === null ? '' : `, ${c.ratings} ratings`}; ${c.shipped} of ${c.images} images ship`,
        withheld.length > 0
          ? `withheld by their licences, or by another entry's showing the same image (stimkit rehydrate rebuilds them): ${withheld.join(', ')}`
          : 'every image ships',
        `wrote ${out}/ (croissant.json, README.md, LICENSES.md, data/, images/, release.json)`,
      ].join('\n'),
      exitCode: EXIT.ok,
    };
  },
};
