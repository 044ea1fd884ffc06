/** The models file (`stimkit.models` v1). */
export { loadModelsFile } from './load.js';
