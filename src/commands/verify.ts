/** `stimkit verify <bundle> [--digest HEX] [--jobs N]` */
import { InvalidArgumentError, Option } from 'commander';
import { positiveInt } from '../cli/flags.js';
import { EXIT } from '../core/errors.js';
import type { CommandSpec } from './index.js';
import { z } from 'zod';
import { flag, parseOptions } from '../cli/options.js';

function digestFlag(value: string): string {
  if (!/^[0-9a-fA-F]{64}$/.test(value))
    throw new InvalidArgumentError(`Expected a sha256 (64 hex digits) but received "${value}".`);
  return value.toLowerCase();
}

/** The flags this command reads, as commander parses them. */
const VerifyFlags = z.looseObject({
  digest: flag.text,
  jobs: z.number().int(),
});

export const verifyCommand: CommandSpec = {
  name: 'verify',
  description: 're-hash a sealed bundle; exit 1 naming each changed, missing or extra file',
  configure: (cmd) =>
    cmd
      .argument('<bundle>', 'bundle folder (a BagIt bag written by stimkit bundle)')
      .addOption(
        new Option(
          '--digest <sha256>',
          'also require this bundle digest (e.g. the one a paper cites)',
        ).argParser(digestFlag),
      )
      .addOption(
        new Option('--jobs <n>', 'files hashed at a time').argParser(positiveInt).default(4),
      ),
  run: async ([bundle], flags) => {
    const opts = parseOptions(VerifyFlags, flags);
    const [{ verifyHuman, verifyJson }, { verifyBundle }] = await Promise.all([
      import('../verify/summary.js'),
      import('../verify/verify.js'),
    ]);
    const result = await verifyBundle(String(bundle), {
      digest: opts.digest,
      concurrency: opts.jobs,
    });
    return {
      summary: verifyJson(result),
      human: verifyHuman(result),
      exitCode: result.ok ? EXIT.ok : EXIT.rejected,
    };
  },
};
