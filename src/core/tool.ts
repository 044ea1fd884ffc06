/** The tool's own name, version and install folder, as recorded in artifacts. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The package root (the folder with package.json), from src/core, dist/core or dist/app (the
 * bundle) alike.
 */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  name: string;
  version: string;
};

export const TOOL = { name: pkg.name, version: pkg.version } as const;
