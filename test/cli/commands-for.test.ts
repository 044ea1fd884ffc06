/**
 * A command named on the command line loads alone, and registers exactly what the full registry
 * does; `--version` alone loads none.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandsFor, LIGHT_COMMANDS } from '../../src/cli/commands-for.js';
import { COMMANDS, type CommandSpec } from '../../src/commands/index.js';
import { TOOL } from '../../src/core/tool.js';
import { runCli } from '../helpers/cli.js';

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

  it('`stimkit --version` alone loads no command, and prints the version all the same', async () => {
    for (const flag of ['--version', '-V']) {
      expect(await commandsFor(['node', 'stimkit', flag])).toEqual([]);
      const r = await runCli([flag]);
      expect(r.code, flag).toBe(0);
      expect(r.stdout, flag).toBe(`${TOOL.version}\n`);
    }
  });

  it('help, version with anything else, and unknown names load the whole registry', async () => {
    for (const argv of [
      ['--help'],
      ['--version', '--help'],
      ['-V', 'run'],
      [],
      ['nonsense'],
      ['toString'],
      ['__proto__'],
    ]) {
      expect((await commandsFor(['node', 'stimkit', ...argv])).map((c) => c.name)).toEqual(
        COMMANDS.map((c) => c.name),
      );
    }
  });
});
