/** `stimkit report <scores dir> --out DIR [--bundle DIR] [--compare SCORES] [--csv-raw]` */
import { CSV_RAW_FLAG } from '../cli/flags.js';
import { EXIT, formatProblems } from '../core/errors.js';
import { scoresFontWarnings } from '../core/font-preflight.js';
import { relPosix } from '../core/fsio.js';
import { writeReport } from '../report/folder.js';
import type { CommandSpec } from './index.js';

export const reportCommand: CommandSpec = {
  name: 'report',
  description:
    'one self-contained HTML page with SVG/PNG charts and the CSV tables behind them, from a scores folder',
  configure: (cmd) =>
    cmd
      .argument('<scores>', 'scores folder (stimkit score --out)')
      .requiredOption(
        '--out <dir>',
        'report folder (index.html, charts/, tables/, thumbs/, report.json)',
      )
      .option(
        '--bundle <dir>',
        'the scored bundle, when it moved from where score.json records it (for the variant thumbnails)',
      )
      .option(
        '--compare <scores>',
        'a second scores folder of the same bundle: adds the section "What changed" (stimkit compare)',
      )
      .option(...CSV_RAW_FLAG),
  run: async ([scores], opts, io) => {
    for (const w of await scoresFontWarnings(String(scores))) io.stderr(formatProblems([w]));
    const r = await writeReport(String(scores), String(opts.out), undefined, {
      bundle: opts.bundle as string | undefined,
      csvRaw: Boolean(opts.csvRaw),
      compare: opts.compare as string | undefined,
    });
    const out = relPosix(process.cwd(), r.out);
    const human = [
      `report: ${r.sections.length} section(s) (${r.sections.join(', ')}), ${r.files.length} files${r.simulated ? ', SIMULATED data' : ''}`,
      `open ${out}/index.html`,
    ].join('\n');
    return {
      summary: {
        ok: true,
        command: 'report',
        out,
        sections: r.sections,
        simulated: r.simulated,
        files: r.files,
      },
      human,
      exitCode: EXIT.ok,
    };
  },
};
