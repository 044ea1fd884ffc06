/** `stimkit release --bundle B --ledger L --scores S [--labels DIR] [--meta FILE] --out DIR` */
import { EXIT } from '../core/errors.js';
import { relPosix } from '../core/fsio.js';
import { buildRelease } from '../release/index.js';
import type { CommandSpec } from './index.js';

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
  run: async (_args, opts) => {
    const r = await buildRelease({
      bundle: opts.bundle as string,
      ledger: opts.ledger as string,
      scores: opts.scores as string,
      labels: opts.labels as string | undefined,
      meta: opts.meta as string | undefined,
      out: opts.out as string,
    });
    const out = relPosix(process.cwd(), r.out);
    const c = r.header.counts;
    const withheld = r.header.withheld.map((w) => `${w.entry} (${w.license || 'no licence'})`);
    return {
      summary: { ok: true, command: 'release', out, ...r.header },
      human: [
        `release: ${c.responses} responses, ${c.scores} scores${c.ratings === null ? '' : `, ${c.ratings} ratings`}; ${c.shipped} of ${c.images} images ship`,
        withheld.length > 0
          ? `withheld by their licences (stimkit rehydrate rebuilds them): ${withheld.join(', ')}`
          : 'every image ships',
        `wrote ${out}/ (croissant.json, README.md, LICENSES.md, data/, images/, release.json)`,
      ].join('\n'),
      exitCode: EXIT.ok,
    };
  },
};
