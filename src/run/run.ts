/**
 * `stimkit run`: verify the bundle, pick each model's trials, and send those without a final
 * result into the ledger (SQLite), all models at once, each under its own concurrency. The
 * ledger is the only state: rerunning the same command continues where it stopped.
 */
import { setMaxListeners } from 'node:events';
import path from 'node:path';
import { watchSigint, type Interrupt } from '../client/interrupt.js';
import { StimkitError } from '../core/errors.js';
import { Redactor } from '../core/redact.js';
import { ioProblem } from '../core/io-errors.js';
import { acquireLock, closeWriting } from '../ledger/lock.js';
import { openLedgerDb, type Db } from '../ledger/open.js';
import type { RunRow } from '../ledger/runs.js';
import { LedgerWriter } from '../ledger/write.js';
import { keyEnvFix, keyEnvSite, keyEnvText } from '../models/key-env.js';
import type { ModelSpec } from '../models/schema.js';
import { DEFAULT_BACKOFF, type Backoff } from '../client/backoff.js';
import { budgetReached, checkBudget, continuedRun, runCost, type Budget } from './budget.js';
import { dryRun, type DryRunResult } from './dry-run.js';
import { ImageStore } from '../client/images.js';
import type { ModelChoice } from './model-choice.js';
import { runHttpModel } from './model-run.js';
import { startProgress } from './progress.js';
import { openRun, pendingWork, planRun, type ModelWork, type RunPlan } from './run-plan.js';
import { ledgerSaidNo, type SaidNoCounts } from './said-no.js';
import type { ModelStats } from './model-stats.js';

/** Options of `runStudy`. */
export interface RunOptions extends ModelChoice {
  bundle: string;
  where?: string;
  limit?: number;
  /** Ledger file (default: `<bundle>.ledger.sqlite` beside the bundle folder). */
  ledger?: string;
  /** Overrides every model's concurrency. */
  concurrency?: number;
  maxAttempts?: number;
  retryFailed?: boolean;
  /** Send the trials a batch file holds (exported, output not imported): they may be paid twice. */
  sendExported?: boolean;
  dryRun?: boolean;
  newRun?: string;
  /** `--budget USD`: refuse to start above it, stop sending when the recorded cost reaches it (budget.ts). */
  budget?: number;
  backoff?: Backoff;
  /** How long Ctrl-C waits for requests in flight before aborting them (ms, default 30 s). */
  graceMs?: number;
  /** Stop on SIGINT (Ctrl-C) and report `interrupted` (the command sets this). */
  handleSigint?: boolean;
  /** Where progress goes; `tty` picks live bars over plain lines. */
  progress?: { write: (line: string) => void; tty: boolean; intervalMs?: number };
  env?: NodeJS.ProcessEnv;
}

/** What a run did. */
export interface RunResult {
  bundle: string;
  digest: string;
  ledger: string;
  run: string;
  /** In-flight attempts of an earlier, killed run that this run found and marked interrupted. */
  recovered: number;
  interrupted: boolean;
  models: ModelStats[];
  /** USD recorded in this run per model, earlier invocations included (budget.ts). */
  runCost: Record<string, number>;
  budget: Budget | null;
  /** Who said no: outcomes per model × route × language over the whole run (said-no.ts). */
  saidNo: SaidNoCounts[];
  wallMs: number;
}

/** The default ledger of a bundle folder: a sibling file, never inside the bag. */
function defaultLedger(bundleDir: string): string {
  return `${path.resolve(bundleDir)}.ledger.sqlite`;
}

/** The API key (a secret) of `model` from its variable. `oneModel`: the model came from `--model NAME --endpoint URL` (flags), not a models file. */
function apiKeyOf(model: ModelSpec, env: NodeJS.ProcessEnv, oneModel: boolean): string | null {
  if (model.provider === 'sim' || !model.api_key_env) return null;
  const key = env[model.api_key_env];
  if (!key) {
    // The value is printed only when it cannot be a key (models/key-env.ts).
    const site = keyEnvSite(model);
    throw StimkitError.fromProblem({
      code: 'E_RUN_NO_KEY',
      ...(site.file ? { file: site.file, line: site.line } : {}),
      field: oneModel ? '--api-key-env' : site.file ? site.field : `${model.name}.api_key_env`,
      message: `model "${model.name}" reads its API key from ${keyEnvText(model)}, which is not set`,
      fix: `${keyEnvFix(model)} (stimkit reads keys only from the variable ${oneModel ? '--api-key-env names' : 'the models file names'})`,
    });
  }
  return key;
}

/** Run (or, with `dryRun`, only count) a bundle against models. */
export async function runStudy(options: RunOptions): Promise<RunResult | DryRunResult> {
  const started = performance.now();
  const planned = await planRun(options);
  if (options.dryRun) {
    return dryRun(planned.bundle, planned.plan, planned.source, options.budget);
  }
  const env = options.env ?? process.env;
  const apiKeys = new Map(
    planned.models.map((m) => [m.name, apiKeyOf(m, env, planned.source === '--endpoint')]),
  );
  const ledgerFile = options.ledger ?? defaultLedger(options.bundle);
  const db = openLedgerDb(ledgerFile);
  let writerLock: ReturnType<typeof acquireLock> | null = null;
  const stopState: Interrupt = { stopping: false, abort: new AbortController() };
  const abort = stopState.abort;
  setMaxListeners(0, abort.signal); // one listener per request in flight
  let unwatch: (() => void) | null = null;
  let failing = false;
  try {
    writerLock = acquireLock(db, ledgerFile, `stimkit run ${path.basename(options.bundle)}`);
    const sending = {
      retryFailed: options.retryFailed ?? false,
      sendExported: options.sendExported ?? false,
    };
    const images = new ImageStore(options.bundle);
    // --budget: refused here, before anything is sent or written, when the upper estimate does not fit.
    const budget =
      options.budget === undefined
        ? null
        : await checkBudget(
            db,
            continuedRun(db, planned.digest, options.newRun),
            planned.plan,
            sending,
            options.budget,
            images.sent,
            new Map(planned.bundle.trials.map((t) => [t.id, t])),
          );
    const run = openRun(db, ledgerFile, planned, options.newRun);
    const work = pendingWork(db, run, planned.plan, sending);
    const stats = work.map((w) => w.stats);
    const stopping = () => stopState.stopping || budgetReached(budget, stats);
    unwatch = options.handleSigint
      ? watchSigint(stopState, options.graceMs, options.progress?.write)
      : null;
    const redactor = new Redactor([...apiKeys.values()].filter((k): k is string => k !== null));
    const send: SendContext = {
      writer: new LedgerWriter(db, run.run_id, planned.digest, redactor),
      images,
      apiKeys,
      redactor,
      stopping,
      abort: abort.signal,
    };
    await runModels(options, planned, work, send);
    return {
      bundle: options.bundle,
      digest: planned.digest,
      ledger: ledgerFile,
      run: run.label,
      recovered: writerLock.interrupted,
      interrupted: stopState.stopping,
      models: stats,
      ...ledgerTotals(db, run, planned.models),
      budget,
      wallMs: performance.now() - started,
    };
  } catch (err) {
    failing = true;
    throw ioProblem(err, { file: ledgerFile, writing: 'the run ledger' }) ?? err;
  } finally {
    unwatch?.();
    // The first error is the one reported: giving back the writer lock never hides it (ledger/lock.ts).
    closeWriting(db, writerLock, failing);
  }
}

/** What every model's sending shares. */
interface SendContext {
  writer: LedgerWriter;
  images: ImageStore;
  /** Each model's API key (a secret: sent in a header only), or null. */
  apiKeys: Map<string, string | null>;
  redactor: Redactor;
  stopping: () => boolean;
  abort: AbortSignal;
}

/** Send every model's pending trials at once, each under its own concurrency, with progress. */
async function runModels(
  options: RunOptions,
  planned: RunPlan,
  work: ModelWork[],
  send: SendContext,
): Promise<void> {
  const progress = options.progress
    ? startProgress(
        work.map((w) => w.stats),
        options.progress.write,
        options.progress.tty,
        options.progress.intervalMs,
      )
    : null;
  const index = new Map(planned.bundle.trials.map((t) => [t.id, t]));
  // The simulator is loaded only when a model is simulated: a run of real models never needs it.
  const sim = planned.models.some((m) => m.provider === 'sim')
    ? await Promise.all([import('../sim/bundle.js'), import('./sim-run.js')])
    : null;
  const simBundle = sim ? await sim[0].loadSimBundle(planned.bundle.sealed) : null;
  try {
    await Promise.all(
      work.map(({ model, pending, prior, stats: s }) =>
        model.provider === 'sim'
          ? sim![1].runSimModel(model, pending, simBundle!, send.writer, s, prior, send.stopping)
          : runHttpModel({
              model,
              trials: pending,
              writer: send.writer,
              images: send.images,
              apiKey: send.apiKeys.get(model.name) ?? null,
              redactor: send.redactor,
              stats: s,
              priorAttempts: prior,
              maxAttempts: options.maxAttempts ?? 8,
              concurrency: options.concurrency ?? model.concurrency,
              backoff: options.backoff ?? DEFAULT_BACKOFF,
              stopping: send.stopping,
              abort: send.abort,
              index,
            }),
      ),
    );
  } finally {
    progress?.stop();
  }
}

/** The run's cost and who said no, over the whole run (earlier invocations included). */
function ledgerTotals(
  db: Db,
  run: RunRow,
  models: ModelSpec[],
): Pick<RunResult, 'runCost' | 'saidNo'> {
  const names = models.map((m) => m.name);
  return {
    runCost: Object.fromEntries(runCost(db, run.run_id, names)),
    saidNo: ledgerSaidNo(db, run.run_id, names),
  };
}
