/**
 * `stimkit analyze logit|ols|rates|agreement|instrument <table.csv> [flags]`: refit the papers'
 * models on exported tables. Parses flags and calls the plain functions in src/analyze/.
 */
import { InvalidArgumentError, Option } from 'commander';
import { list } from '../cli/flags.js';
import { EXIT, StimkitError } from '../core/errors.js';
import { agreementTable } from '../analyze/agreement.js';
import { agreementLong, isLongLabels, widenedNames } from '../analyze/agreement-long.js';
import {
  agreementByDimensionHuman,
  agreementHuman,
  instrumentHuman,
  ratesHuman,
  regressHuman,
} from '../analyze/format.js';
import { analyzeInstrument } from '../analyze/instrument/index.js';
import { readInstrumentTable } from '../analyze/instrument-csv.js';
import { requireShiftLanguages } from '../analyze/instrument/shift.js';
import { ratesTable } from '../analyze/rates.js';
import { regressTable } from '../analyze/regress.js';
import { readTable } from '../analyze/table.js';
import type { Correction, KappaWeights } from '../stats/index.js';
import type { CommandSpec } from './index.js';

/** The kinds analyze computes from a table (`power`, which reads none, is added by analyze-power.ts). */
export const KINDS = ['logit', 'ols', 'rates', 'agreement', 'instrument'] as const;

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

function need<T>(value: T | undefined, flag: string, kind: string): T {
  if (value === undefined || (Array.isArray(value) && value.length === 0))
    throw StimkitError.usage('E_ANALYZE_USAGE', `analyze ${kind} needs ${flag}`);
  return value;
}

export const analyzeCommand: CommandSpec = {
  name: 'analyze',
  description:
    "refit the papers' models on exported CSV tables: logit | ols | rates | agreement | instrument",
  configure: (cmd) =>
    cmd
      .argument('<kind>', `what to compute: ${KINDS.join(' | ')}`)
      .argument('<table>', 'CSV table with a header row')
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
        ).choices(['statsmodels', 'G', 'none']),
      )
      .option('--by <list>', 'grouping columns (rates)', list)
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
      .addOption(
        new Option('--weights <kind>', "Cohen's kappa weights (agreement)")
          .choices(['none', 'linear', 'quadratic'])
          .default('none'),
      )
      .option(
        '--shift <from:to>',
        'languages of the shift (instrument; default en:zh, left out when the table lacks either)',
      ),
  run: async ([kindArg, file], opts) => {
    const kind = String(kindArg);
    if (!(KINDS as readonly string[]).includes(kind))
      throw StimkitError.usage(
        'E_ANALYZE_KIND',
        `unknown analysis "${kind}" (expected one of ${KINDS.join(', ')})`,
      );
    const path = String(file);
    if (kind === 'instrument') {
      const shift = (opts.shift as string | undefined) ?? 'en:zh';
      const [from, to] = shift.split(':');
      if (!from || !to)
        throw StimkitError.usage(
          'E_ANALYZE_USAGE',
          `--shift expects FROM:TO, e.g. en:zh (got "${shift}")`,
        );
      const t = readInstrumentTable(path);
      if (opts.shift !== undefined) requireShiftLanguages(t.rows, from, to, path);
      const analysis = analyzeInstrument(t.rows, { shiftFrom: from, shiftTo: to });
      const summary = {
        format: 'stimkit.analyze.instrument',
        version: 1,
        input: { file: path, sha256: t.sha256, rows: t.rows.length },
        params: { shift: `${from}:${to}` },
        ...analysis,
      };
      return { summary, human: instrumentHuman(analysis), exitCode: EXIT.ok };
    }
    // a correction without clusters would be silently ignored: the SEs are model-based then
    if (opts.correction !== undefined && opts.cluster === undefined)
      throw StimkitError.usage(
        'E_ANALYZE_USAGE',
        `--correction applies to cluster-robust standard errors: add --cluster COL (without it analyze ${kind} gives model-based SEs)`,
      );
    const table = readTable(path);
    if (kind === 'logit' || kind === 'ols') {
      const report = regressTable(kind, table, {
        outcome: need(opts.outcome as string | undefined, '--outcome', kind),
        predictors: need(opts.predictors as string[] | undefined, '--predictors', kind),
        reference: Object.fromEntries((opts.reference as string[][] | undefined) ?? []),
        interactions: ((opts.interaction as string[][] | undefined) ?? []).map(
          ([a, b]) => [a!, b!] as [string, string],
        ),
        cluster: (opts.cluster as string | undefined) ?? null,
        correction: (opts.correction as Correction | undefined) ?? 'statsmodels',
        conf: 0.95,
        complete: Boolean(opts.complete),
      });
      return { summary: report, human: regressHuman(report), exitCode: EXIT.ok };
    }
    if (kind === 'rates') {
      const sens = opts.sensitivity as number | undefined;
      const spec = opts.specificity as number | undefined;
      if ((sens === undefined) !== (spec === undefined))
        throw StimkitError.usage(
          'E_ANALYZE_USAGE',
          'analyze rates: give --sensitivity and --specificity together',
        );
      const correction =
        sens !== undefined && spec !== undefined ? { sensitivity: sens, specificity: spec } : null;
      const report = ratesTable(table, {
        outcome: need(opts.outcome as string | undefined, '--outcome', kind),
        by: (opts.by as string[] | undefined) ?? [],
        complete: Boolean(opts.complete),
        correction,
      });
      return { summary: report, human: ratesHuman(report), exitCode: EXIT.ok };
    }
    const agreement = {
      raters: opts.raters as string[] | undefined,
      vs: (opts.vs as string | undefined) ?? null,
      weights: opts.weights as KappaWeights,
      dimension: opts.dimension as string | undefined,
    };
    if (isLongLabels(table)) {
      const report = agreementLong(table, agreement);
      return {
        summary: report,
        human: 'dimensions' in report ? agreementByDimensionHuman(report) : agreementHuman(report),
        exitCode: EXIT.ok,
      };
    }
    const wide = widenedNames(table, agreement);
    const report = agreementTable(table, { ...wide, raters: need(wide.raters, '--raters', kind) });
    return { summary: report, human: agreementHuman(report), exitCode: EXIT.ok };
  },
};
