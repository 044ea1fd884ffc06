/**
 * `stimkit run`: verify the bundle, pick each model's trials, and send those without a final
 * result into the ledger (SQLite), all models at once, each under its own concurrency. The
 * ledger is the only state: rerunning the same command continues where it stopped.
 */
import { setMaxListeners } from 'node:events';
import path from 'node:path';
import type { Trial } from '../bundle/format.js';
import { StimkitError } from '../core/errors.js';
import { acquireLock } from '../ledger/lock.js';
import { openLedgerDb } from '../ledger/open.js';
import { ensureRun, insertTrials, registerModel } from '../ledger/runs.js';
import { attemptCounts, finishedTrials, LedgerWriter } from '../ledger/write.js';
import type { ModelSpec } from '../models/schema.js';
import { loadSimBundle } from '../sim/index.js';
import { verifiedDigest } from './verified.js';
import { DEFAULT_BACKOFF, type Backoff } from './backoff.js';
import { budgetReached, checkBudget, continuedRun, runCost, type Budget } from './budget.js';
import { dryRun, type DryRunResult } from './dry-run.js';
import { ImageStore } from './images.js';
import { runHttpModel } from './model-run.js';
import { resolveModels, type ModelChoice } from './model-choice.js';
import { startProgress } from './progress.js';
import { Redactor } from '../core/redact.js';
import { requestProfile } from './request.js';
import { parseWhere, readRunBundle, refuseEmptyWhere, trialsFor } from './select.js';
import { ledgerSaidNo, type SaidNoCounts } from './said-no.js';
import { runSimModel } from './sim-run.js';
import { newStats, type ModelStats } from './stats.js';
import { preflight } from './preflight.js';

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

/** `oneModel`: the model came from `--model NAME --endpoint URL` (flags), not a models file. */
function keyOf(model: ModelSpec, env: NodeJS.ProcessEnv, oneModel: boolean): string | null {
  if (model.provider === 'sim' || !model.api_key_env) return null;
  const key = env[model.api_key_env];
  if (!key) {
    throw StimkitError.fromProblem({
      code: 'E_RUN_NO_KEY',
      field: oneModel ? '--api-key-env' : `${model.name}.api_key_env`,
      message: `model "${model.name}" reads its API key from $${model.api_key_env}, which is not set`,
      fix: `export ${model.api_key_env}=… in this shell (stimkit reads keys only from the variable ${oneModel ? '--api-key-env names' : 'the models file names'})`,
    });
  }
  return key;
}

/** Run (or, with `dryRun`, only count) a bundle against models. */
export async function runStudy(options: RunOptions): Promise<RunResult | DryRunResult> {
  const started = performance.now();
  const digest = await verifiedDigest(options.bundle);
  const bundle = await readRunBundle(options.bundle, digest);
  const { models, anyModel, source } = await resolveModels(options);
  const where = parseWhere(options.where ?? '');
  const plan = models.map((m) => ({
    model: m,
    trials: trialsFor(bundle, m, where, options.limit, anyModel),
  }));
  refuseEmptyWhere(
    bundle,
    models,
    where,
    plan.reduce((n, p) => n + p.trials.length, 0),
    anyModel,
  );
  preflight(bundle, plan, anyModel);
  if (options.dryRun) return dryRun(bundle, plan, source, options.budget);

  const env = options.env ?? process.env;
  const keys = new Map(models.map((m) => [m.name, keyOf(m, env, source === '--endpoint')]));
  const redactor = new Redactor([...keys.values()].filter((k): k is string => k !== null));
  const ledgerFile = options.ledger ?? defaultLedger(options.bundle);
  const db = openLedgerDb(ledgerFile);
  let lock: ReturnType<typeof acquireLock> | null = null;
  const stopState = { stopping: false };
  const abort = new AbortController();
  setMaxListeners(0, abort.signal); // one listener per request in flight
  let onSigint: (() => void) | null = null;
  try {
    lock = acquireLock(db, ledgerFile, `stimkit run ${path.basename(options.bundle)}`);
    const images = new ImageStore(options.bundle);
    // --budget: refused here, before anything is sent or written, when the upper estimate does not fit.
    const budget =
      options.budget === undefined
        ? null
        : await checkBudget(
            db,
            continuedRun(db, digest, options.newRun),
            plan,
            options.retryFailed ?? false,
            options.budget,
            images.sent,
          );
    const run = ensureRun(db, ledgerFile, digest, bundle.studyId, options.newRun);
    insertTrials(db, run.run_id, bundle.trials);
    for (const m of models) {
      registerModel(
        db,
        ledgerFile,
        run,
        m.name,
        m.provider,
        requestProfile(m),
        {
          api_model: m.api_model ?? m.name,
          origin: m.origin ?? null,
          vendor: m.vendor ?? null,
          revision: m.revision ?? null,
          modalities: m.modalities,
          role: m.role,
          ...(m.price ? { price: m.price } : {}), // what priced the results (cost.ts)
        },
        source === '--endpoint' ? 'flags' : 'models file',
      );
    }
    const writer = new LedgerWriter(db, run.run_id, digest, redactor);
    const work = plan.map(({ model, trials }) => {
      const finished = finishedTrials(db, run.run_id, model.name, options.retryFailed ?? false);
      const pending: Trial[] = trials.filter((t) => !finished.has(t.id));
      return {
        model,
        pending,
        prior: attemptCounts(db, run.run_id, model.name),
        stats: newStats(
          model.name,
          model.provider,
          trials.length,
          trials.length - pending.length,
          pending.length,
        ),
      };
    });
    const stats = work.map((w) => w.stats);
    const stopping = () => stopState.stopping || budgetReached(budget, stats);
    if (options.handleSigint) {
      let presses = 0;
      onSigint = () => {
        presses++;
        stopState.stopping = true;
        options.progress?.write(
          `\nstimkit run: stopping — no new requests; waiting up to ${Math.round((options.graceMs ?? 30_000) / 1000)} s for those in flight (Ctrl-C again to abort them)\n`,
        );
        if (presses > 1) abort.abort();
        else setTimeout(() => abort.abort(), options.graceMs ?? 30_000).unref();
      };
      process.on('SIGINT', onSigint);
    }
    const progress = options.progress
      ? startProgress(
          stats,
          options.progress.write,
          options.progress.tty,
          options.progress.intervalMs,
        )
      : null;
    const simBundle = models.some((m) => m.provider === 'sim')
      ? await loadSimBundle(options.bundle, digest)
      : null;
    try {
      await Promise.all(
        work.map(({ model, pending, prior, stats: s }) =>
          model.provider === 'sim'
            ? runSimModel(model, pending, simBundle!, writer, s, prior, stopping)
            : runHttpModel({
                model,
                trials: pending,
                writer,
                images,
                apiKey: keys.get(model.name) ?? null,
                redactor,
                stats: s,
                priorAttempts: prior,
                maxAttempts: options.maxAttempts ?? 8,
                concurrency: options.concurrency ?? model.concurrency,
                backoff: options.backoff ?? DEFAULT_BACKOFF,
                stopping,
                abort: abort.signal,
              }),
        ),
      );
    } finally {
      progress?.stop();
    }
    return {
      bundle: options.bundle,
      digest,
      ledger: ledgerFile,
      run: run.label,
      recovered: lock.interrupted,
      interrupted: stopState.stopping,
      models: stats,
      runCost: Object.fromEntries(
        runCost(
          db,
          run.run_id,
          models.map((m) => m.name),
        ),
      ),
      budget,
      saidNo: ledgerSaidNo(
        db,
        run.run_id,
        models.map((m) => m.name),
      ),
      wallMs: performance.now() - started,
    };
  } finally {
    if (onSigint) process.off('SIGINT', onSigint);
    lock?.release();
    db.close();
  }
}
