/**
 * `stimkit batch export`: the requests `run` would send for one model, as batch input files in
 * its provider's format (formats.ts): OpenAI Batch (`vllm run-batch`, OpenAI-compatible batch
 * APIs), Anthropic Message Batches, or Gemini batch JSONL. Each line's id names its trial and
 * request (`<trial id>-<16 hex>`, request.ts); the lines go into numbered parts within the
 * vendor's limits (parts.ts). Same bodies as `run` (images as data); no credentials.
 */
import { StimkitError } from '../core/errors.js';
import { resolveModels, type ModelChoice } from '../run/model-choice.js';
import { preflight } from '../run/preflight.js';
import { providerOf } from '../client/providers/index.js';
import {
  parseWhere,
  readRunBundle,
  refuseEmptyWhere,
  trialsFor,
  type RunBundle,
} from '../run/select.js';
import { SentImageStore } from '../client/send-image.js';
import { verifiedDigest } from '../run/verified.js';
import type { ModelSpec } from '../models/schema.js';
import { inputLine } from './formats.js';
import { partLimits, writeParts, type PartFile, type PartOptions } from './parts.js';
import { batchRequest, customId } from './request.js';
import { exportableTurns, type HeldTurns } from './turns.js';
import { acquireLock, closeWriting } from '../ledger/lock.js';
import { openLedgerDb } from '../ledger/open.js';
import { ensureRun, insertTrials } from '../ledger/runs.js';
import { finishedTrials } from '../ledger/write.js';
import { emptyTurnState, turnStateOf } from '../ledger/turns.js';
import {
  heldFiles,
  inBatch,
  recordExport,
  refuseOverwrite,
  type ExportedLine,
  type InBatch,
} from '../ledger/batch-exports.js';
import path from 'node:path';
import type { ReadyTurn } from '../run/turns.js';

export interface BatchExportOptions extends ModelChoice, PartOptions {
  bundle: string;
  out: string;
  where?: string;
  limit?: number;
  /**
   * A run ledger: leave out the trials it has a result for, and export a conversation's turn only
   * once the turn before is answered in it (turns.ts). Without it, a conversation's turn 1 only.
   * The export is recorded in it (ledger/batch-exports.ts): `run` holds these trials back until an
   * import reads their output, and a later export leaves them out.
   */
  ledger?: string;
  /** Write again the trials an earlier export to the ledger holds (its batch failed or was never sent). */
  reexport?: boolean;
  /** With `ledger`: start a new run in it, as `run --new-run` (else the latest run, of this bundle). */
  newRun?: string;
}

export interface BatchExportResult {
  out: string;
  model: string;
  provider: string;
  digest: string;
  requests: number;
  /** Each sampling field the requests leave out, with the number of requests that leave it out. */
  dropped: Record<string, number>;
  /** The files written, in order: one, or numbered parts within the vendor's limits. */
  parts: Array<Omit<PartFile, 'sha256'>>;
  /** The limits the parts were cut at. */
  part_limits: { requests: number; bytes: number };
  /** Conversation turns not exported in this round (turns.ts). */
  held: HeldTurns;
  /**
   * Trials left out because an earlier export to the ledger holds them and no import has read
   * their output (`--reexport` writes them again); with the files of those exports.
   */
  in_batch: { trials: number; files: string[] };
  /** The ledger the export is recorded in (null without --ledger: nothing recorded). */
  recorded_in: string | null;
  warnings: string[];
}

function refuseSim(model: ModelSpec, modelsFile: string | undefined): void {
  if (model.provider !== 'sim') return;
  throw StimkitError.fromProblem({
    code: 'E_BATCH_SIM',
    file: modelsFile,
    entry: model.name,
    message: `model "${model.name}" is simulated: there is no request to send to a batch API`,
    expected: 'provider: openai, anthropic or gemini',
    got: `provider: ${model.provider}`,
    fix: 'simulate it with stimkit run instead',
  });
}

/** E_BATCH_USAGE for options that do not go together. */
function refuseUsage(o: BatchExportOptions): void {
  if (!o.modelNames || o.modelNames.length !== 1)
    throw StimkitError.usage(
      'E_BATCH_USAGE',
      'batch export writes one model per file: give exactly one --model NAME',
      'run batch export once per model, each with its own --model NAME and --out FILE',
    );
  if ((o.reexport || o.newRun !== undefined) && !o.ledger)
    throw StimkitError.usage(
      'E_BATCH_USAGE',
      `${o.reexport ? '--reexport writes again what an earlier export recorded' : '--new-run starts a run'} in a ledger: give --ledger FILE`,
      'add --ledger FILE (the ledger the output will be imported into)',
    );
}

/** Write the batch input file(s) for one model. */
export async function batchExport(o: BatchExportOptions): Promise<BatchExportResult> {
  refuseUsage(o);
  const digest = await verifiedDigest(o.bundle);
  const bundle = await readRunBundle(o.bundle, digest);
  const { models, anyModel } = await resolveModels(o);
  const model = models[0]!;
  refuseSim(model, o.modelsFile);
  const provider = providerOf(model);
  const limits = partLimits(provider.name, o);
  const where = parseWhere(o.where ?? '');
  const trials = trialsFor(bundle, model, where, o.limit, anyModel);
  refuseEmptyWhere(bundle, [model], where, trials.length, anyModel);
  preflight(bundle, [{ model, trials }], anyModel);
  const led = o.ledger ? openExportLedger(o.ledger, digest, bundle, model.name, o.newRun) : null;
  let failing = false;
  try {
    const inBatchNow = led && !o.reexport ? led.inBatch : new Map<string, InBatch>();
    const { ready, held } = exportableTurns(
      trials,
      bundle.trials,
      led?.state ?? emptyTurnState(),
      inBatchNow,
    );
    const { parts, dropped } = await writeExport(o, model, ready, led);
    const inBatchOf = trials.filter((t) => inBatchNow.has(t.id));
    return {
      out: o.out,
      model: model.name,
      provider: provider.name,
      digest,
      requests: ready.length,
      dropped,
      parts: parts.map(({ file, requests, bytes }) => ({ file, requests, bytes })),
      part_limits: limits,
      held,
      in_batch: {
        trials: inBatchOf.length,
        files: heldFiles(inBatchOf.map((t) => inBatchNow.get(t.id)!)),
      },
      recorded_in: led && parts.length > 0 ? o.ledger! : null,
      warnings: led
        ? []
        : [
            'no --ledger: nothing records that these requests are in a batch file, so a `stimkit run` would send them again (and pay them twice): pass --ledger FILE, the ledger you will import the output into',
          ],
    };
  } catch (err) {
    failing = true;
    throw err;
  } finally {
    // The first error is the one reported: closing the ledger never hides it.
    led?.close(failing);
  }
}

/**
 * Write the lines of `ready` into the parts of `--out`, recorded in the ledger (when there is one)
 * before the files take their names: a file on disk is always one the ledger holds. A file an
 * earlier export still holds is never overwritten with less (refuseOverwrite).
 */
async function writeExport(
  o: BatchExportOptions,
  model: ModelSpec,
  ready: ReadyTurn[],
  led: ExportLedger | null,
): Promise<{ parts: PartFile[]; dropped: Record<string, number> }> {
  const provider = providerOf(model);
  // Recorded as an absolute path: `run` and the next export name it from any folder.
  const outFile = path.resolve(o.out);
  if (led)
    refuseOverwrite(led.db, outFile, {
      runId: led.runId,
      model: model.name,
      keys: new Set(ready.map((r) => r.trial.id)),
    });
  const store = new SentImageStore(o.bundle);
  const dropped: Record<string, number> = {};
  const written: ExportedLine[] = [];
  async function* lines() {
    for (const { trial: t, earlier } of ready) {
      const r = await batchRequest(provider, t, model, store, earlier);
      for (const f of r.dropped) dropped[f] = (dropped[f] ?? 0) + 1;
      const id = customId(t.id, r);
      written.push({ trialId: t.id, customId: id });
      yield [id, `${JSON.stringify(inputLine(provider.name, id, r.body))}\n`] as const;
    }
  }
  const commit = led
    ? (n: number) =>
        recordExport(led.db, led.runId, model.name, { file: outFile, parts: n, lines: written })
    : undefined;
  const limits = partLimits(provider.name, o);
  return { parts: await writeParts(o.out, limits, lines(), commit), dropped };
}

/** A ledger an export is recorded in (openExportLedger). */
type ExportLedger = ReturnType<typeof openExportLedger>;

/**
 * The export's ledger: opened for writing under the writer lock, with the run `run` and `batch
 * import` continue (the latest run, which must be of this bundle), or a new run `newRun`.
 */
function openExportLedger(
  file: string,
  digest: string,
  bundle: RunBundle,
  model: string,
  newRun: string | undefined,
) {
  const db = openLedgerDb(file);
  let lock: ReturnType<typeof acquireLock> | null = null;
  try {
    lock = acquireLock(db, file, `stimkit batch export --model ${model}`, { claim: true });
    const runId = ensureRun(db, file, digest, bundle.studyId, newRun).run_id;
    insertTrials(db, runId, bundle.trials);
    const held = lock;
    // A trial another writer has in flight (a run forced past the lock) is its own: left out too.
    const state = turnStateOf(db, runId, model);
    for (const id of finishedTrials(db, runId, model, false)) state.finished.add(id);
    return {
      db,
      runId,
      state,
      inBatch: inBatch(db, runId, model),
      close: (failing: boolean) => closeWriting(db, held, failing),
    };
  } catch (err) {
    closeWriting(db, lock, true);
    throw err;
  }
}
