/**
 * The commands to register for one invocation. `stimkit analyze …` registers only `analyze`,
 * whose modules load what they use, so it starts without importing every other command's
 * dependencies (sharp, vega, playwright, the run stage: about a second); anything else, `--help`
 * included, loads the whole registry of src/commands/index.ts.
 */
import type { CommandSpec } from '../commands/index.js';

/** Commands that can be registered on their own, each built exactly as in the registry. */
export const LIGHT_COMMANDS: Readonly<Record<string, () => Promise<CommandSpec>>> = {
  analyze: async () => {
    const [{ analyzeCommand }, { withPower }] = await Promise.all([import('../commands/analyze.js'), import('../commands/analyze-power.js')]);
    return withPower(analyzeCommand);
  },
};

/** The command specs `argv` (as in process.argv) needs: one light command, else all of them. */
export async function commandsFor(argv: readonly string[]): Promise<CommandSpec[]> {
  const name = argv[2];
  const light = name !== undefined && Object.hasOwn(LIGHT_COMMANDS, name) ? LIGHT_COMMANDS[name] : undefined;
  if (light) return [await light()];
  return (await import('../commands/index.js')).COMMANDS;
}
