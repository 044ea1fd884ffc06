/** `stimkit check <file…>` */
import { EXIT } from '../core/errors.js';
import { checkFiles, checkHuman, checkJson, FORMATS } from '../check/index.js';
import type { CommandSpec } from './index.js';

export const checkCommand: CommandSpec = {
  name: 'check',
  description:
    'validate stimkit data files by their format field, following extends; every problem at once',
  configure: (cmd) =>
    cmd.argument(
      '<files...>',
      `data files (${FORMATS.map((f) => f.format.replace('stimkit.', '')).join(', ')}) or bundle folders`,
    ),
  run: async ([files]) => {
    const result = await checkFiles((files as string[]).map(String));
    return {
      summary: checkJson(result),
      human: checkHuman(result),
      exitCode: result.ok ? EXIT.ok : EXIT.rejected,
    };
  },
};
