/** `stimkit rehydrate <release> --images DIR` */
import { EXIT } from '../core/errors.js';
import { relPosix } from '../core/fsio.js';
import type { CommandSpec } from './index.js';
import { z } from 'zod';
import { parseOptions } from '../cli/options.js';

/** The flags this command reads, as commander parses them. */
const RehydrateFlags = z.looseObject({
  images: z.string(),
});

export const rehydrateCommand: CommandSpec = {
  name: 'rehydrate',
  description:
    'rebuild the images a release withheld from your own copy of the source images, checking every sha256',
  configure: (cmd) =>
    cmd
      .argument('<release>', 'the release folder (stimkit release --out)')
      .requiredOption('--images <dir>', 'your copies of the source images'),
  run: async ([release], flags) => {
    const opts = parseOptions(RehydrateFlags, flags);
    const { rehydrate } = await import('../release/index.js');
    const r = await rehydrate(String(release), opts.images);
    const where = relPosix(process.cwd(), r.release);
    return {
      summary: {
        ok: true,
        command: 'rehydrate',
        release: where,
        entries: r.entries,
        images: r.images,
      },
      human:
        r.entries === 0
          ? 'nothing withheld: every image of the release ships'
          : `rebuilt ${r.images.length} image(s) of ${r.entries} withheld entr${r.entries === 1 ? 'y' : 'ies'}, each matching its sha256, into ${where}/images/`,
      exitCode: EXIT.ok,
    };
  },
};
