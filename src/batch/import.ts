/**
 * `stimkit batch import`: the output files of a batch run (every part of an export, in any
 * order, each once: parts.ts), in the model's provider's format (formats.ts: OpenAI Batch /
 * `vllm run-batch`, Anthropic Message Batches results, Gemini batch JSONL), recorded into a
 * ledger exactly once, as `run` records a live reply. Every line of every file is checked first
 * (import-check.ts: format, served model, the request each id names), streamed, so a refused file
 * records nothing and memory stays bounded; then the lines are streamed again and recorded
 * (import-lines.ts). A trial that already has a result is left alone, and a line seen before (same
 * bytes) is not recorded again, so a second import changes nothing. The later turns of a
 * conversation whose turn ended without an answer are recorded as not sent (turns.ts). Lists the
 * selected trials still without a result.
 */
import type { Trial } from '../bundle/format.js';
import { StimkitError } from '../core/errors.js';
import { acquireLock } from '../ledger/lock.js';
import { openLedgerDb, type Db } from '../ledger/open.js';
import { ensureRun, insertTrials, registerModel } from '../ledger/runs.js';
import { attemptCounts, finishedTrials, LedgerWriter } from '../ledger/write.js';
import { ModelSpec } from '../models/schema.js';
import { resolveModels } from '../run/model-choice.js';
import { Redactor, redactedError } from '../core/redact.js';
import { providerOf, requestProfile } from '../client/providers/index.js';
import { readRunBundle, trialsFor, type RunBundle } from '../run/select.js';
import { SentImageStore } from '../client/send-image.js';
import { verifiedDigest } from '../run/verified.js';
import { checkOutputs } from './import-check.js';
import { recordLines } from './import-lines.js';
import { checkPartSet } from './parts.js';
import { batchEndpoint } from './request.js';
import { earlierFromLedger, recordTurnsNotSent } from './turns.js';
import { inBatch, markImported } from '../ledger/batch-exports.js';

export interface BatchImportOptions {
  /** The output files: every part of one export, in any order, each once. */
  files: string[];
  bundle: string;
  model: string;
  ledger: string;
  /** Optional models file: records the request profile and hashes, and selects the model's trials. */
  modelsFile?: string;
  /** The export's input files: a changed request is named setting by setting from them. */
  requests?: string[];
  newRun?: string;
  /** Some parts of the export only (E_BATCH_PARTS allows a missing part). */
  partial?: boolean;
  env?: NodeJS.ProcessEnv;
}

export interface BatchImportResult {
  files: string[];
  ledger: string;
  model: string;
  lines: number;
  recorded: number;
  outcomes: Record<string, number>;
  /** Lines whose trial already had a result, or seen in an earlier import. */
  skipped: number;
  /**
   * Later turns of conversations recorded as not sent by this import (a turn before them ended
   * without an answer: ledger `unsent_turns`, as `run` records them).
   */
  not_sent: number;
  /** Lines that gave no final result (infrastructure errors), by class. */
  errors: Record<string, number>;
  unknown: string[];
  missing: string[];
  /**
   * Of `missing`, the trials an export to this ledger holds that no file imported so far answers:
   * still in a batch (`batch export --reexport` writes them again, `run --send-exported` sends them).
   */
  in_batch: number;
  /** What could not be checked (bare trial ids of an older export, no models file). */
  warnings: string[];
}

/** The warnings of an import: what it could not check. */
function warningsOf(o: BatchImportOptions, bareIds: number): string[] {
  const out: string[] = [];
  if (!o.modelsFile)
    out.push(
      'no --models file: the request each line answers cannot be checked, and its request hash, dropped fields, sent images, cost and route are not recorded (pass --models FILE, the file the batch was exported with)',
    );
  else if (bareIds > 0)
    out.push(
      `${bareIds} line(s) name a bare trial id (an export before ids named their request): the request they answered cannot be checked against the models file, so a change of the api_model, sampling, extra_body, routing or image block since the export would go unnoticed; they are recorded as answering the request this models file makes`,
    );
  return out;
}

/**
 * Record the output files of a batch into a ledger. The files are a vendor's: what an error or
 * the result quotes of them (a served model name, an unknown custom_id) is redacted of the
 * model's key, as the ledger is.
 */
export async function batchImport(o: BatchImportOptions): Promise<BatchImportResult> {
  const digest = await verifiedDigest(o.bundle);
  const bundle = await readRunBundle(o.bundle, digest);
  const model = await importedModel(o);
  const key = model.api_key_env ? (o.env ?? process.env)[model.api_key_env] : undefined;
  const redactor = new Redactor(key ? [key] : []);
  try {
    const res = await importFiles(o, { digest, bundle, model }, redactor);
    // Printed: redacted like the ledger (an error class and an id come from the file).
    res.errors = Object.fromEntries(
      Object.entries(res.errors).map(([cls, n]) => [redactor.redact(cls), n]),
    );
    res.unknown = res.unknown.map((id) => redactor.redact(id));
    return res;
  } catch (err) {
    throw redactedError(err, redactor);
  }
}

/** `batchImport` once the bundle and the model are known. */
async function importFiles(
  o: BatchImportOptions,
  { digest, bundle, model }: { digest: string; bundle: RunBundle; model: ModelSpec },
  redactor: Redactor,
): Promise<BatchImportResult> {
  const provider = providerOf(model);
  const trials = trialsFor(bundle, model, [], undefined, !o.modelsFile);
  // Only the model's own trials (its model set, modalities and paradigms): a line of any other
  // trial of the bundle is not recorded as this model's answer.
  const byId = new Map(trials.map((t) => [t.id, t]));
  await checkPartSet(o.files, { partial: o.partial });
  const store = new SentImageStore(o.bundle);
  // A conversation's later turn is checked as the conversation so far, from this ledger (turns.ts).
  const earlierOf = earlierFromLedger(bundle.trials, {
    file: o.ledger,
    digest,
    model: model.name,
    label: o.newRun,
  });
  const ctx = {
    model,
    provider,
    modelsFile: o.modelsFile,
    byId,
    store,
    requests: o.requests,
    earlierOf,
  };
  const checked = await checkOutputs(o.files, ctx);
  const db = openLedgerDb(o.ledger);
  const lock = (() => {
    try {
      return acquireLock(db, o.ledger, `stimkit batch import ${o.files.join(' ')}`);
    } catch (err) {
      db.close();
      throw err;
    }
  })();
  try {
    const { runId, ...state } = openImport(db, o, digest, bundle.studyId, bundle.trials, model);
    const writer = new LedgerWriter(db, runId, digest, redactor);
    const res: BatchImportResult = {
      files: o.files,
      ledger: o.ledger,
      model: model.name,
      lines: 0,
      recorded: 0,
      outcomes: {},
      skipped: 0,
      not_sent: 0,
      errors: {},
      unknown: [],
      missing: [],
      in_batch: 0,
      warnings: warningsOf(o, checked.bareIds),
    };
    const endpoint = o.modelsFile ? batchEndpoint(model, provider.name) : null;
    const read = new Set<string>();
    await recordLines(o.files, { ...ctx, ...state, checked, endpoint, read }, writer, res);
    // Their batch is back: a trial left without a result (an error line) may be sent or exported again.
    markImported(db, runId, model.name, read);
    // The turns after one without an answer: not sent, as a live run records them (turns.ts).
    const index = new Map(bundle.trials.map((t) => [t.id, t]));
    for (const u of recordTurnsNotSent(db, runId, model.name, trials, index)) {
      state.done.add(u.trial_id);
      res.not_sent++;
    }
    res.missing = trials.filter((t) => !state.done.has(t.id)).map((t) => t.id);
    const held = inBatch(db, runId, model.name);
    res.in_batch = res.missing.filter((id) => held.has(id)).length;
    return res;
  } finally {
    lock.release();
    db.close();
  }
}

/** Open (or continue) the run for the model, and read what the ledger already holds of it. */
function openImport(
  db: Db,
  o: BatchImportOptions,
  digest: string,
  studyId: string | null,
  trials: Trial[],
  model: ModelSpec,
): { runId: number; done: Set<string>; prior: Map<string, number>; seenLines: Set<string> } {
  const run = ensureRun(db, o.ledger, digest, studyId, o.newRun);
  insertTrials(db, run.run_id, trials);
  registerModel(
    db,
    o.ledger,
    run,
    model.name,
    model.provider,
    o.modelsFile ? requestProfile(model) : null,
    {
      api_model: model.api_model ?? model.name,
      origin: model.origin ?? null,
      vendor: model.vendor ?? null,
      source: 'batch',
    },
  );
  const done = finishedTrials(db, run.run_id, model.name, false);
  const prior = attemptCounts(db, run.run_id, model.name);
  const seenLines = new Set(
    db
      .prepare("SELECT endpoint FROM attempts WHERE run_id = ? AND model = ? AND source = 'batch'")
      .pluck()
      .all(run.run_id, model.name) as string[],
  );
  return { runId: run.run_id, done, prior, seenLines };
}

/** The model the output file is imported under: from the models file, or by name alone. */
async function importedModel(o: BatchImportOptions): Promise<ModelSpec> {
  const model: ModelSpec = o.modelsFile
    ? (await resolveModels({ modelsFile: o.modelsFile, modelNames: [o.model] })).models[0]!
    : ModelSpec.parse({ name: o.model, endpoint: 'http://batch.invalid/v1' });
  if (model.provider === 'sim')
    throw StimkitError.fromProblem({
      code: 'E_BATCH_SIM',
      file: o.modelsFile,
      entry: model.name,
      message: `model "${model.name}" is simulated: it has no batch output to import`,
      fix: 'simulate it with stimkit run instead',
    });
  return model;
}
