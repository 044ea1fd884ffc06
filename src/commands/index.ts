/**
 * The registry of commands, in the order `stimkit --help` lists them. Each command file parses
 * its flags and calls the stage's plain function.
 */
import type { Command } from 'commander';
import type { CommandResult, Io } from '../cli/output.js';
import { analyzeCommand } from './analyze.js';
import { withPower } from './analyze-power.js';
import { batchCommand } from './batch.js';
import { bundleCommand } from './bundle.js';
import { checkCommand } from './check.js';
import { compareCommand } from './compare.js';
import { diffCommand } from './diff.js';
import { reviewCommand } from './review.js';
import { demoCommand } from './demo.js';
import { exportCommand } from './export.js';
import { ingestCommand } from './ingest.js';
import { initCommand } from './init.js';
import { labelCommand } from './label.js';
import { pairsCommand } from './pairs.js';
import { rehydrateCommand } from './rehydrate.js';
import { releaseCommand } from './release.js';
import { reportCommand } from './report.js';
import { runCommand } from './run.js';
import { scoreCommand } from './score.js';
import { translateCommand } from './translate.js';
import { validateCommand } from './validate.js';
import { variantsCommand } from './variants.js';
import { verifyCommand } from './verify.js';
import { viewCommand } from './view.js';

/** One command: its name, its flags and what it runs. */
export interface CommandSpec {
  name: string;
  description: string;
  configure: (cmd: Command) => void;
  /** What the command runs; absent for a group such as `batch` that only holds subcommands. */
  run?: (positionals: unknown[], opts: Record<string, unknown>, io: Io) => Promise<CommandResult>;
  /** Subcommands (`run export`, `batch export|import`). */
  subcommands?: CommandSpec[];
}

export const COMMANDS: CommandSpec[] = [
  ingestCommand,
  checkCommand,
  variantsCommand,
  pairsCommand,
  translateCommand,
  bundleCommand,
  verifyCommand,
  diffCommand,
  reviewCommand,
  runCommand,
  batchCommand,
  scoreCommand,
  withPower(analyzeCommand),
  reportCommand,
  compareCommand,
  releaseCommand,
  rehydrateCommand,
  exportCommand,
  validateCommand,
  labelCommand,
  viewCommand,
  demoCommand,
  initCommand,
];
