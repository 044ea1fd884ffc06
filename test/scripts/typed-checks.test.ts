/**
 * scripts/typed-checks.mjs, the type check and ESLint of `npm test` on one program, with ESLint's
 * results kept per file between runs: a file whose own bytes did not change is linted again when
 * a file it imports changed its types. A tiny project (three files, one typed rule) stands in for
 * the repository: what is tested is which files are linted again and what is reported, not speed.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { tempDir } from '../helpers/tmp.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const SCRIPT = path.join(REPO, 'scripts/typed-checks.mjs');

const CONFIG = `import tseslint from 'typescript-eslint';
export default tseslint.config({
  files: ['**/*.ts'],
  extends: [tseslint.configs.base],
  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  rules: { '@typescript-eslint/no-floating-promises': 'error' },
});
`;
const TSCONFIG = {
  compilerOptions: {
    strict: true,
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023'],
    types: [],
    skipLibCheck: true,
  },
  include: ['src'],
};

async function project(): Promise<string> {
  const dir = await tempDir('stimkit-typed-checks-');
  await symlink(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
  await mkdir(path.join(dir, 'src'));
  await writeFile(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  await writeFile(path.join(dir, 'eslint.config.js'), CONFIG);
  await writeFile(path.join(dir, 'src/a.ts'), 'export function f(): number {\n  return 1;\n}\n');
  await writeFile(
    path.join(dir, 'src/b.ts'),
    "import { f } from './a.js';\n\nexport function g(): void {\n  f();\n}\n",
  );
  await writeFile(path.join(dir, 'src/c.ts'), "export const n: number = 'one';\n");
  return dir;
}

function check(dir: string): { status: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [SCRIPT, '--root', dir], { encoding: 'utf8' });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

describe('typed-checks', () => {
  it(
    'lints again the files a type change reaches, and reports cached results',
    async () => {
      const dir = await project();
      const first = check(dir);
      expect(first.err).toContain('ESLint: 4 of 4 files linted');
      expect(first.out).toMatch(/src\/c\.ts\(1,14\): error TS2322/);
      expect(first.out).not.toContain('no-floating-promises');
      expect(first.status).toBe(1);

      // b.ts keeps its bytes, but the function it calls now returns a promise it leaves floating.
      await writeFile(path.join(dir, 'src/c.ts'), 'export const n: number = 1;\n');
      await writeFile(
        path.join(dir, 'src/a.ts'),
        'export async function f(): Promise<number> {\n  return 1;\n}\n',
      );
      const second = check(dir);
      expect(second.err).toContain('ESLint: 3 of 4 files linted');
      expect(second.out).not.toContain('error TS');
      expect(second.out).toMatch(/src\/b\.ts\n\s+4:3\s+error\s.*no-floating-promises/);
      expect(second.status).toBe(1);

      // Nothing changed: nothing is linted, and b.ts's error is still reported.
      const third = check(dir);
      expect(third.err).toContain('ESLint: 0 of 4 files linted');
      expect(third.out).toBe(second.out);
      expect(third.status).toBe(1);
    },
    heavyLimit(15),
  );
});
