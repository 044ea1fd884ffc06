#!/usr/bin/env node
/**
 * The type check and ESLint in one process, on one TypeScript program:
 * `node scripts/typed-checks.mjs [--typecheck] [--lint] [--root <folder>]` (both checks when
 * neither is named).
 *
 * - The type check is `tsc -p tsconfig.json --noEmit` made incremental: its state is kept in
 *   .cache/checks/ (typed.tsbuildinfo; typecheck.tsbuildinfo for a type check alone), and a rerun
 *   checks only the files a change can affect.
 * - ESLint (every file `eslint .` lints, with eslint.config.js) is given that same program
 *   (typescript-eslint's `parserOptions.programs`) instead of building its own through the project
 *   service, so the typed rules reuse the types the type check has already computed.
 * - ESLint's results are kept per file in .cache/checks/eslint.json. A file is linted again when
 *   its bytes changed, when the type check says its types may have changed (a file it depends on
 *   changed what it exports: TypeScript's own test for re-checking a file), or when the lint's
 *   configuration or installed packages changed; every other file's result is read from the
 *   cache. The cache names the type-check state it was made with (the build info's sha256) and is
 *   dropped when that state is not the one on disk, so the two cannot drift apart.
 *
 * Exits 1 when the type check reports an error or ESLint reports anything (`--max-warnings 0`).
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';

/** The project checked: this repository, or the folder after `--root` (the tests' small ones). */
const ROOT = path.resolve(
  process.argv.includes('--root')
    ? process.argv[process.argv.indexOf('--root') + 1]
    : path.join(import.meta.dirname, '..'),
);
const CACHE_DIR = path.join(ROOT, '.cache', 'checks');
const LINTING = !process.argv.includes('--typecheck') || process.argv.includes('--lint');
const TYPECHECK = !process.argv.includes('--lint') || process.argv.includes('--typecheck');
/** The type check's state; a type check alone keeps its own, so the lint's stays in step. */
const BUILD_INFO = path.join(CACHE_DIR, LINTING ? 'typed.tsbuildinfo' : 'typecheck.tsbuildinfo');
const LINT_CACHE = path.join(CACHE_DIR, 'eslint.json');
/** What ESLint's results depend on besides the linted file and its types (a missing one too). */
const LINT_INPUTS = [
  'eslint.config.js',
  'eslint-layers.js',
  'tsconfig.json',
  'node_modules/.package-lock.json',
].map((f) => path.join(ROOT, f));
/** The extensions `eslint .` lints with eslint.config.js (ESLint's and typescript-eslint's). */
const LINTED = /\.(?:[cm]?js|[cm]?ts|tsx)$/;

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** Write a file whole: a temporary file in the same folder, then a rename. */
function writeAtomic(file, text) {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/** The program of tsconfig.json, incremental from the last run's state. */
function createProgram() {
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail([d]) };
  const options = { noEmit: true, incremental: true, tsBuildInfoFile: BUILD_INFO };
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, 'tsconfig.json'),
    options,
    host,
  );
  return ts.createIncrementalProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
    host: ts.createIncrementalCompilerHost(parsed.options),
  });
}

const formatHost = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => ROOT,
  getNewLine: () => '\n',
};

function fail(diagnostics) {
  process.stdout.write(ts.formatDiagnostics(diagnostics, formatHost));
  process.exit(1);
}

/**
 * The files whose types may have changed since the last run (all of them when the whole program
 * is affected, e.g. on the first run), found the way `tsc --incremental` finds what to re-check.
 */
function affectedFiles(builder) {
  const files = new Set();
  let all = false;
  for (let next; (next = builder.getSemanticDiagnosticsOfNextAffectedFile());) {
    if ('fileName' in next.affected) files.add(path.resolve(next.affected.fileName));
    else all = true; // the whole program
  }
  return { all, files };
}

/** The type check's diagnostics, in the order and with the short cuts of `tsc`. */
function typeDiagnostics(builder) {
  const diagnostics = [...builder.getConfigFileParsingDiagnostics()];
  const base = diagnostics.length;
  diagnostics.push(...builder.getSyntacticDiagnostics());
  if (diagnostics.length === base) {
    diagnostics.push(...builder.getOptionsDiagnostics(), ...builder.getGlobalDiagnostics());
    if (diagnostics.length === base) diagnostics.push(...builder.getSemanticDiagnostics());
  }
  return diagnostics;
}

/** Every file `eslint .` would lint: the linted extensions, less what the config ignores. */
async function lintedFiles(eslint) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === '.git') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && LINTED.test(entry.name)) found.push(full);
    }
  };
  walk(ROOT);
  const ignored = await Promise.all(found.map((f) => eslint.isPathIgnored(f)));
  return found.filter((_, i) => !ignored[i]).sort();
}

function readLintCache(key) {
  try {
    const cache = JSON.parse(readFileSync(LINT_CACHE, 'utf8'));
    const buildInfo = existsSync(BUILD_INFO) ? sha256(readFileSync(BUILD_INFO)) : null;
    if (cache.key === key && cache.buildInfo === buildInfo) return cache.files;
  } catch {
    // No cache, or one this version cannot read: every file is linted.
  }
  return {};
}

/** ESLint's results for every file, linting again only what may have changed. */
async function lint(builder, affected) {
  const program = builder.getProgram();
  const eslint = new ESLint({
    cwd: ROOT,
    overrideConfig: [
      {
        files: ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'],
        languageOptions: { parserOptions: { projectService: false, programs: [program] } },
      },
    ],
  });
  const inputs = [...LINT_INPUTS, import.meta.filename];
  const key = sha256(inputs.map((f) => (existsSync(f) ? sha256(readFileSync(f)) : '-')).join());
  const cached = affected.all ? {} : readLintCache(key);
  const files = await lintedFiles(eslint);
  const hashes = Object.fromEntries(files.map((f) => [f, sha256(readFileSync(f))]));
  const stale = files.filter(
    (f) => affected.files.has(f) || cached[path.relative(ROOT, f)]?.sha256 !== hashes[f],
  );
  const fresh = stale.length > 0 ? await eslint.lintFiles(stale) : [];
  const byFile = new Map(fresh.map((r) => [r.filePath, r]));
  const results = files.map(
    (f) => byFile.get(f) ?? { ...cached[path.relative(ROOT, f)].result, filePath: f },
  );
  return { eslint, key, files, hashes, results, linted: stale.length };
}

function saveLintCache({ key, files, hashes, results }, buildInfo) {
  const entries = results.map((r, i) => {
    const { source: _source, output: _output, ...result } = r;
    return [path.relative(ROOT, files[i]), { sha256: hashes[files[i]], result }];
  });
  const cache = { key, buildInfo, files: Object.fromEntries(entries) };
  writeAtomic(LINT_CACHE, `${JSON.stringify(cache)}\n`);
}

/** Write the type check's state: the lint cache first, naming it, then the build info itself. */
function saveState(builder, linted) {
  let text = null;
  builder.emit(undefined, (file, data) => {
    if (path.resolve(file) === BUILD_INFO) text = data;
  });
  if (text === null) return;
  if (linted) saveLintCache(linted, sha256(text));
  writeAtomic(BUILD_INFO, text);
}

async function main() {
  const builder = createProgram();
  const affected = affectedFiles(builder);
  let ok = true;
  if (TYPECHECK) {
    const diagnostics = typeDiagnostics(builder);
    process.stdout.write(ts.formatDiagnostics(diagnostics, formatHost));
    ok = !diagnostics.some((d) => d.category === ts.DiagnosticCategory.Error);
  }
  let linted = null;
  if (LINTING) {
    linted = await lint(builder, affected);
    const formatter = await linted.eslint.loadFormatter('stylish');
    const report = await formatter.format(linted.results);
    if (report) process.stdout.write(`${report}\n`); // as \`eslint\` prints it
    const problems = linted.results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
    process.stderr.write(`ESLint: ${linted.linted} of ${linted.files.length} files linted\n`);
    if (problems > 0) ok = false;
  }
  saveState(builder, linted);
  process.exitCode = ok ? 0 : 1;
}

await main();
