/** `stimkit validate --scores DIR --labels FILE [--out FILE]`: the judges against human labels. */
import type { ValidationReport } from '../audit/validation-format.js';
import { EXIT } from '../core/errors.js';
import type { CommandSpec } from './index.js';
import { z } from 'zod';
import { flag, parseOptions } from '../cli/options.js';

const pct = (v: number | null) => (v === null ? '–' : `${(100 * v).toFixed(1)} %`);
const num = (v: number | null) => (v === null ? '–' : v.toFixed(2));

/** What the user should know although validation went ahead. */
function warnings(r: ValidationReport): string[] {
  if (!r.unmatched_items) return [];
  return [
    `${r.unmatched_items} of ${r.items} labelled item(s) are not in the scores (left out of the judges' confusion matrices; the raters' agreement still uses them). Fix: label a sample drawn from the run these scores come from.`,
  ];
}

function human(r: ValidationReport, out: string, listed: boolean): string {
  const lines = [
    `${r.items} items, raters ${r.raters.join(', ')}; judges ${r.judges.join(', ') || 'none'}`,
  ];
  for (const w of warnings(r)) lines.push(`warning: ${w}`);
  for (const d of r.dimensions) {
    lines.push(
      `${d.dimension}: raters agree ${pct(d.raters.raw_agreement)}, AC1 ${num(d.raters.gwet_ac1)}, Cohen ${num(d.raters.cohen_kappa_mean)}, Fleiss ${num(d.raters.fleiss_kappa)}`,
    );
    for (const j of d.judges) {
      const c = j.vs_majority;
      const rg = j.attenuation.correction;
      lines.push(
        `  ${j.judge}: TP ${c.tp} FN ${c.fn} FP ${c.fp} TN ${c.tn}, precision ${num(c.precision)}, recall ${num(c.recall)}` +
          (rg
            ? `; rate ${pct(rg.observed.rate)} → corrected ${pct(rg.corrected)} [${pct(rg.lower)}, ${pct(rg.upper)}]`
            : ''),
      );
    }
  }
  lines.push(
    `wrote ${out}${listed ? ' (listed in score.json, so stimkit report shows it)' : ' (outside the scores folder: stimkit report does not show it)'}`,
  );
  return `${lines.join('\n')}\n`;
}

/** The flags this command reads, as commander parses them. */
const ValidateFlags = z.looseObject({
  out: flag.text,
});

export const validateCommand: CommandSpec = {
  name: 'validate',
  description:
    'validate the judges of a scores folder against human labels (confusion matrices, kappa, AC1, Rogan–Gladen)',
  configure: (cmd) =>
    cmd
      .requiredOption('--scores <dir>', 'scores folder written by stimkit score with --judge')
      .requiredOption('--labels <file>', 'labels CSV written by stimkit label export')
      .option(
        '--out <file>',
        'where to write the report (default: <scores>/validation.json, listed in score.json, which stimkit report shows)',
      ),
  run: async (_args, flags) => {
    const opts = parseOptions(ValidateFlags, flags);
    const { writeValidation } = await import('../score/validation-file.js');
    const { report, out, listed } = await writeValidation(
      String(opts.scores),
      String(opts.labels),
      opts.out,
    );
    return {
      summary: {
        ok: true,
        command: 'validate',
        out,
        listed,
        warnings: warnings(report),
        ...report,
      },
      human: human(report, out, listed),
      exitCode: EXIT.ok,
    };
  },
};
