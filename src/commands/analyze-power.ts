/**
 * `stimkit analyze power --models sim.yaml --iterations 8,16,32,64 [--replications N] [--alpha A]
 * [--bundle B] [--arm ID] [--out FILE.csv]`: the power of the net-bias test with simulated
 * respondents (src/power/). It joins `stimkit analyze` as the kind `power`, which reads no table:
 * `withPower` wraps the analyze command, makes its `<table>` argument optional, adds the power
 * flags and sends `power` here; every other kind goes to analyze as before.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { list, positiveInt } from '../cli/flags.js';
import { EXIT, StimkitError } from '../core/errors.js';
import { writeFileAtomic } from '../core/fsio.js';
import type { CommandResult, Io } from '../cli/output.js';
import { KINDS } from './analyze.js';
import type { CommandSpec } from './index.js';
import { z } from 'zod';
import { flag, parseOptions } from '../cli/options.js';

function alphaFlag(value: string): number {
  const a = Number(value);
  if (!(a > 0 && a < 1))
    throw new InvalidArgumentError(`Expected a number between 0 and 1 but received "${value}".`);
  return a;
}

/** Add the power flags to a command. */
function configurePower(cmd: Command): void {
  cmd
    .option('--models <file>', 'power: models file with provider: sim respondents')
    .option(
      '--iterations <list>',
      'power: iterations per cell to try, e.g. 8,16,32,64',
      (v: string) => list(v).map(positiveInt),
    )
    .option('--replications <n>', 'power: simulated studies per size', positiveInt, 100)
    .option('--alpha <a>', 'power: significance level', alphaFlag, 0.05)
    .option(
      '--bundle <dir>',
      "power: a bundle with an instrument arm (default: the paper's bilingual instrument)",
    )
    .option(
      '--out <path>',
      'power: also write the table as CSV to this file; reasoning: write reasoning-rates.csv and thinking-mcnemar.csv into this folder; pressure: write pressure-turns.csv, pressure-conversations-summary.csv and pressure-logit.csv into this folder',
    );
}

/** The flags of `analyze power`, as commander parses them. */
const PowerFlags = z.looseObject({
  models: flag.text,
  iterations: z.array(z.number().int()).optional(),
  replications: z.number().int(),
  alpha: z.number(),
  bundle: flag.text,
  arm: flag.text,
  out: flag.text,
});

/** Run `analyze power` with parsed flags. */
async function runPowerCommand(flags: Record<string, unknown>, io: Io): Promise<CommandResult> {
  const opts = parseOptions(PowerFlags, flags);
  if (!opts.models)
    throw StimkitError.usage(
      'E_POWER_USAGE',
      'analyze power needs --models FILE (with provider: sim respondents)',
      'add --models FILE naming a models file with `provider: sim` respondents (`stimkit init` writes one)',
    );
  // loaded here, not at start-up: the simulation pulls in the run stage, which `analyze logit` never needs
  const [{ runPower }, { powerCsv, powerHuman, powerJson }] = await Promise.all([
    import('../power/power.js'),
    import('../power/summary.js'),
  ]);
  const result = await runPower({
    models: opts.models,
    iterations: opts.iterations ?? [8, 16, 32, 64],
    replications: opts.replications,
    alpha: opts.alpha,
    bundle: opts.bundle,
    arm: opts.arm,
    log: (line) => io.stderr(`${line}\n`),
  });
  if (opts.out) await writeFileAtomic(opts.out, powerCsv(result));
  return { summary: powerJson(result), human: powerHuman(result), exitCode: EXIT.ok };
}

/** `analyze` with the kind `power` added. */
export function withPower(analyze: CommandSpec): CommandSpec {
  return {
    ...analyze,
    description: `${analyze.description} | power (simulated respondents)`,
    configure: (cmd) => {
      analyze.configure(cmd);
      // `power` reads no table: the second argument becomes optional (analyze still checks it for its kinds).
      const [kind, table] = cmd.registeredArguments;
      if (kind) kind.description += ' | power';
      if (table) {
        table.required = false;
        table.description += ' (not for power)';
      }
      configurePower(cmd);
    },
    run: async (positionals, opts, io) => {
      if (positionals[0] === 'power') return runPowerCommand(opts, io);
      const kinds = [...KINDS, 'power'];
      if (!kinds.includes(String(positionals[0])))
        throw StimkitError.usage(
          'E_ANALYZE_KIND',
          `unknown analysis "${String(positionals[0])}" (expected one of ${kinds.join(', ')})`,
          'use one of the analyses listed, e.g. `stimkit analyze logit <table.csv>`',
        );
      if (positionals[1] === undefined)
        throw StimkitError.usage(
          'E_ANALYZE_USAGE',
          `analyze ${String(positionals[0])} needs a <table> CSV file`,
          'give the CSV table after the analysis name, e.g. `stimkit analyze logit trials.csv`',
        );
      return analyze.run!(positionals, opts, io);
    },
  };
}
