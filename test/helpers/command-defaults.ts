// A command's flags as commander gives them when none is on the command line (each option's
// default), for tests that call a command's `run` in-process: `run` parses its flags against the
// command's schema, which expects what commander always fills in.
import { Command } from 'commander';
import type { CommandSpec } from '../../src/commands/index.js';

/** `spec`'s option defaults, overlaid with `opts`. */
export function withDefaults(
  spec: CommandSpec,
  opts: Record<string, unknown>,
): Record<string, unknown> {
  const cmd = new Command(spec.name);
  spec.configure(cmd);
  return { ...cmd.opts(), ...opts };
}
