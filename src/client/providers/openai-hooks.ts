/**
 * `provider: openai`'s hooks. Batch: the OpenAI Batch format (`vllm run-batch` reads it too), input
 * `{custom_id, method, url, body}`, output `{custom_id, response: {status_code, body}, error}`,
 * recorded under `<endpoint>/batches`. Nothing is refused before sending (a server's limits are its
 * own); the output limit is the trial's max_tokens unless the mapping drops it.
 */
import type { BatchCreateParams } from 'openai/resources/batches';
import { isRecord } from './common.js';
import { httpVerdict, imageOf, noResult, trialCap } from './hooks-common.js';
import type { BatchFormat, ProviderHooks } from './types.js';

/** The URL every OpenAI batch line names (vLLM run-batch and the OpenAI Batch API). */
const BATCH_URL = '/v1/chat/completions' satisfies BatchCreateParams['endpoint'];

/**
 * A line of an OpenAI Batch input file: `url` one of the endpoints the `openai` SDK's
 * BatchCreateParams names (a wrong one fails tsc); the body is checked by the contract test.
 */
interface OpenAIBatchLine {
  custom_id: string;
  method: 'POST';
  url: BatchCreateParams['endpoint'];
  body: unknown;
}

const openaiBatch: BatchFormat = {
  idField: 'custom_id',
  outputShape: 'an OpenAI Batch output line {custom_id, response: {status_code, body}, error}',
  line: (id, body) =>
    ({ custom_id: id, method: 'POST', url: BATCH_URL, body }) satisfies OpenAIBatchLine,
  owns: (line) => typeof line.custom_id === 'string' && ('response' in line || 'error' in line),
  servedOf(line) {
    const body = isRecord(line.response) ? line.response.body : undefined;
    return isRecord(body) ? body.model : undefined;
  },
  verdict(line, raw, read) {
    const response = isRecord(line.response) ? line.response : null;
    const status = response?.status_code;
    if (response && typeof status === 'number') return httpVerdict(status, response.body, read);
    const error = isRecord(line.error) ? line.error : {};
    return noResult(
      `batch_error${typeof error.code === 'string' ? `:${error.code}` : ''}`,
      typeof error.message === 'string' ? error.message : raw,
    );
  },
  endpoint: (base) => `${base}/batches`,
};

export const openaiHooks: ProviderHooks = {
  defaultEndpoint: null,
  batch: openaiBatch,
  preflight() {},
  outputCap: trialCap,
  profile: (model) => ({
    provider: 'openai',
    api_model: model.api_model ?? model.name,
    sampling: model.sampling,
    extra_body: model.extra_body,
    // The image block shapes the bytes sent; absent, the profile is as before (send-image.ts).
    ...imageOf(model),
    // A pinned OpenRouter route; absent, the profile is as before.
    ...(model.routing ? { routing: model.routing } : {}),
  }),
};
