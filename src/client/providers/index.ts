/** The HTTP providers by name, each its wire pieces and its hooks, and each model's endpoints. */
import { StimkitError } from '../../core/errors.js';
import type { ModelSpec } from '../../models/schema.js';
import { anthropic } from './anthropic.js';
import { anthropicHooks } from './anthropic-hooks.js';
import { gemini } from './gemini.js';
import { geminiHooks } from './gemini-hooks.js';
import { openai } from './openai.js';
import { openaiHooks } from './openai-hooks.js';
import type { BatchLine, Provider } from './types.js';

export type { BatchLine, Provider } from './types.js';

/** The providers, in the order a batch output line's format is recognised (formatOf). */
const PROVIDERS: Record<Provider['name'], Provider> = {
  anthropic: { ...anthropic, ...anthropicHooks },
  gemini: { ...gemini, ...geminiHooks },
  openai: { ...openai, ...openaiHooks },
};

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

/** The provider of a name (a batch file's format, a judge's default). */
export const providerNamed = (name: Provider['name']): Provider => PROVIDERS[name];

/** Which provider's batch output format a parsed line is in, or null when it is none of them. */
export function formatOf(line: unknown): Provider['name'] | null {
  if (typeof line !== 'object' || line === null || Array.isArray(line)) return null;
  const found = Object.values(PROVIDERS).find((p) => p.batch.owns(line as BatchLine));
  return found ? found.name : null;
}

/** A model's endpoints: its list, its one URL, or the native provider's public endpoint. */
export function endpointsOf(model: ModelSpec): string[] {
  if (Array.isArray(model.endpoint)) return model.endpoint;
  if (model.endpoint) return [model.endpoint];
  const fallback = model.provider === 'sim' ? null : PROVIDERS[model.provider].defaultEndpoint;
  return fallback ? [fallback] : [];
}

/**
 * The settings of a model that shape its requests (what a rerun must keep to resume a run): its
 * provider's profile; a simulated respondent's, its parameters (it sends no request).
 */
export function requestProfile(model: ModelSpec): Record<string, unknown> {
  if (model.provider === 'sim') return { provider: 'sim', sim: model.sim ?? {} };
  return PROVIDERS[model.provider].profile(model);
}
