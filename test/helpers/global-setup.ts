// Build dist/ once so that tests which spawn the real `stimkit` binary run the current code: tsc,
// then the bundle the binary runs (scripts/bundle.mjs, which rewrites it only when it changed).
// Type errors do not stop the emit here; `npm test` type-checks separately before running vitest.
// `tsc -b` with the build's dist/build.tsbuildinfo compiles only when a source changed since the
// last build (a second or so when nothing did, as after `npm ci`, whose prepare step builds); it
// does not notice a deleted output, so a missing dist/cli/main.js forces a full build.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const main = `${root}dist/cli/main.js`;
  const force = existsSync(main) ? [] : ['--force'];
  const r = spawnSync(
    process.execPath,
    [`${root}node_modules/typescript/bin/tsc`, '-b', 'tsconfig.build.json', ...force],
    { cwd: root, encoding: 'utf8' },
  );
  // Type errors exit 1 with the outputs written; anything else leaves no binary to run.
  if (r.status !== 0 && !(r.status === 1 && existsSync(main)))
    throw new Error(`building dist/ failed:\n${r.stdout}\n${r.stderr}`);
  const b = spawnSync(process.execPath, [`${root}scripts/bundle.mjs`], {
    cwd: root,
    encoding: 'utf8',
  });
  if (b.status !== 0) throw new Error(`bundling dist/app/ failed:\n${b.stdout}\n${b.stderr}`);
}
