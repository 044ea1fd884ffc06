// @ts-check
// Lint for stimkit: typescript-eslint's type-checked recommended rules, plus the rules below.
// `npm run lint` runs it; `npm test` runs it before the tests. A rule turned off says why.
import js from '@eslint/js';
import comments from '@eslint-community/eslint-plugin-eslint-comments/configs';
import globals from 'globals';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';
import { layers } from './eslint-layers.js';

/**
 * The layers of src/, bottom first (docs/DESIGN.md, "Layers"). A module may import from its own
 * folder and from any lower layer, never from a higher one or from a sibling in the same layer.
 * src/cli/ holds the command line's output and flag helpers, which commands use, and its entry
 * point and command table (main.ts, commands-for.ts), the only files that import src/commands/.
 */
const LAYERS = [
  ['core'],
  ['stats'],
  ['ingest'],
  ['stimuli', 'study', 'variants', 'languages'],
  ['bundle'],
  ['verify', 'diff', 'sim'],
  ['models'],
  ['ledger'],
  ['client'],
  ['run'],
  ['batch'],
  ['audit'],
  ['score'],
  ['label'],
  ['analyze', 'compare'],
  ['power'],
  ['report', 'export'],
  ['view', 'review', 'release'],
  ['check', 'init', 'demo'],
  ['cli'],
  ['commands'],
];

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
  comments.recommended,
  {
    rules: {
      // A rule switched off for one line says why, after `--`.
      '@eslint-community/eslint-comments/require-description': 'error',
      // The habits the lint step keeps are not switched off line by line: a long function is
      // split by phase, an upward import moves the shared piece down a layer.
      '@eslint-community/eslint-comments/no-restricted-disable': [
        'error',
        'max-lines-per-function',
        'layers/*',
      ],
    },
  },
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
    // A regular expression over a model's or a server's text must run in linear time (a 4 MiB
    // reply of spaces once took hours to score): these two rules find those that backtrack
    // quadratically. One built with `new RegExp(...)` is out of their sight: its file says it was
    // checked by hand.
    files: ['src/**/*.ts'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
  {
    // The layers (eslint-layers.js): imports point down, every file of src/ sits in a layer.
    files: ['src/**/*.ts'],
    plugins: { layers },
    rules: {
      'layers/dependencies': ['error', { layers: LAYERS }],
      'layers/no-unknown-files': ['error', { layers: LAYERS }],
    },
  },
  {
    // The entry point and its command table sit above the commands they list.
    files: ['src/cli/main.ts', 'src/cli/commands-for.ts'],
    rules: {
      'layers/dependencies': ['error', { layers: LAYERS, alsoAllow: { cli: ['commands'] } }],
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
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    // Keep disableTypeChecked's parserOptions (no project service for plain JavaScript).
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: globals.node,
    },
  },
);
