/**
 * Checks of the native providers' requests before anything is sent: the Anthropic Messages API
 * requires `max_tokens`, so every trial of an anthropic model needs one (its own or the model's);
 * a native model that the study's model sets give image trials must take images.
 */
import type { Trial } from '../bundle/format.js';
import { StimkitError } from '../core/errors.js';
import type { ModelSpec } from '../models/schema.js';
import { trialsFor, type RunBundle } from './select.js';

/** Refuse (exit 1) a plan a native provider cannot send; a no-op for openai and sim models. */
export function preflight(
  bundle: RunBundle,
  plan: Array<{ model: ModelSpec; trials: Trial[] }>,
  anyModel: boolean,
): void {
  for (const { model, trials } of plan) {
    if (model.provider === 'anthropic' && model.max_tokens === undefined) {
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
    if (
      (model.provider === 'anthropic' || model.provider === 'gemini') &&
      !model.modalities.includes('image')
    ) {
      const withImages = trialsFor(
        bundle,
        { ...model, modalities: ['text', 'image'] },
        [],
        undefined,
        anyModel,
      ).filter((t) => t.images.length > 0);
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
  }
}
