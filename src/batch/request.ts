/**
 * A model's batch request for one trial, the same for `batch export` and `batch import`: the body
 * `run` sends (images as the bytes the model's image block makes, send-image.ts), and its
 * `custom_id`, `<trial id>-<first 16 hex of the request sha256>`, where the request sha256 is the
 * sha256 of the body exactly as the line carries it (UTF-8 JSON, images as data). So the id names
 * everything the vendor was sent: the api_model, sampling, extra_body, routing, the prompt and the
 * image bytes (the image block's max_side, format and quality). Import rebuilds the request from
 * the models file it is given and refuses an output line whose id names another request.
 */
import { sha256 } from '../core/fsio.js';
import type { Trial } from '../bundle/format.js';
import { withEarlierTurns, type EarlierTurn } from '../client/conversation.js';
import type { ModelSpec } from '../models/schema.js';
import { recordedEndpoint } from '../client/send.js';
import { endpointsOf, providerNamed, type Provider } from '../client/providers/index.js';
import type { SentImage, SentImageStore } from '../client/send-image.js';

/** A trial's request as a batch line sends it. */
export interface BatchRequest {
  /** The body (images as data), as the line carries it. */
  body: unknown;
  /** The request hash `run` records (images as references), and the fields left out. */
  requestSha256: string;
  dropped: string[];
  sent: SentImage[];
  /** sha256 of the body as the line carries it. */
  sentSha256: string;
}

/** The request of `trial` for `model` (a later turn: after its `earlier` turns), with the bytes sent. */
export async function batchRequest(
  provider: Provider,
  trial: Trial,
  model: ModelSpec,
  store: SentImageStore,
  earlier: readonly EarlierTurn[] = [],
): Promise<BatchRequest> {
  const built = provider.build(withEarlierTurns(trial, earlier), model);
  const { body, sent } = await store.materialize(built.body, model.image, provider.imageStyle);
  return {
    body,
    requestSha256: built.sha256,
    dropped: built.dropped,
    sent,
    sentSha256: sha256(JSON.stringify(body)),
  };
}

/** The custom_id (Gemini: key) of a trial's request. */
export const customId = (trialId: string, r: Pick<BatchRequest, 'sentSha256'>): string =>
  `${trialId}-${r.sentSha256.slice(0, 16)}`;

const ID_RE = /^(.+)-([0-9a-f]{16})$/;

/** The trial id and request hash (16 hex) an output line's id names; `request` null for a bare trial id (older exports). */
export function parseCustomId(id: string): { trialId: string; request: string | null } {
  const m = ID_RE.exec(id);
  return m ? { trialId: m[1]!, request: m[2]! } : { trialId: id, request: null };
}

/**
 * The route a batch result is recorded under (the result's `endpoint`): the vendor's batch
 * endpoint at the model's endpoint (the first, without credentials) — OpenAI Batch
 * `<endpoint>/batches`, Anthropic `<endpoint>/v1/messages/batches`, Gemini
 * `<endpoint>/v1beta/models/<api_model>:batchGenerateContent` — so its rows are grouped apart
 * from the live calls of the same endpoint and name the vendor. Null when the model has no endpoint.
 */
export function batchEndpoint(model: ModelSpec, provider: Provider['name']): string | null {
  const first = endpointsOf(model)[0];
  if (!first) return null;
  const base = recordedEndpoint(first).replace(/(?<!\/)\/+$/, '');
  return providerNamed(provider).batch.endpoint(base, model);
}
