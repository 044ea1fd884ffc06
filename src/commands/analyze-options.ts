/** The flags of `stimkit analyze` (all kinds but power, whose flags analyze-power.ts adds). */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { list, positiveInt } from '../cli/flags.js';

/** The choices of --correction, --boot-weights and --weights. */
export const CORRECTIONS = ['statsmodels', 'G', 'none'] as const;
export const BOOT_WEIGHTS = ['rademacher', 'webb'] as const;
export const KAPPA_WEIGHTS = ['none', 'linear', 'quadratic'] as const;

function pairsFlag(sep: string, what: string) {
  return (value: string, prev: string[][] = []): string[][] => {
    const out = [...prev];
    for (const item of list(value)) {
      const parts = item.split(sep).map((s) => s.trim());
      if (parts.length !== 2 || !parts[0] || !parts[1])
        throw new InvalidArgumentError(`Expected ${what} but received "${item}".`);
      out.push(parts);
    }
    return out;
  };
}

function probability(v: string): number {
  const p = Number(v);
  if (v.trim() === '' || !Number.isFinite(p) || p < 0 || p > 1)
    throw new InvalidArgumentError(`Expected a probability from 0 to 1 but received "${v}".`);
  return p;
}

function nonNegativeInt(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n))
    throw new InvalidArgumentError(`Expected an integer ≥ 0 but received "${v}".`);
  return n;
}

/** Regression flags (logit, ols). */
function regressionFlags(cmd: Command): Command {
  return cmd
    .option('--outcome <col>', 'outcome column (logit, rates: 0/1; ols: numeric)')
    .option('--predictors <list>', 'comma-separated predictor columns (logit, ols)', list)
    .option(
      '--reference <list>',
      'reference levels of text columns, e.g. paradigm=direct,lang=en',
      pairsFlag('=', 'COLUMN=LEVEL'),
    )
    .option(
      '--interaction <list>',
      'interaction terms, e.g. lang:origin (adds a likelihood-ratio test)',
      pairsFlag(':', 'A:B'),
    )
    .option('--cluster <col>', 'cluster column for cluster-robust standard errors (logit, ols)')
    .option(
      '--complete',
      'leave out rows with an empty cell in the columns used (complete cases; the count is reported) instead of refusing them (logit, ols, rates)',
    )
    .addOption(
      new Option(
        '--correction <kind>',
        'small-sample correction of the cluster-robust SEs, with --cluster (default: statsmodels)',
      ).choices(CORRECTIONS),
    )
    .option(
      '--firth',
      "logit: Firth's penalised likelihood (as R's logistf) with profile-likelihood intervals and penalised likelihood-ratio p values; estimates exist under separation",
    );
}

/** Wild cluster bootstrap flags (ols with --cluster, instrument). */
function bootstrapFlags(cmd: Command): Command {
  return cmd
    .option(
      '--wild-bootstrap',
      'ols with --cluster, instrument: wild cluster bootstrap-t p values and intervals per coefficient (for few clusters)',
    )
    .addOption(
      new Option('--boot-weights <kind>', 'wild bootstrap weights')
        .choices(BOOT_WEIGHTS)
        .default('rademacher'),
    )
    .option(
      '--boot-reps <n>',
      'wild bootstrap samples (all 2^G or 6^G weight vectors when fewer)',
      positiveInt,
      9999,
    )
    .option('--boot-seed <n>', 'seed of the wild bootstrap draws', nonNegativeInt, 1);
}

/** Rates and agreement flags. */
function tableFlags(cmd: Command): Command {
  return cmd
    .option('--by <list>', 'grouping columns (rates)', list)
    .option(
      '--outcomes <list>',
      'rows of these outcomes only (answer, provider_block, model_refusal, suppressed, length, failed, unrecorded); default: those that give the analysed column a value (answers for response-derived columns); what is left out is reported per outcome',
      list,
    )
    .option(
      '--sensitivity <p>',
      "with --specificity: the labeller's sensitivity, to add Rogan–Gladen corrected rates (rates)",
      probability,
    )
    .option(
      '--specificity <p>',
      "with --sensitivity: the labeller's specificity (rates)",
      probability,
    )
    .option(
      '--raters <list>',
      'rater columns (agreement); in a long labels CSV (a rater column), rater names (default: all)',
      list,
    )
    .option(
      '--vs <col>',
      "compare this column (long labels CSV: this rater) with the raters' majority (agreement)",
    )
    .option(
      '--dimension <col>',
      'labels CSV: the dimension to compare, e.g. d4_state_aligned (long layout default: each dimension)',
    )
    .option(
      '--categories <list>',
      'agreement: the full category list (default: from the labels format for its dimensions, e.g. true,false; else the labels seen)',
      list,
    )
    .addOption(
      new Option('--weights <kind>', "Cohen's kappa weights (agreement)")
        .choices(KAPPA_WEIGHTS)
        .default('none'),
    );
}

/** Every flag of `analyze` except power's. */
export function configureAnalyze(cmd: Command): Command {
  return tableFlags(bootstrapFlags(regressionFlags(cmd)))
    .option(
      '--shift <from:to>',
      "languages of the shift (instrument; default en:zh, else the arm's first two languages)",
    )
    .option(
      '--arm <id>',
      "instrument: the arm to analyse (default: the arm with the most responses, as the report); power: the arm to simulate; 'all' pools every arm (instrument)",
    );
}
