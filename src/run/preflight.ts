/**
 * Checks of a plan before anything is sent: each model's provider refuses what its vendor would
 * refuse (its `preflight` hook: the Anthropic Messages API requires `max_tokens`; a native API
 * takes images, so a text-only native model the study gives image trials is refused).
 */
import type { Trial } from '../bundle/format.js';
import type { ModelSpec } from '../models/schema.js';
import { providerOf } from '../client/providers/index.js';
import { trialsFor, type RunBundle } from './select.js';

/** Refuse (exit 1) a plan a provider cannot send; simulated models send nothing. */
export function preflight(
  bundle: RunBundle,
  plan: Array<{ model: ModelSpec; trials: Trial[] }>,
  anyModel: boolean,
): void {
  for (const { model, trials } of plan) {
    if (model.provider === 'sim') continue;
    const imageTrials = () =>
      trialsFor(
        bundle,
        { ...model, modalities: ['text', 'image'] },
        [],
        undefined,
        anyModel,
      ).filter((t) => t.images.length > 0);
    providerOf(model).preflight(model, trials, imageTrials);
  }
}
