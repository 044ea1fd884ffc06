/**
 * Where the isnet segmenter finds onnxruntime-node and the model package. An installed stimkit
 * keeps them in its own `isnet/` folder, installed by its postinstall (scripts/install-isnet.mjs)
 * with their install scripts off; a clone has them as devDependencies in its node_modules.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../core/tool.js';

/** The runtime folder of an installed stimkit. */
const ISNET_RUNTIME_DIR = path.join(PACKAGE_ROOT, 'isnet');

/** What to run when the runtime is missing from an installed stimkit (reruns its postinstall). */
export const ISNET_REINSTALL =
  '`npm rebuild -g stimkit` (`npm rebuild stimkit` in a project; `npm install` in a clone)';

/** A `require` that resolves the isnet runtime's packages: from `isnet/` when installed there. */
export function isnetRequire(): NodeJS.Require {
  return existsSync(path.join(ISNET_RUNTIME_DIR, 'node_modules'))
    ? createRequire(path.join(ISNET_RUNTIME_DIR, 'package.json'))
    : createRequire(import.meta.url);
}
