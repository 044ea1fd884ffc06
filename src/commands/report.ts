/** `stimkit report <scores dir> --out DIR [--bundle DIR] [--compare SCORES] [--shift FROM:TO …] [--csv-raw]` */
import { CSV_RAW_FLAG } from '../cli/flags.js';
import { EXIT, StimkitError, formatProblems } from '../core/errors.js';
import { relPosix } from '../core/fsio.js';
import type { CommandSpec } from './index.js';
import { z } from 'zod';
import { flag, parseOptions } from '../cli/options.js';

/** The flags this command reads, as commander parses them. */
const ReportFlags = z.looseObject({
  bundle: flag.text,
  compare: flag.text,
  shift: flag.list,
});

/** `--shift en:zh --shift en:bo` as pairs; a value that is not FROM:TO is a usage error. */
function shiftPairs(given: string[] | undefined): Array<{ from: string; to: string }> | undefined {
  return given?.map((v) => {
    const m = /^([^:\s]+):([^:\s]+)$/.exec(v);
    if (!m)
      throw StimkitError.usage(
        'E_REPORT_USAGE',
        `--shift expects FROM:TO, e.g. en:zh (got "${v}")`,
        'write --shift as two language codes joined by a colon, e.g. --shift en:bo',
      );
    return { from: m[1]!, to: m[2]! };
  });
}

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
      .option(
        '--shift <from:to>',
        'a language shift to show per instrument arm, e.g. en:bo (repeatable; default: each language against the arm’s first)',
        (v: string, prev: string[] = []) => [...prev, v],
      )
      .option(...CSV_RAW_FLAG),
  run: async ([scores], flags, io) => {
    const opts = parseOptions(ReportFlags, flags);
    const [{ scoresFontWarnings }, { writeReport }] = await Promise.all([
      import('../languages/font-preflight.js'),
      import('../report/folder.js'),
    ]);
    for (const w of await scoresFontWarnings(String(scores))) io.stderr(formatProblems([w]));
    const r = await writeReport(String(scores), String(opts.out), undefined, {
      bundle: opts.bundle,
      csvRaw: Boolean(opts.csvRaw),
      compare: opts.compare,
      shifts: shiftPairs(opts.shift),
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
