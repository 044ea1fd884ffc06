// Types of eslint-layers.js for the TypeScript that imports it (its test).
import type { ESLint, Rule } from 'eslint';

/** The plugin of the layer rules: `layers/dependencies` and `layers/no-unknown-files`. */
export declare const layers: ESLint.Plugin & {
  rules: { dependencies: Rule.RuleModule; 'no-unknown-files': Rule.RuleModule };
};
