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
import { parseWhere, readRunBundle, refuseEmptyWhere, trialsFor } from '../run/select.js';
import { SentImageStore } from '../client/send-image.js';
import { verifiedDigest } from '../run/verified.js';
import type { ModelSpec } from '../models/schema.js';
import { inputLine } from './formats.js';
import { partLimits, writeParts, type PartFile, type PartOptions } from './parts.js';
import { batchRequest, customId } from './request.js';
import { exportableTurns, type HeldTurns } from './turns.js';
import type { ReadyTurn } from '../run/turns.js';

export interface BatchExportOptions extends ModelChoice, PartOptions {
  bundle: string;
  out: string;
  where?: string;
  limit?: number;
  /**
   * A run ledger: leave out the trials it has a result for, and export a conversation's turn only
   * once the turn before is answered in it (turns.ts). Without it, a conversation's turn 1 only.
   */
  ledger?: string;
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

/** Write the batch input file(s) for one model. */
export async function batchExport(o: BatchExportOptions): Promise<BatchExportResult> {
  if (!o.modelNames || o.modelNames.length !== 1)
    throw StimkitError.usage(
      'E_BATCH_USAGE',
      'batch export writes one model per file: give exactly one --model NAME',
      'run batch export once per model, each with its own --model NAME and --out FILE',
    );
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
  const store = new SentImageStore(o.bundle);
  const dropped: Record<string, number> = {};
  const { ready, held } = exportableTurns(
    trials,
    bundle.trials,
    o.ledger ? { file: o.ledger, digest, model: model.name } : null,
  );
  async function* lines(list: ReadyTurn[]) {
    for (const { trial: t, earlier } of list) {
      const r = await batchRequest(provider, t, model, store, earlier);
      for (const f of r.dropped) dropped[f] = (dropped[f] ?? 0) + 1;
      const id = customId(t.id, r);
      yield [id, `${JSON.stringify(inputLine(provider.name, id, r.body))}\n`] as const;
    }
  }
  const parts = await writeParts(o.out, limits, lines(ready));
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
  };
}
