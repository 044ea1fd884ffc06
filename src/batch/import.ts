/**
 * `stimkit batch import`: the output file of a batch run, in the model's provider's format
 * (formats.ts: OpenAI Batch / `vllm run-batch`, Anthropic Message Batches results, Gemini batch
 * JSONL), recorded into a ledger exactly once. A file in another provider's format is refused
 * before anything is recorded. Each line is classified as `run` classifies a reply; a trial that already
 * has a result is left alone, and a line seen before (same bytes) is not recorded again, so a
 * second import changes nothing. Lists the selected trials still without a result.
 */
import { readFile } from 'node:fs/promises';
import type { Trial } from '../bundle/format.js';
import { StimkitError } from '../core/errors.js';
import { addBatchSentAndCost } from '../run/batch-cost.js';
import { acquireLock } from '../ledger/lock.js';
import { openLedgerDb, type Db } from '../ledger/open.js';
import { ensureRun, insertTrials, registerModel } from '../ledger/runs.js';
import { attemptCounts, finishedTrials, LedgerWriter } from '../ledger/write.js';
import { ModelSpec } from '../models/schema.js';
import { resolveModels } from '../run/model-choice.js';
import { Redactor } from '../core/redact.js';
import { providerOf, type Provider } from '../run/providers/index.js';
import { requestProfile } from '../run/request.js';
import { readRunBundle, trialsFor } from '../run/select.js';
import { verifiedDigest } from '../run/verified.js';
import { formatOf, servedOf } from './formats.js';
import { readLines } from './import-lines.js';
import { checkServedModel } from './served-model.js';

export interface BatchImportOptions {
  file: string;
  bundle: string;
  model: string;
  ledger: string;
  /** Optional models file: records the request profile and hashes, and selects the model's trials. */
  modelsFile?: string;
  newRun?: string;
  env?: NodeJS.ProcessEnv;
}

export interface BatchImportResult {
  file: string;
  ledger: string;
  model: string;
  lines: number;
  recorded: number;
  outcomes: Record<string, number>;
  /** Lines whose trial already had a result, or seen in an earlier import. */
  skipped: number;
  /** Lines that gave no final result (infrastructure errors), by class. */
  errors: Record<string, number>;
  unknown: string[];
  missing: string[];
}

type BatchLine = Record<string, unknown>;

/** The parsed lines of an output file, by 1-based line number (unparsable lines are reported later). */
function parsedLines(text: string): Array<{ line: number; value: unknown }> {
  const out: Array<{ line: number; value: unknown }> = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    try {
      out.push({ line: i + 1, value: JSON.parse(raw) });
    } catch {
      // reported with its line when the file is recorded
    }
  });
  return out;
}

/**
 * Refuse (E_BATCH_FORMAT) an output file whose lines are in another provider's format. Without a
 * models file the model is taken as provider openai, so the fix asks for `--models FILE`.
 */
function checkFormat(
  file: string,
  model: string,
  provider: Provider,
  text: string,
  modelsFile: string | undefined,
): void {
  const other = parsedLines(text)
    .map((l) => ({ ...l, format: formatOf(l.value) }))
    .find((l) => l.format !== provider.name);
  if (!other) return;
  throw StimkitError.fromProblem({
    code: 'E_BATCH_FORMAT',
    file,
    line: other.line,
    message: `this line is ${other.format ? `in the ${other.format} batch output format` : 'in no known batch output format'}, but model "${model}" is provider ${provider.name}${modelsFile ? '' : ' (no --models file: taken as provider openai)'}; nothing recorded`,
    expected: {
      openai: 'an OpenAI Batch output line {custom_id, response: {status_code, body}, error}',
      anthropic: 'a Message Batches result line {custom_id, result: {type, message | error}}',
      gemini: 'a Gemini batch output line {key, response | error}',
    }[provider.name],
    got: other.format ?? 'another shape',
    fix:
      modelsFile || !other.format || other.format === 'openai'
        ? 'import the output file of this model’s batch (the one its batch export file went to), under the --model it was exported for'
        : `pass --models FILE, the models file that names "${model}" as provider ${other.format} (it was exported with one), with the same --model`,
  });
}

/** Record a batch output file into a ledger. */
export async function batchImport(o: BatchImportOptions): Promise<BatchImportResult> {
  const digest = await verifiedDigest(o.bundle);
  const bundle = await readRunBundle(o.bundle, digest);
  const model = await importedModel(o);
  const provider = providerOf(model);
  const trials = trialsFor(bundle, model, [], undefined, !o.modelsFile);
  // Only the model's own trials (its model set, modalities and paradigms): a line of any other
  // trial of the bundle is not recorded as this model's answer.
  const byId = new Map(trials.map((t) => [t.id, t]));
  const text = await readOutput(o, model, provider);
  const key = model.api_key_env ? (o.env ?? process.env)[model.api_key_env] : undefined;
  const redactor = new Redactor(key ? [key] : []);
  const db = openLedgerDb(o.ledger);
  const lock = (() => {
    try {
      return acquireLock(db, o.ledger, `stimkit batch import ${o.file}`);
    } catch (err) {
      db.close();
      throw err;
    }
  })();
  try {
    const { runId, ...state } = openImport(db, o, digest, bundle.studyId, bundle.trials, model);
    const writer = new LedgerWriter(db, runId, digest, redactor);
    const res: BatchImportResult = {
      file: o.file,
      ledger: o.ledger,
      model: model.name,
      lines: 0,
      recorded: 0,
      outcomes: {},
      skipped: 0,
      errors: {},
      unknown: [],
      missing: [],
    };
    const rows = readLines(
      text,
      {
        file: o.file,
        model,
        provider,
        withModels: Boolean(o.modelsFile),
        byId,
        ...state,
      },
      res,
    );
    // An error class comes from the file (`batch_error:<code>`): printed, so redacted like the ledger.
    res.errors = Object.fromEntries(
      Object.entries(res.errors).map(([cls, n]) => [redactor.redact(cls), n]),
    );
    // What each result sent and cost, as batch export made it (run/batch-cost.ts).
    if (o.modelsFile) await addBatchSentAndCost(rows, byId, model, o.bundle);
    writer.recordMany(rows);
    res.missing = trials.filter((t) => !state.done.has(t.id)).map((t) => t.id);
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

/** The output file's text, refused when it is in another provider's format or served by another model. */
async function readOutput(
  o: BatchImportOptions,
  model: ModelSpec,
  provider: Provider,
): Promise<string> {
  const text = await readFile(o.file, 'utf8').catch((err) => {
    throw StimkitError.fromProblem(
      {
        code: 'E_BATCH_READ',
        file: o.file,
        message: `cannot read the batch output (${(err as Error).message})`,
        fix: 'pass the output file of the batch run',
      },
      err,
    );
  });
  checkFormat(o.file, model.name, provider, text, o.modelsFile);
  checkServedModel(
    o.file,
    model.name,
    model.api_model ?? model.name,
    parsedLines(text).map((l) => ({
      line: l.line,
      served: servedOf(provider.name, l.value as BatchLine),
    })),
    o.modelsFile,
  );
  return text;
}
