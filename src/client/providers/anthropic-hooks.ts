/**
 * `provider: anthropic`'s hooks. Batch: Message Batches (the official SDK's
 * `BatchCreateParams.Request` and `MessageBatchIndividualResponse`,
 * https://platform.claude.com/docs/en/api/messages/batches): input `{custom_id, params}`, output
 * `{custom_id, result: {type: succeeded, message} | {type: errored, error} | {type: canceled} |
 * {type: expired}}`, recorded under
 * `<endpoint>/v1/messages/batches`. Refused before sending: trials without max_tokens when the
 * model sets none (the Messages API requires it, E_RUN_MAX_TOKENS), and a text-only model the
 * study gives image trials. The output limit is max_tokens plus the thinking budget.
 */
import { StimkitError } from '../../core/errors.js';
import { DEFAULT_ENDPOINTS } from '../../models/schema.js';
import { anthropicLimits } from './anthropic.js';
import { isRecord } from './common.js';
import { httpVerdict, nativeProfile, noResult, refuseTextOnly } from './hooks-common.js';
import type { BatchFormat, ProviderHooks } from './types.js';

/** HTTP statuses of Anthropic's error types (https://docs.anthropic.com/en/api/errors). */
const ANTHROPIC_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

const anthropicBatch: BatchFormat = {
  idField: 'custom_id',
  outputShape: 'a Message Batches result line {custom_id, result: {type, message | error}}',
  line: (id, body) => ({ custom_id: id, params: body }),
  owns: (line) => typeof line.custom_id === 'string' && isRecord(line.result),
  servedOf: (line) =>
    isRecord(line.result) && isRecord(line.result.message) ? line.result.message.model : undefined,
  verdict(line, raw, read) {
    const r = isRecord(line.result) ? line.result : {};
    if (r.type === 'succeeded') return httpVerdict(200, r.message, read);
    if (r.type === 'errored') {
      const inner = isRecord(r.error) && isRecord(r.error.error) ? r.error.error : r.error;
      const type = isRecord(inner) ? String(inner.type) : 'api_error';
      return httpVerdict(ANTHROPIC_STATUS[type] ?? 500, r.error);
    }
    return noResult(`batch_${typeof r.type === 'string' ? r.type : 'unknown'}`, raw);
  },
  endpoint: (base) => `${base}/v1/messages/batches`,
};

export const anthropicHooks: ProviderHooks = {
  defaultEndpoint: DEFAULT_ENDPOINTS.anthropic,
  batch: anthropicBatch,
  preflight(model, trials, imageTrials) {
    if (model.max_tokens === undefined) {
      const without = trials.filter((t) => t.sampling.max_tokens === undefined);
      if (without.length > 0)
        throw StimkitError.fromProblem({
          code: 'E_RUN_MAX_TOKENS',
          field: `${model.name}.max_tokens`,
          message: `model "${model.name}" is provider anthropic, whose Messages API requires max_tokens, and ${without.length} of its trials set none (e.g. ${without[0]!.id})`,
          expected: 'max_tokens in the study sampling or in the models file',
          got: 'neither',
          fix: `add max_tokens: 1024 (or the limit you want) to model "${model.name}" in the models file`,
        });
    }
    refuseTextOnly(model, imageTrials);
  },
  // Thinking is billed as output: the limit sent is max_tokens plus the thinking budget.
  outputCap: (conv, model) => anthropicLimits(conv, model).max_tokens,
  profile: (model) => nativeProfile(model, { anthropic_version: model.anthropic_version }),
};
