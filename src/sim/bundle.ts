/** Reads what the simulator needs from a bundle folder. Placeholder: the sim work fills it in. */
import type { SimBundle } from './index.js';

export async function loadSimBundle(_bundleDir: string, _digest: string): Promise<SimBundle> {
  throw new Error('loadSimBundle is not implemented yet');
}
