/**
 * The batch file formats of each provider, one line per request (each provider's `batch` hook,
 * src/client/providers/*-hooks.ts, says how its lines look):
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
import type { Verdict } from '../client/classify.js';
import { providerNamed, type BatchLine, type Provider } from '../client/providers/index.js';

export { formatOf } from '../client/providers/index.js';

/** One input line for a request body (images already materialized). */
export const inputLine = (provider: Provider['name'], id: string, body: unknown): BatchLine =>
  providerNamed(provider).batch.line(id, body);

/** The request id of an output line. */
export function idOf(provider: Provider['name'], line: BatchLine): string | undefined {
  const id = line[providerNamed(provider).batch.idField];
  return typeof id === 'string' ? id : undefined;
}

/** The model that served an output line, when the line says. */
export const servedOf = (provider: Provider['name'], line: BatchLine): unknown =>
  providerNamed(provider).batch.servedOf(line);

/** The verdict of one output line of `provider`'s format. */
export const lineVerdict = (provider: Provider, line: BatchLine, raw: string): Verdict =>
  provider.batch.verdict(line, raw, (json: unknown, status: number) => provider.read(json, status));
