/**
 * Pieces the providers' hooks share: reading a batch output line into the verdict a live reply
 * gets (classify.ts), the request profile of the native providers, and their image check.
 */
import type { Trial } from '../../bundle/format.js';
import { StimkitError } from '../../core/errors.js';
import { imageProfile } from '../../models/image.js';
import type { ModelSpec } from '../../models/schema.js';
import { classify, type Verdict } from '../classify.js';
import type { Conversation } from '../conversation.js';
import type { ProviderWire } from './types.js';

/** The verdict of an HTTP status and body, as a live call with them gets it. */
export const httpVerdict = (status: number, value: unknown, read?: ProviderWire['read']): Verdict =>
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

/** A line that holds no result (cancelled, expired, a batch-level error): retried by a rerun. */
export const noResult = (errorClass: string, body: string): Verdict => ({
  kind: 'retry',
  errorClass,
  httpStatus: null,
  body,
  retryAfterMs: null,
});

/** The output limit a trial sets, unless the model's mapping drops it from the request. */
export const trialCap = (conv: Conversation, model: ModelSpec): number | undefined =>
  model.sampling.max_tokens === 'drop' ? undefined : conv.sampling.max_tokens;

/** The image block as the profile records it: absent, the profile is as before (send-image.ts). */
export const imageOf = (model: ModelSpec) =>
  model.image ? { image: imageProfile(model.image) } : {};

/** The request profile of a native provider (`extra`: its own settings). */
export function nativeProfile(
  model: ModelSpec,
  extra: Record<string, unknown>,
): Record<string, unknown> {
  return {
    provider: model.provider,
    api_model: model.api_model ?? model.name,
    sampling: model.sampling,
    extra_body: model.extra_body,
    max_tokens: model.max_tokens ?? null,
    thinking_budget: model.thinking_budget ?? null,
    ...extra,
    ...imageOf(model),
  };
}

/**
 * A native API takes images: a model whose modalities leave out image, which the study's model
 * sets give image trials, is refused (E_RUN_MODALITY) rather than left without them unsaid.
 */
export function refuseTextOnly(model: ModelSpec, imageTrials: () => readonly Trial[]): void {
  if (model.modalities.includes('image')) return;
  const withImages = imageTrials();
  if (withImages.length > 0)
    throw StimkitError.fromProblem({
      code: 'E_RUN_MODALITY',
      field: `${model.name}.modalities`,
      message: `the study gives model "${model.name}" (provider ${model.provider}) ${withImages.length} trial(s) that show an image (e.g. ${withImages[0]!.id}), but its modalities leave out image`,
      expected: 'modalities: [text, image]',
      got: `modalities: [${model.modalities.join(', ')}]`,
      fix: `add image to the modalities of "${model.name}" (the API takes images), or take the model out of the study's image model sets`,
    });
}
