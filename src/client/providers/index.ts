/** The HTTP providers by name, and each model's endpoints. */
import { StimkitError } from '../../core/errors.js';
import { DEFAULT_ENDPOINTS, type ModelSpec } from '../../models/schema.js';
import { anthropic } from './anthropic.js';
import { gemini } from './gemini.js';
import { openai } from './openai.js';
import type { Provider } from './types.js';

export type { Provider } from './types.js';

const PROVIDERS: Record<Provider['name'], Provider> = { openai, anthropic, gemini };

/** The provider of an HTTP model (not `sim`). */
export function providerOf(model: ModelSpec): Provider {
  if (model.provider === 'sim')
    throw new StimkitError(
      'E_RUN_PROVIDER',
      `model "${model.name}" is simulated: it has no HTTP provider`,
      {
        fix: 'run simulated models without an endpoint (the sim provider), or give this model an HTTP provider',
      },
    );
  return PROVIDERS[model.provider];
}

/** A model's endpoints: its list, its one URL, or the native provider's public endpoint. */
export function endpointsOf(model: ModelSpec): string[] {
  if (Array.isArray(model.endpoint)) return model.endpoint;
  if (model.endpoint) return [model.endpoint];
  if (model.provider === 'anthropic' || model.provider === 'gemini')
    return [DEFAULT_ENDPOINTS[model.provider]];
  return [];
}
