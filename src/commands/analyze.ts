/**
 * `stimkit analyze logit|ols|rates|agreement|instrument <table.csv> [flags]`: refit the papers'
 * models on exported tables. Parses flags and calls the plain functions in src/analyze/.
 */
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
import { analyzeArm } from '../analyze/instrument/arms.js';
import { absentModels, readInstrumentTable } from '../analyze/instrument-csv.js';
import { requireShiftLanguages } from '../analyze/instrument/shift.js';
import { ratesTable } from '../analyze/rates.js';
import type { BootstrapParams } from '../analyze/regress.js';
import { regressWithSeparation } from '../analyze/separation.js';
import { simulatedLine, simulatedRows } from '../analyze/simulated.js';
import { readTable } from '../analyze/table.js';
import { outcomesLine, selectOutcomes } from '../analyze/outcomes.js';
import type { CommandResult } from '../cli/output.js';
import { BOOT_WEIGHTS, configureAnalyze, CORRECTIONS, KAPPA_WEIGHTS } from './analyze-options.js';
import type { CommandSpec } from './index.js';
import { z } from 'zod';
import { flag, parseOptions } from '../cli/options.js';
import { analyzeReasoning } from './analyze-reasoning.js';
import { analyzePressure } from './analyze-pressure.js';

/** The kinds analyze computes from a table (`power`, which reads none, is added by analyze-power.ts). */
export const KINDS = [
  'logit',
  'ols',
  'rates',
  'agreement',
  'instrument',
  'reasoning',
  'pressure',
] as const;

const Pair = z.tuple([z.string(), z.string()]);

/** The flags of `stimkit analyze` (analyze-options.ts), as commander parses them. */
const AnalyzeFlags = z.looseObject({
  outcome: flag.text,
  predictors: flag.list,
  reference: z.array(Pair).optional(),
  interaction: z.array(Pair).optional(),
  cluster: flag.text,
  correction: z.enum(CORRECTIONS).optional(),
  complete: flag.on,
  firth: flag.on,
  wildBootstrap: flag.on,
  bootWeights: z.enum(BOOT_WEIGHTS),
  bootReps: z.number().int(),
  bootSeed: z.number().int(),
  by: flag.list,
  outcomes: flag.list,
  sensitivity: flag.number,
  specificity: flag.number,
  raters: flag.list,
  vs: flag.text,
  weights: z.enum(KAPPA_WEIGHTS),
  dimension: flag.text,
  categories: flag.list,
  shift: flag.text,
  arm: flag.text,
  out: flag.text,
});
type Opts = z.output<typeof AnalyzeFlags>;

function need<T>(value: T | undefined, flag: string, kind: string): T {
  if (value === undefined || (Array.isArray(value) && value.length === 0))
    throw StimkitError.usage(
      'E_ANALYZE_USAGE',
      `analyze ${kind} needs ${flag}`,
      `add ${flag}; see \`stimkit analyze ${kind} --help\``,
    );
  return value;
}

function bootstrapOf(opts: Opts): BootstrapParams | null {
  return opts.wildBootstrap
    ? {
        weights: opts.bootWeights,
        reps: opts.bootReps,
        seed: opts.bootSeed,
      }
    : null;
}

/** Flags that only some kinds read: refuse them elsewhere rather than ignore them. */
function checkKindFlags(kind: string, opts: Opts): void {
  const misuse = (flag: string, why: string) => {
    throw StimkitError.usage('E_ANALYZE_USAGE', `${flag} ${why}`, `drop ${flag}`);
  };
  if (opts.firth && kind !== 'logit') misuse('--firth', `applies to analyze logit, not ${kind}`);
  if (opts.firth && opts.cluster !== undefined)
    misuse(
      '--firth',
      "gives model-based profile-likelihood inference (as R's logistf) and cannot be combined with --cluster: drop --cluster",
    );
  if (opts.wildBootstrap && kind !== 'ols' && kind !== 'instrument')
    misuse(
      '--wild-bootstrap',
      `applies to analyze ols (with --cluster) and instrument, not ${kind}`,
    );
  if (opts.wildBootstrap && kind === 'ols' && opts.cluster === undefined)
    misuse('--wild-bootstrap', 'resamples clusters: add --cluster COL');
  if (opts.arm !== undefined && kind !== 'instrument')
    misuse('--arm', `applies to analyze instrument and power, not ${kind}`);
  if (opts.out !== undefined && kind !== 'reasoning' && kind !== 'pressure')
    misuse('--out', `applies to analyze reasoning, pressure and power, not ${kind}`);
  // a correction without clusters would be silently ignored: the SEs are model-based then
  if (opts.correction !== undefined && opts.cluster === undefined)
    misuse(
      '--correction',
      `applies to cluster-robust standard errors: add --cluster COL (without it analyze ${kind} gives model-based SEs)`,
    );
}

function instrument(path: string, opts: Opts): CommandResult {
  const given = opts.shift;
  const [from, to] = (given ?? 'en:zh').split(':');
  if (given !== undefined && (!from || !to))
    throw StimkitError.usage(
      'E_ANALYZE_USAGE',
      `--shift expects FROM:TO, e.g. en:zh (got "${given}")`,
      'write --shift as two language codes joined by a colon, e.g. --shift en:zh',
    );
  const t = readInstrumentTable(path, (table) => selectOutcomes(table, 'score', opts.outcomes));
  const bootstrap = bootstrapOf(opts);
  const shift = given !== undefined ? { from: from!, to: to! } : undefined;
  const a = analyzeArm(t.rows, {
    arm: opts.arm,
    shift,
    file: path,
    bootstrap,
  });
  if (given !== undefined) requireShiftLanguages(a.rows, from!, to!, path);
  // a model with no scored answer in the arm (it refused everything, or answered only where no
  // rules score) has no estimate: named with why
  const absent = absentModels(
    readTable(path),
    a.arm,
    new Set(a.analysis.models.map((m) => m.model)),
  );
  const summary = {
    format: 'stimkit.analyze.instrument',
    version: 1,
    input: { file: path, sha256: t.sha256, rows: t.rows.length },
    params: { arm: a.arm, arm_chosen: a.chosen, shift: `${a.shift.from}:${a.shift.to}`, bootstrap },
    arms: a.arms,
    ...a.analysis,
    models: a.analysis.models.map((m) => ({
      ...m,
      simulated: t.simulatedModels ? t.simulatedModels.has(m.model) : null,
    })),
    absent,
    simulated: t.simulated,
    outcomes: t.outcomes,
  };
  const human =
    simulatedLine(t.simulated) +
    outcomesLine(t.outcomes) +
    absent.map((m) => `no estimate for ${m.model}: ${m.reason}\n`).join('') +
    instrumentHuman(a.analysis, a);
  return { summary, human, exitCode: EXIT.ok };
}

/** The rows of `path` an analysis of `column` uses (outcomes.ts): --outcomes, else the default. */
function selected(path: string, column: string | null, opts: Opts) {
  return selectOutcomes(readTable(path), column, opts.outcomes);
}

async function regress(kind: 'logit' | 'ols', path: string, opts: Opts): Promise<CommandResult> {
  const outcome = need(opts.outcome, '--outcome', kind);
  const { table, selection } = selected(path, outcome, opts);
  const fitted = await regressWithSeparation(kind, table, {
    outcome,
    predictors: need(opts.predictors, '--predictors', kind),
    reference: Object.fromEntries(opts.reference ?? []),
    interactions: opts.interaction ?? [],
    cluster: opts.cluster ?? null,
    correction: opts.correction ?? 'statsmodels',
    conf: 0.95,
    complete: Boolean(opts.complete),
    ...(opts.firth ? { firth: true } : {}),
    ...(opts.wildBootstrap ? { bootstrap: bootstrapOf(opts) } : {}),
  });
  const report = { ...fitted, outcomes: selection };
  const human = simulatedLine(report.simulated) + outcomesLine(selection) + regressHuman(report);
  return { summary: report, human, exitCode: EXIT.ok };
}

function rates(path: string, opts: Opts): CommandResult {
  const sens = opts.sensitivity;
  const spec = opts.specificity;
  if ((sens === undefined) !== (spec === undefined))
    throw StimkitError.usage(
      'E_ANALYZE_USAGE',
      'analyze rates: give --sensitivity and --specificity together',
      'add the missing one of --sensitivity and --specificity, or drop both',
    );
  const correction =
    sens !== undefined && spec !== undefined ? { sensitivity: sens, specificity: spec } : null;
  const outcome = need(opts.outcome, '--outcome', 'rates');
  const { table, selection } = selected(path, outcome, opts);
  const rated = ratesTable(table, {
    outcome,
    by: opts.by ?? [],
    complete: Boolean(opts.complete),
    correction,
  });
  const report = { ...rated, outcomes: selection };
  const human = simulatedLine(report.simulated) + outcomesLine(selection) + ratesHuman(report);
  return { summary: report, human, exitCode: EXIT.ok };
}

function agreement(path: string, opts: Opts): CommandResult {
  // judges' labels are of answers: response-derived (outcomes.ts)
  const { table, selection } = selected(path, null, opts);
  const simulated = simulatedRows(table);
  const params = {
    raters: opts.raters,
    vs: opts.vs ?? null,
    weights: opts.weights,
    dimension: opts.dimension,
    categories: opts.categories,
  };
  if (isLongLabels(table)) {
    const report = agreementLong(table, params);
    return {
      summary: { ...report, simulated, outcomes: selection },
      human:
        simulatedLine(simulated) +
        outcomesLine(selection) +
        ('dimensions' in report ? agreementByDimensionHuman(report) : agreementHuman(report)),
      exitCode: EXIT.ok,
    };
  }
  const wide = widenedNames(table, params);
  const report = agreementTable(table, {
    ...wide,
    raters: need(wide.raters, '--raters', 'agreement'),
    categories: params.categories,
    dimension: params.dimension,
  });
  return {
    summary: { ...report, simulated, outcomes: selection },
    human: simulatedLine(simulated) + outcomesLine(selection) + agreementHuman(report),
    exitCode: EXIT.ok,
  };
}

export const analyzeCommand: CommandSpec = {
  name: 'analyze',
  description:
    "refit the papers' models on exported CSV tables: logit | ols | rates | agreement | instrument | reasoning | pressure",
  configure: (cmd) =>
    configureAnalyze(
      cmd
        .argument('<kind>', `what to compute: ${KINDS.join(' | ')}`)
        .argument('<table>', 'CSV table with a header row'),
    ),
  run: async ([kindArg, file], flags) => {
    const opts = parseOptions(AnalyzeFlags, flags);
    const kind = String(kindArg);
    if (!(KINDS as readonly string[]).includes(kind))
      throw StimkitError.usage(
        'E_ANALYZE_KIND',
        `unknown analysis "${kind}" (expected one of ${KINDS.join(', ')})`,
        'use one of the analyses listed, e.g. `stimkit analyze logit <table.csv>`',
      );
    checkKindFlags(kind, opts);
    const path = String(file);
    if (kind === 'instrument') return instrument(path, opts);
    if (kind === 'logit' || kind === 'ols') return regress(kind, path, opts);
    if (kind === 'rates') return rates(path, opts);
    if (kind === 'reasoning') return analyzeReasoning(path, opts.out);
    if (kind === 'pressure') return analyzePressure(path, opts.out, opts.outcomes);
    return agreement(path, opts);
  },
};
