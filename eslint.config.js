// @ts-check
// Lint for stimkit: typescript-eslint's type-checked recommended rules, plus the rules below.
// `npm run lint` runs it; `npm test` runs it before the tests. A rule turned off says why.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'wasm/',
      'node_modules/',
      'coverage/',
      // AssemblyScript, not TypeScript: compiled by asc, which has its own checks.
      'src/variants/kernels/as/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      // `const { key: _k, ...rest } = x` is how a key is left out of a copy: the name is unused
      // by design.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
      // Functions of one phase: a function longer than this is split by phase.
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      // Tests read the commands' JSON output as untyped values and check them by assertion: the
      // assertion is the type check, so the no-unsafe-* family would only add casts.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // A describe() block holds a whole file's cases by design; the limit is for src/.
      'max-lines-per-function': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: globals.node },
  },
);
