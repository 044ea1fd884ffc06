/**
 * The registry of commands, in the order `stimkit --help` lists them. Each command file parses
 * its flags and calls the stage's plain function.
 */
import type { Command } from 'commander';
import type { CommandResult, Io } from '../cli/output.js';
import { bundleCommand } from './bundle.js';
import { checkCommand } from './check.js';
import { diffCommand } from './diff.js';
import { reviewCommand } from './review.js';
import { demoCommand } from './demo.js';
import { ingestCommand } from './ingest.js';
import { pairsCommand } from './pairs.js';
import { variantsCommand } from './variants.js';
import { verifyCommand } from './verify.js';

/** One command: its name, its flags and what it runs. */
export interface CommandSpec {
  name: string;
  description: string;
  configure: (cmd: Command) => void;
  run: (positionals: unknown[], opts: Record<string, unknown>, io: Io) => Promise<CommandResult>;
}

export const COMMANDS: CommandSpec[] = [ingestCommand, variantsCommand, pairsCommand, bundleCommand, verifyCommand, demoCommand];

// curator: check, diff, review
COMMANDS.push(checkCommand, diffCommand, reviewCommand);
