/**
 * `stimkit batch export`: the requests `run` would send for one model, as an OpenAI Batch input
 * file (one JSON object per line: `custom_id` = trial id, `method`, `url`, `body`), which
 * `vllm run-batch` and hosted batch APIs accept. Same bodies as `run` (images as data URLs);
 * no credentials.
 */
import { StimkitError } from '../core/errors.js';
import { writeFileAtomic } from '../core/fsio.js';
import { ImageStore } from '../run/images.js';
import { resolveModels, type ModelChoice } from '../run/model-choice.js';
import { buildRequest } from '../run/request.js';
import { parseWhere, readRunBundle, refuseEmptyWhere, trialsFor } from '../run/select.js';
import { verifiedDigest } from '../run/verified.js';

/** The URL every batch line names (vLLM run-batch and the OpenAI Batch API). */
export const BATCH_URL = '/v1/chat/completions';

export interface BatchExportOptions extends ModelChoice {
  bundle: string;
  out: string;
  where?: string;
  limit?: number;
}

export interface BatchExportResult {
  out: string;
  model: string;
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
    );
  const digest = await verifiedDigest(o.bundle);
  const bundle = await readRunBundle(o.bundle, digest);
  const { models, anyModel } = await resolveModels(o);
  const model = models[0]!;
  if (model.provider !== 'openai') {
    throw StimkitError.fromProblem({
      code: 'E_BATCH_SIM',
      file: o.modelsFile,
      entry: model.name,
      message: `model "${model.name}" is simulated: there is no request to send to a batch API`,
      expected: 'provider: openai',
      got: `provider: ${model.provider}`,
      fix: 'simulate it with stimkit run instead',
    });
  }
  const where = parseWhere(o.where ?? '');
  const trials = trialsFor(bundle, model, where, o.limit, anyModel);
  refuseEmptyWhere(bundle, [model], where, trials.length, anyModel);
  const images = new ImageStore(o.bundle);
  const lines: string[] = [];
  let dropped: string[] = [];
  for (const t of trials) {
    const built = buildRequest(t, model);
    dropped = built.dropped;
    lines.push(
      `${JSON.stringify({ custom_id: t.id, method: 'POST', url: BATCH_URL, body: await images.materialize(built.body) })}\n`,
    );
  }
  await writeFileAtomic(o.out, lines.join(''));
  return { out: o.out, model: model.name, digest, requests: trials.length, dropped };
}
