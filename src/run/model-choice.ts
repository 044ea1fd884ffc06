/** The models of a run: from a models file (`--models`, narrowed by `--model`) or the one-model shorthand. */
import { StimkitError } from '../core/errors.js';
import { loadModelsFile, selectModels, shorthandModel } from '../models/load.js';
import type { ModelSpec } from '../models/schema.js';

/** How the models were chosen. */
export interface ModelChoice {
  modelsFile?: string;
  /** `--model NAME,…` */
  modelNames?: string[];
  /** `--endpoint URL` (the shorthand: one model, every selected trial). */
  endpoint?: string;
  apiModel?: string;
  apiKeyEnv?: string;
}

/** Resolve the models; `anyModel` is true for the shorthand, which ignores the study's model sets. */
export async function resolveModels(
  c: ModelChoice,
): Promise<{ models: ModelSpec[]; anyModel: boolean; source: string }> {
  if (c.endpoint !== undefined) {
    if (c.modelsFile)
      throw StimkitError.usage(
        'E_RUN_USAGE',
        'give either --models FILE or the one-model shorthand --model NAME --endpoint URL, not both',
        'drop --endpoint to use the models file, or drop --models to use the shorthand',
      );
    if (!c.modelNames || c.modelNames.length !== 1)
      throw StimkitError.usage(
        'E_RUN_USAGE',
        '--endpoint needs exactly one --model NAME',
        'give one --model NAME with --endpoint, or use a models file (--models) for several',
      );
    return {
      models: [shorthandModel(c.modelNames[0]!, c.endpoint, c.apiModel, c.apiKeyEnv)],
      anyModel: true,
      source: '--endpoint',
    };
  }
  if (c.apiModel !== undefined || c.apiKeyEnv !== undefined)
    throw StimkitError.usage(
      'E_RUN_USAGE',
      '--api-model and --api-key-env go with --endpoint (in a models file, set api_model and api_key_env)',
      'add --model NAME --endpoint URL, or set api_model and api_key_env in the models file',
    );
  if (!c.modelsFile)
    throw StimkitError.usage(
      'E_RUN_USAGE',
      'which models? give --models FILE, or --model NAME --endpoint URL for one model',
      'add --models FILE (`stimkit init` writes one), or --model NAME --endpoint URL',
    );
  const file = await loadModelsFile(c.modelsFile);
  return {
    models: selectModels(file.models, c.modelNames, c.modelsFile),
    anyModel: false,
    source: c.modelsFile,
  };
}
