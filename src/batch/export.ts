/**
 * `stimkit batch export`: the requests `run` would send for one model, as a batch input file in
 * its provider's format (formats.ts): OpenAI Batch (`vllm run-batch`, OpenAI-compatible batch
 * APIs), Anthropic Message Batches, or Gemini batch JSONL; the trial id is each line's id. Same
 * bodies as `run` (images as data); no credentials.
 */
import { StimkitError } from '../core/errors.js';
import { writeFileAtomic } from '../core/fsio.js';
import { ImageStore } from '../run/images.js';
import { resolveModels, type ModelChoice } from '../run/model-choice.js';
import { preflight } from '../run/preflight.js';
import { providerOf } from '../run/providers/index.js';
import { parseWhere, readRunBundle, refuseEmptyWhere, trialsFor } from '../run/select.js';
import { verifiedDigest } from '../run/verified.js';

import { inputLine } from './formats.js';

export interface BatchExportOptions extends ModelChoice {
  bundle: string;
  out: string;
  where?: string;
  limit?: number;
}

export interface BatchExportResult {
  out: string;
  model: string;
  provider: string;
  digest: string;
  requests: number;
  dropped: string[];
}

/** Write the batch input file for one model. */
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
  if (model.provider === 'sim') {
    throw StimkitError.fromProblem({
      code: 'E_BATCH_SIM',
      file: o.modelsFile,
      entry: model.name,
      message: `model "${model.name}" is simulated: there is no request to send to a batch API`,
      expected: 'provider: openai, anthropic or gemini',
      got: `provider: ${model.provider}`,
      fix: 'simulate it with stimkit run instead',
    });
  }
  const where = parseWhere(o.where ?? '');
  const trials = trialsFor(bundle, model, where, o.limit, anyModel);
  refuseEmptyWhere(bundle, [model], where, trials.length, anyModel);
  preflight(bundle, [{ model, trials }], anyModel);
  const provider = providerOf(model);
  const images = new ImageStore(o.bundle);
  const lines: string[] = [];
  let dropped: string[] = [];
  for (const t of trials) {
    const built = provider.build(t, model);
    dropped = built.dropped;
    // The image bytes this model is sent under its image block, as run sends them (send-image.ts).
    const { body } = await images.sent.materialize(built.body, model.image, provider.imageStyle);
    lines.push(`${JSON.stringify(inputLine(provider.name, t.id, body))}\n`);
  }
  await writeFileAtomic(o.out, lines.join(''));
  return {
    out: o.out,
    model: model.name,
    provider: provider.name,
    digest,
    requests: trials.length,
    dropped,
  };
}
