/**
 * Bundle the compiled command line (dist/cli/main.js) and the variants worker
 * (dist/variants/pool/worker.js) into dist/app/, which bin/stimkit.js runs. Run by
 * `npm run build` after tsc, and by the tests' global setup.
 *
 * Why: Node.js 20 loads an ES module graph file by file (resolve, read, compile), with no compile
 * cache. stimkit's own modules (65 for `stimkit variants`) and zod's (95) cost a command 50–110 ms
 * of start-up on the main thread before it works. One file per entry and one per lazily loaded
 * command (esbuild's code splitting keeps each `import()` lazy, so a command still loads only its
 * own stage) cut that to a few reads.
 *
 * Only stimkit's code and the small pure ES module packages in INLINE are bundled. Every other
 * package stays external, loaded from node_modules as before: the native ones (sharp,
 * better-sqlite3, onnxruntime-node), the CommonJS ones, and those that find files of their own.
 *
 * The bundle lies two folders below the package root, as each compiled module does
 * (dist/<folder>/<file>.js), so a path a module takes relative to its own file (the package root,
 * core/tool.ts) is the same from either. Same inputs, same bytes: the output is written only when
 * it differs, into a new folder that then takes the old one's place; either way its modules.json
 * ends newer than dist/build.tsbuildinfo, which tells bin/stimkit.js the bundle is current.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));
const outDir = path.join(root, 'dist', 'app');
// tsc writes src/<folder> to dist/<folder>: a source folder of this name would be overwritten.
if (existsSync(path.join(root, 'src', 'app'))) {
  process.stderr.write(
    'bundle: src/app/ exists, and dist/app/ is where the bundle goes: rename one\n',
  );
  process.exit(1);
}

/** Packages compiled into the bundle: pure ES modules, no files of their own read at run time. */
const INLINE = new Set(['zod', 'p-map', 'canonicalize']);

const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const external = [
  ...Object.keys(pkg.dependencies ?? {}),
  ...Object.keys(pkg.devDependencies ?? {}),
].filter((name) => !INLINE.has(name));

const result = await build({
  absWorkingDir: root,
  entryPoints: { main: 'dist/cli/main.js', worker: 'dist/variants/pool/worker.js' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outdir: outDir,
  chunkNames: '[name]-[hash]',
  external,
  write: false,
  metafile: true,
  logLevel: 'warning',
});

/** The files as they are on disk now, relative to outDir. */
function current() {
  if (!existsSync(outDir)) return new Map();
  return new Map(readdirSync(outDir).map((f) => [f, readFileSync(path.join(outDir, f))]));
}

const files = new Map(result.outputFiles.map((f) => [path.relative(outDir, f.path), f.contents]));
// modules.json: each output file's modules (package-relative paths: dist/…, node_modules/…), so
// that a test can tell which of stimkit's modules a command loaded (test/cli/startup.test.ts).
const modules = Object.fromEntries(
  Object.entries(result.metafile.outputs)
    .map(([file, out]) => [
      path.relative(outDir, path.join(root, file)),
      Object.keys(out.inputs).sort(),
    ])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
);
files.set('modules.json', new TextEncoder().encode(`${JSON.stringify(modules, null, 1)}\n`));
const onDisk = current();
const same =
  onDisk.size === files.size &&
  [...files].every(([name, bytes]) => onDisk.get(name)?.equals(Buffer.from(bytes)) === true);
if (same) {
  // Newer than the compile it bundles: bin/stimkit.js runs dist/ itself when dist/app/ is older.
  const t = new Date();
  utimesSync(path.join(outDir, 'modules.json'), t, t);
} else {
  const next = `${outDir}.next-${process.pid}`;
  const old = `${outDir}.old-${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  mkdirSync(next, { recursive: true });
  for (const [name, bytes] of files) writeFileSync(path.join(next, name), bytes);
  if (existsSync(outDir)) renameSync(outDir, old);
  renameSync(next, outDir);
  rmSync(old, { recursive: true, force: true });
}
