/**
 * The batch file formats of each provider, one line per request:
 *
 * | provider | input line (export) | output line (import) |
 * | --- | --- | --- |
 * | openai | `{custom_id, method, url, body}` (OpenAI Batch, `vllm run-batch`) | `{custom_id, response: {status_code, body}, error}` |
 * | anthropic | `{custom_id, params}` (Message Batches request) | `{custom_id, result: {type: succeeded, message} \| {type: errored, error} \| {type: canceled} \| {type: expired}}` |
 * | gemini | `{key, request}` (Batch API JSONL input file) | `{key, response}` or `{key, error: {code, message, status}}` |
 *
 * An output line is read into the same verdict a live reply gets (classify.ts and each
 * provider's reader), so a batch result is recorded exactly as `run` records it.
 */
import type { BatchCreateParams } from 'openai/resources/batches';
import { classify, type Verdict } from '../client/classify.js';
import type { Provider } from '../client/providers/index.js';

/** The URL every OpenAI batch line names (vLLM run-batch and the OpenAI Batch API). */
const BATCH_URL = '/v1/chat/completions' satisfies BatchCreateParams['endpoint'];

type Line = Record<string, unknown>;
const isObj = (v: unknown): v is Line => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One input line for a request body (images already materialized). */
export function inputLine(provider: Provider['name'], id: string, body: unknown): Line {
  if (provider === 'anthropic') return { custom_id: id, params: body };
  if (provider === 'gemini') return { key: id, request: body };
  return { custom_id: id, method: 'POST', url: BATCH_URL, body } satisfies OpenAIBatchLine;
}

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

/** Which provider's output format a parsed line is in, or null when it is none of them. */
export function formatOf(line: unknown): Provider['name'] | null {
  if (!isObj(line)) return null;
  if (typeof line.custom_id === 'string' && isObj(line.result)) return 'anthropic';
  if (typeof line.key === 'string' && ('response' in line || 'error' in line || 'status' in line))
    return 'gemini';
  if (typeof line.custom_id === 'string' && ('response' in line || 'error' in line))
    return 'openai';
  return null;
}

/** The request id of an output line. */
export function idOf(provider: Provider['name'], line: Line): string | undefined {
  const id = provider === 'gemini' ? line.key : line.custom_id;
  return typeof id === 'string' ? id : undefined;
}

/** The model that served an output line, when the line says. */
export function servedOf(provider: Provider['name'], line: Line): unknown {
  if (provider === 'anthropic')
    return isObj(line.result) && isObj(line.result.message) ? line.result.message.model : undefined;
  if (provider === 'gemini') return isObj(line.response) ? line.response.modelVersion : undefined;
  const body = isObj(line.response) ? line.response.body : undefined;
  return isObj(body) ? body.model : undefined;
}

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

const http = (status: number, value: unknown, read?: Provider['read']): Verdict =>
  classify(
    {
      kind: 'http',
      status,
      text: typeof value === 'string' ? value : JSON.stringify(value ?? null),
      retryAfterMs: null,
      latencyMs: 0,
    },
    read,
  );

const noResult = (errorClass: string, body: string): Verdict => ({
  kind: 'retry',
  errorClass,
  httpStatus: null,
  body,
  retryAfterMs: null,
});

/** The verdict of one output line of `provider`'s format. */
export function lineVerdict(provider: Provider, line: Line, raw: string): Verdict {
  if (provider.name === 'anthropic') {
    const r = isObj(line.result) ? line.result : {};
    if (r.type === 'succeeded')
      return http(200, r.message, (json: unknown, status: number) => provider.read(json, status));
    if (r.type === 'errored') {
      const inner = isObj(r.error) && isObj(r.error.error) ? r.error.error : r.error;
      const type = isObj(inner) ? String(inner.type) : 'api_error';
      return http(ANTHROPIC_STATUS[type] ?? 500, r.error);
    }
    return noResult(`batch_${typeof r.type === 'string' ? r.type : 'unknown'}`, raw);
  }
  if (provider.name === 'gemini') {
    if (isObj(line.response))
      return http(200, line.response, (json: unknown, status: number) =>
        provider.read(json, status),
      );
    const e = isObj(line.error) ? line.error : isObj(line.status) ? line.status : {};
    const code =
      typeof e.code !== 'number' ? 500 : e.code >= 400 ? e.code : (GRPC_STATUS[e.code] ?? 500);
    return http(code, e);
  }
  const response = isObj(line.response) ? line.response : null;
  const status = response?.status_code;
  if (response && typeof status === 'number')
    return http(status, response.body, (json: unknown, status: number) =>
      provider.read(json, status),
    );
  const error = isObj(line.error) ? line.error : {};
  return noResult(
    `batch_error${typeof error.code === 'string' ? `:${error.code}` : ''}`,
    typeof error.message === 'string' ? error.message : raw,
  );
}
