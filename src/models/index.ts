/** The models file (`stimkit.models` v1). */
export { MODELS_FORMAT, MODELS_VERSION, ModelsFile, ModelSpec, SamplingMap } from './schema.js';
export { loadModelsFile, selectModels, shorthandModel } from './load.js';
