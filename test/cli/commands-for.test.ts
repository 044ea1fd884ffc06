/** A command named on the command line loads alone, and registers exactly what the full registry does. */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandsFor, LIGHT_COMMANDS } from '../../src/cli/commands-for.js';
import { COMMANDS, type CommandSpec } from '../../src/commands/index.js';

interface Shape {
  description: string;
  args: unknown[];
  options: unknown[];
  subcommands: Shape[];
}

function shape(spec: CommandSpec): Shape {
  const cmd = new Command(spec.name);
  spec.configure(cmd);
  return {
    description: spec.description,
    args: cmd.registeredArguments.map((a) => [a.name(), a.required, a.variadic, a.description]),
    options: cmd.options.map((o) => [o.flags, o.description, o.defaultValue, o.argChoices]),
    subcommands: (spec.subcommands ?? []).map(shape),
  };
}

describe('commandsFor', () => {
  it('knows every command of the registry, and nothing else', () => {
    expect(Object.keys(LIGHT_COMMANDS).sort()).toEqual(COMMANDS.map((c) => c.name).sort());
  });

  it.each(COMMANDS.map((c) => c.name))(
    '`stimkit %s` registers that command alone, as the registry builds it',
    async (name) => {
      const light = await commandsFor(['node', 'stimkit', name, '--json']);
      expect(light.map((c) => c.name)).toEqual([name]);
      expect(shape(light[0]!)).toEqual(shape(COMMANDS.find((c) => c.name === name)!));
    },
  );

  it('help, version and unknown names load the whole registry', async () => {
    for (const argv of [['--help'], ['--version'], [], ['nonsense'], ['toString'], ['__proto__']]) {
      expect((await commandsFor(['node', 'stimkit', ...argv])).map((c) => c.name)).toEqual(
        COMMANDS.map((c) => c.name),
      );
    }
  });
});
