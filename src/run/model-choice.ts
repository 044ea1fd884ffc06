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
      );
    if (!c.modelNames || c.modelNames.length !== 1)
      throw StimkitError.usage('E_RUN_USAGE', '--endpoint needs exactly one --model NAME');
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
    );
  if (!c.modelsFile)
    throw StimkitError.usage(
      'E_RUN_USAGE',
      'which models? give --models FILE, or --model NAME --endpoint URL for one model',
    );
  const file = await loadModelsFile(c.modelsFile);
  return {
    models: selectModels(file.models, c.modelNames, c.modelsFile),
    anyModel: false,
    source: c.modelsFile,
  };
}
