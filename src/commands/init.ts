/** `stimkit init <dir>` */
import { EXIT } from '../core/errors.js';
import type { CommandSpec } from './index.js';

export const initCommand: CommandSpec = {
  name: 'init',
  description:
    'write a small working study to edit into a new folder: entries, topics extending a shipped file, a study, models (simulated + a real endpoint to fill in)',
  configure: (cmd) => cmd.argument('<dir>', 'a new or empty folder'),
  run: async ([dir]) => {
    const { initStudy } = await import('../init/init.js');
    const r = await initStudy(String(dir));
    const where = String(dir).replace(/(?<!\/)\/+$/, '');
    return {
      summary: { ok: true, command: 'init', dir: where, files: r.files },
      human: [
        `init: wrote ${r.files.join(', ')} in ${where}/`,
        `next: cd ${where} && npx stimkit check study.yaml models.yaml (its README.md lists the commands after that)`,
      ].join('\n'),
      exitCode: EXIT.ok,
    };
  },
};
