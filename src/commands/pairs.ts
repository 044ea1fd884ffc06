/** `stimkit pairs <topics.yaml> [--langs LIST] [--out FILE]` */
import { list } from '../cli/flags.js';
import { EXIT, StimkitError } from '../core/errors.js';
import type { CommandSpec } from './index.js';
import { z } from 'zod';
import { flag, parseOptions } from '../cli/options.js';

/** The flags this command reads, as commander parses them. */
const PairsFlags = z.looseObject({
  langs: flag.list,
  out: flag.text,
});

export const pairsCommand: CommandSpec = {
  name: 'pairs',
  description:
    'expand a topics file into minimal pairs (topic × language × affirmative/reverse) with polarity keys',
  configure: (cmd) =>
    cmd
      .argument('<topics>', 'topics file (YAML or JSON)')
      .option(
        '--langs <list>',
        "comma-separated languages (default: the file's own languages)",
        list,
      )
      .option('--out <file>', 'write the pairs artifact (stimkit.pairs v1) to this file'),
  run: async ([file], flags) => {
    const opts = parseOptions(PairsFlags, flags);
    const [{ runPairs }, { pairsHuman, pairsJson }, { loadTopics }] = await Promise.all([
      import('../stimuli/pairs.js'),
      import('../stimuli/summary.js'),
      import('../stimuli/topics.js'),
    ]);
    const topics = await loadTopics(String(file));
    const langs = opts.langs;
    const unknown = (langs ?? []).filter((l) => !topics.languages.includes(l));
    if (unknown.length > 0) {
      throw StimkitError.usage(
        'E_PAIRS_UNKNOWN_LANGUAGE',
        `--langs: ${unknown.join(', ')} not in ${String(file)} (available: ${topics.languages.join(', ')})`,
        'list only languages the topics file has in --langs, or add the language to the topics file',
      );
    }
    const run = await runPairs(topics, { langs, out: opts.out });
    return { summary: pairsJson(run), human: pairsHuman(run), exitCode: EXIT.ok };
  },
};
