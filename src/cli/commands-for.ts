/**
 * The commands to register for one invocation. `stimkit <command> …` imports only that command's
 * module, which loads what it uses, so a command starts without importing every other stage's
 * dependencies (sharp, vega, playwright, onnxruntime, the statistics: more than a second of
 * start-up when all are loaded), and `--version` alone loads none. Anything else (`--help`, an
 * unknown name) loads the whole registry of src/commands/index.ts, which lists the commands in
 * their help order.
 */
import type { CommandSpec } from '../commands/index.js';

/** Each command by name, loaded on its own and built exactly as in the registry. */
export const LIGHT_COMMANDS: Readonly<Record<string, () => Promise<CommandSpec>>> = {
  ingest: async () => (await import('../commands/ingest.js')).ingestCommand,
  check: async () => (await import('../commands/check.js')).checkCommand,
  variants: async () => (await import('../commands/variants.js')).variantsCommand,
  pairs: async () => (await import('../commands/pairs.js')).pairsCommand,
  translate: async () => (await import('../commands/translate.js')).translateCommand,
  bundle: async () => (await import('../commands/bundle.js')).bundleCommand,
  verify: async () => (await import('../commands/verify.js')).verifyCommand,
  diff: async () => (await import('../commands/diff.js')).diffCommand,
  review: async () => (await import('../commands/review.js')).reviewCommand,
  run: async () => (await import('../commands/run.js')).runCommand,
  batch: async () => (await import('../commands/batch.js')).batchCommand,
  score: async () => (await import('../commands/score.js')).scoreCommand,
  analyze: async () => {
    const [{ analyzeCommand }, { withPower }] = await Promise.all([
      import('../commands/analyze.js'),
      import('../commands/analyze-power.js'),
    ]);
    return withPower(analyzeCommand);
  },
  report: async () => (await import('../commands/report.js')).reportCommand,
  compare: async () => (await import('../commands/compare.js')).compareCommand,
  release: async () => (await import('../commands/release.js')).releaseCommand,
  rehydrate: async () => (await import('../commands/rehydrate.js')).rehydrateCommand,
  export: async () => (await import('../commands/export.js')).exportCommand,
  validate: async () => (await import('../commands/validate.js')).validateCommand,
  label: async () => (await import('../commands/label.js')).labelCommand,
  view: async () => (await import('../commands/view.js')).viewCommand,
  demo: async () => (await import('../commands/demo.js')).demoCommand,
  init: async () => (await import('../commands/init.js')).initCommand,
};

/**
 * The command specs `argv` (as in process.argv) needs: none for `--version` (or `-V`) alone, which
 * commander answers without any command; the one it names; else all of them.
 */
export async function commandsFor(argv: readonly string[]): Promise<CommandSpec[]> {
  if (argv.length === 3 && (argv[2] === '--version' || argv[2] === '-V')) return [];
  const name = argv[2];
  const light =
    name !== undefined && Object.hasOwn(LIGHT_COMMANDS, name) ? LIGHT_COMMANDS[name] : undefined;
  if (light) return [await light()];
  return (await import('../commands/index.js')).COMMANDS;
}
