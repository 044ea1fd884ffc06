/** `stimkit check <file…>` and `stimkit check --shipped` */
import { EXIT, StimkitError } from '../core/errors.js';
import { isShippedRef, SHIPPED_PREFIX, shippedFile } from '../core/shipped.js';
import { checkFiles, checkHuman, checkJson, FORMATS } from '../check/index.js';
import { listShipped, shippedHuman } from '../check/shipped.js';
import type { CommandSpec } from './index.js';

/** A file argument: a path, or `stimkit:<name>` for a shipped file. */
const fileArg = (f: string): string =>
  isShippedRef(f)
    ? shippedFile(f.slice(SHIPPED_PREFIX.length), { code: 'E_CHECK_SHIPPED', file: f })
    : f;

export const checkCommand: CommandSpec = {
  name: 'check',
  description:
    'validate stimkit data files by their format field, following extends; every problem at once',
  configure: (cmd) =>
    cmd
      .argument(
        '[files...]',
        `data files (${FORMATS.map((f) => f.format.replace('stimkit.', '')).join(', ')}), stimkit:<name> for a shipped one, or bundle folders`,
      )
      .option('--shipped', 'list the data files stimkit ships (stimkit:<name>)'),
  run: async ([files], opts) => {
    const given = Array.isArray(files) ? files.map(String) : [];
    if (opts.shipped) {
      const shipped = listShipped();
      return {
        summary: { ok: true, command: 'check', shipped },
        human: shippedHuman(shipped),
        exitCode: EXIT.ok,
      };
    }
    if (given.length === 0) {
      throw StimkitError.usage(
        'E_CHECK_USAGE',
        'stimkit check needs files to check, or --shipped to list the shipped files',
        'name the files to check (e.g. `stimkit check manifests/*.yaml`), or pass --shipped',
      );
    }
    const result = await checkFiles(given.map(fileArg));
    return {
      summary: checkJson(result),
      human: checkHuman(result),
      exitCode: result.ok ? EXIT.ok : EXIT.rejected,
    };
  },
};
