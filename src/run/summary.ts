/** What `stimkit run` prints: a line per model for people, and the `--json` summary. */
import { relPosix } from '../core/fsio.js';
import {
  budgetLines,
  costText,
  dryBudgetLine,
  ESTIMATE_NOTE,
  estimateLines,
} from './cost-summary.js';
import type { DryRunResult } from './dry-run.js';
import type { RunResult } from './run.js';
import { saidNoJson, saidNoLines } from './said-no.js';
import { sum } from './model-stats.js';

const fmt = (rec: Record<string, number>) =>
  Object.entries(rec)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

/** Models of the run that are simulated respondents (provider: sim): their output is not a real model's. */
const simulatedModels = (r: RunResult): string[] =>
  r.models.filter((m) => m.provider === 'sim').map((m) => m.model);

/** The `--json` summary of a run. */
export function runJson(r: RunResult) {
  return {
    ok: !r.interrupted && r.models.every((m) => m.stopped === null) && !budgetStopped(r),
    command: 'run',
    bundle: r.bundle,
    digest: r.digest,
    ledger: r.ledger,
    run: r.run,
    interrupted: r.interrupted,
    budget: r.budget && { ...r.budget, stopped: budgetStopped(r) },
    said_no: saidNoJson(r.saidNo),
    recovered_in_flight: r.recovered,
    wall_s: Math.round(r.wallMs) / 1000,
    simulated_models: simulatedModels(r),
    models: r.models.map((m) => ({
      model: m.model,
      provider: m.provider,
      simulated: m.provider === 'sim',
      selected: m.selected,
      already_recorded: m.skipped,
      pending: m.pending,
      in_batch: m.inBatch,
      done: m.done,
      outcomes: m.outcomes,
      failed: m.failed,
      retried: m.retried,
      tokens: m.tokens,
      cost_usd: m.cost_usd,
      run_cost_usd: r.runCost[m.model] ?? 0,
      unpriced: m.unpriced,
      wall_s: Math.round(m.wallMs) / 1000,
      stopped: m.stopped,
    })),
  };
}

/**
 * Trials of this invocation neither recorded nor failed nor recorded as not sent (the later turns
 * of a conversation after a turn without an answer, `outcomes.not_sent`): still to run.
 */
function stillToRun(m: RunResult['models'][number]): number {
  return m.pending - m.done - sum(m.failed) - (m.outcomes.not_sent ?? 0);
}

/** True when the budget stopped the run with trials left to send. */
function budgetStopped(r: RunResult): boolean {
  return (r.budget?.reached ?? false) && r.models.some((m) => stillToRun(m) > 0);
}

/** ", N in a batch file not yet imported (FILE, …)", or nothing. */
function inBatchText(m: RunResult['models'][number]): string {
  const { trials, files } = m.inBatch;
  if (trials === 0) return '';
  return `, ${trials} held in a batch file not yet imported (${files.slice(0, 3).join(', ')}${files.length > 3 ? ', …' : ''})`;
}

/** A warning for a model no trial of the bundle is for. */
const noTrials = (model: string): string =>
  `  warning: no trial of this bundle is for ${model}: the study's model sets, and the model's modalities and paradigms in the models file, select none (check its entry, or the study's models)`;

/** The human summary of a run. */
export function runHuman(r: RunResult): string {
  const lines = [
    `run "${r.run}" of bundle ${r.digest.slice(0, 12)}… into ${relPosix(process.cwd(), r.ledger)}`,
  ];
  if (r.recovered > 0)
    lines.push(
      `  ${r.recovered} request(s) in flight when an earlier run stopped were marked interrupted and re-sent`,
    );
  const sim = simulatedModels(r);
  if (sim.length > 0)
    lines.push(
      `  SIMULATED: ${sim.length === r.models.length ? 'every model' : `${sim.length} of ${r.models.length} models`} (${sim.join(', ')}) answered from the simulator, not a real model; their responses are marked simulated`,
    );
  for (const m of r.models) {
    const failed = sum(m.failed);
    const left = stillToRun(m);
    const { not_sent: notSent, ...results } = m.outcomes;
    lines.push(
      `  ${m.model}${m.provider === 'sim' ? ' (SIMULATED)' : ''}: ${m.selected} selected, ${m.skipped} already recorded${inBatchText(m)}, ${m.done} recorded now${Object.keys(results).length ? ` (${fmt(results)})` : ''}` +
        `${notSent ? `, ${notSent} later turn(s) not sent (a turn before them ended without an answer)` : ''}` +
        `${failed ? `, ${failed} failed (${fmt(m.failed)})` : ''}${sum(m.retried) ? `, ${sum(m.retried)} retried (${fmt(m.retried)})` : ''}` +
        `${left > 0 ? `, ${left} still to run` : ''}, ${m.tokens.prompt + m.tokens.completion} tokens${costText(m, r.runCost[m.model] ?? 0)}, ${(m.wallMs / 1000).toFixed(1)} s`,
    );
    if (m.stopped) lines.push(`  ${m.model}: STOPPED: ${m.stopped}`);
    if (m.selected === 0) lines.push(noTrials(m.model));
  }
  lines.push(...saidNoLines(r.saidNo));
  lines.push(...budgetLines(r.budget, budgetStopped(r)));
  if (r.interrupted)
    lines.push('interrupted: the ledger is consistent; run the same command again to continue');
  if (r.models.some((m) => sum(m.failed) > 0))
    lines.push('failed trials are tried again only with --retry-failed');
  if (r.models.some((m) => m.inBatch.trials > 0))
    lines.push(
      'trials in a batch file are not sent: `stimkit batch import` their output into this ledger (what it leaves without a result is sent by the next run); --send-exported sends them now, paid again if that batch runs',
    );
  return lines.join('\n');
}

/** The human text of a dry run. */
export function dryRunHuman(d: DryRunResult): string {
  const lines = [`dry run: nothing sent, nothing written (bundle ${d.digest.slice(0, 12)}…)`];
  for (const m of d.models) {
    lines.push(
      `  ${m.model} (${m.provider}): ${m.trials} trials${m.dropped.length ? `; dropped from requests: ${m.dropped.join(', ')}` : ''}`,
    );
    if (m.trials === 0) lines.push(noTrials(m.model));
    for (const [b, n] of Object.entries(m.blocks)) lines.push(`    ${b}: ${n}`);
    lines.push(...estimateLines(m.estimate)); // images sent, tokens and cost (cost-summary.ts)
  }
  if (d.models.some((m) => m.estimate?.cost_usd)) lines.push(ESTIMATE_NOTE);
  lines.push(...dryBudgetLine(d.budget));
  if (d.example)
    lines.push(
      `example request (${d.example.model}, trial ${d.example.trial}${d.example.url ? `, POST ${d.example.url}` : ''}):`,
      JSON.stringify(d.example.body, null, 2),
    );
  return lines.join('\n');
}
