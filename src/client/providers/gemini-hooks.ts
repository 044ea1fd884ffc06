/**
 * `provider: gemini`'s hooks. Batch: the Gemini Batch API's JSONL file
 * (https://ai.google.dev/gemini-api/docs/batch-mode, "Input file"), input `{key, request}`, output `{key,
 * response}` or `{key, error: {code, message, status}}` (a google.rpc.Status), recorded under
 * `<endpoint>/v1beta/models/<api_model>:batchGenerateContent`. Refused before sending: a text-only
 * model the study gives image trials. The output limit is the trial's max_tokens unless the
 * mapping drops it.
 */
import { DEFAULT_ENDPOINTS } from '../../models/schema.js';
import { isRecord } from './common.js';
import { httpVerdict, nativeProfile, refuseTextOnly, trialCap } from './hooks-common.js';
import type { BatchFormat, ProviderHooks } from './types.js';

/** HTTP statuses of google.rpc.Status codes (a Gemini batch line's error is one). */
const GRPC_STATUS: Record<number, number> = {
  1: 499,
  2: 500,
  3: 400,
  4: 504,
  5: 404,
  6: 409,
  7: 403,
  8: 429,
  9: 400,
  10: 409,
  11: 400,
  12: 501,
  13: 500,
  14: 503,
  15: 500,
  16: 401,
};

const geminiBatch: BatchFormat = {
  idField: 'key',
  outputShape: 'a Gemini batch output line {key, response | error}',
  line: (id, body) => ({ key: id, request: body }),
  owns: (line) =>
    typeof line.key === 'string' && ('response' in line || 'error' in line || 'status' in line),
  servedOf: (line) => (isRecord(line.response) ? line.response.modelVersion : undefined),
  verdict(line, _raw, read) {
    if (isRecord(line.response)) return httpVerdict(200, line.response, read);
    const e = isRecord(line.error) ? line.error : isRecord(line.status) ? line.status : {};
    const code =
      typeof e.code !== 'number' ? 500 : e.code >= 400 ? e.code : (GRPC_STATUS[e.code] ?? 500);
    return httpVerdict(code, e);
  },
  endpoint: (base, model) =>
    `${base}/v1beta/models/${model.api_model ?? model.name}:batchGenerateContent`,
};

export const geminiHooks: ProviderHooks = {
  defaultEndpoint: DEFAULT_ENDPOINTS.gemini,
  batch: geminiBatch,
  preflight: (model, _trials, imageTrials) => refuseTextOnly(model, imageTrials),
  outputCap: trialCap,
  profile: (model) => nativeProfile(model, { safety_settings: model.safety_settings ?? null }),
};
