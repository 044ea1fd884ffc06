// Build dist/ once so that tests which spawn the real `stimkit` binary run the current code.
// Type errors do not stop the emit here; `npm test` type-checks separately before running vitest.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const r = spawnSync(
    process.execPath,
    [`${root}node_modules/typescript/bin/tsc`, '-p', 'tsconfig.build.json'],
    { cwd: root, encoding: 'utf8' },
  );
  if (r.status !== 0 && r.status !== 2)
    throw new Error(`building dist/ failed:\n${r.stdout}\n${r.stderr}`);
}
