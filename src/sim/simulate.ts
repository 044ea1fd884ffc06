/** The simulator. Placeholder: the sim work fills it in. */
import type { SimBundle, SimResponse, Trial } from './index.js';
import type { SimParams } from './schema.js';

export function simulate(_params: SimParams, _modelName: string, _trial: Trial, _bundle: SimBundle): SimResponse {
  throw new Error('simulate is not implemented yet');
}
