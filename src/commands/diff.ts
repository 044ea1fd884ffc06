/** `stimkit diff <bundleA> <bundleB>` */
import { EXIT } from '../core/errors.js';
import type { CommandSpec } from './index.js';

export const diffCommand: CommandSpec = {
  name: 'diff',
  description:
    'what changed between two sealed bundles, by meaning: trials, entries and facts, study, recipe, stimuli',
  configure: (cmd) =>
    cmd
      .argument('<bundleA>', 'the earlier bundle folder')
      .argument('<bundleB>', 'the later bundle folder'),
  run: async ([a, b]) => {
    const { diffBundles, diffHuman, diffJson } = await import('../diff/index.js');
    const d = await diffBundles(String(a), String(b));
    return { summary: diffJson(d), human: diffHuman(d), exitCode: EXIT.ok };
  },
};
