/** `stimkit demo [--out DIR]` */
import path from 'node:path';
import { EXIT } from '../core/errors.js';
import { relPosix } from '../core/fsio.js';
import { runDemo } from '../demo/demo.js';
import type { CommandSpec } from './index.js';

export const demoCommand: CommandSpec = {
  name: 'demo',
  description: 'run the pipeline on the shipped demo corpus, offline',
  configure: (cmd) => cmd.option('--out <dir>', 'output folder', 'stimkit-demo'),
  run: async (_args, opts) => {
    const out = path.resolve(String(opts.out));
    const result = await runDemo(out);
    const human = [
      ...result.steps.map((s) => `== ${s.step} ==\n${s.human}`),
      result.ok ? `demo finished: outputs in ${relPosix(process.cwd(), out)}/` : 'demo stopped at a failing step (see above)',
    ].join('\n');
    return {
      summary: { ok: result.ok, command: 'demo', out: relPosix(process.cwd(), out), steps: result.steps.map(({ step, ok, summary }) => ({ step, ok, summary })) },
      human,
      exitCode: result.ok ? EXIT.ok : EXIT.rejected,
    };
  },
};
