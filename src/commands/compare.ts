/** `stimkit compare <scores A> <scores B> [--out DIR] [--csv-raw]` */
import { CSV_RAW_FLAG } from '../cli/flags.js';
import { EXIT } from '../core/errors.js';
import { relPosix } from '../core/fsio.js';
import type { CommandSpec } from './index.js';
import { z } from 'zod';
import { flag, parseOptions } from '../cli/options.js';

/** The flags this command reads, as commander parses them. */
const CompareFlags = z.looseObject({
  out: flag.text,
});

export const compareCommand: CommandSpec = {
  name: 'compare',
  description:
    'what changed between two runs of one sealed bundle: changed trials, transition tables, exact McNemar with Holm',
  configure: (cmd) =>
    cmd
      .argument('<scoresA>', 'the earlier scores folder (stimkit score --out)')
      .argument('<scoresB>', 'the later scores folder, of the same bundle')
      .option(
        '--out <dir>',
        'also write compare.json, changed.csv, unpaired.csv, transitions.csv and mcnemar.csv here',
      )
      .option(...CSV_RAW_FLAG),
  run: async ([a, b], flags) => {
    const opts = parseOptions(CompareFlags, flags);
    const rel = (d: string) => relPosix(process.cwd(), d);
    const { compareHuman, compareScores, writeCompare } = await import('../compare/index.js');
    const r = await compareScores(String(a), String(b));
    const out = opts.out ?? null;
    if (out !== null) await writeCompare(r, out, { csvRaw: Boolean(opts.csvRaw) });
    return {
      summary: {
        ok: true,
        command: 'compare',
        ...r,
        a: { ...r.a, dir: rel(r.a.dir) },
        b: { ...r.b, dir: rel(r.b.dir) },
        out: out === null ? null : rel(out),
      },
      human: `${compareHuman(r)}${out === null ? '' : `wrote ${rel(out)}/\n`}`,
      exitCode: EXIT.ok,
    };
  },
};
