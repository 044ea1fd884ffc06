/**
 * The `stimkit` command line. Commands only parse flags and call a plain function
 * (`src/commands/<command>.ts`); this file wires them up and maps outcomes to exit codes:
 * 0 success, 1 input rejected or verification failed, 2 usage error. A full disk and a damaged
 * SQLite file are coded errors (core/io-errors.ts: E_DISK_FULL, E_LEDGER_CORRUPT), whatever
 * command met them.
 */
import { Command, CommanderError, Option } from 'commander';
import { EXIT } from '../core/errors.js';
import { ioProblem } from '../core/io-errors.js';
import { TOOL } from '../core/tool.js';
import type { CommandSpec } from '../commands/index.js';
import { commandsFor } from './commands-for.js';
import { emitError, emitResult, processIo, type CommandResult, type Io } from './output.js';

/** Options every command accepts. */
export interface CommonOptions {
  json?: boolean;
}

/** Build the commander program with `commands`. Actions store their exit code in `state`. */
export function buildProgram(
  io: Io,
  state: { exitCode: number },
  commands: readonly CommandSpec[],
): Command {
  const program = new Command();
  program
    .name('stimkit')
    .description(
      'Provenance-tracked, bilingual stimuli for auditing vision-language and language models.',
    )
    .version(TOOL.version, '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .exitOverride()
    // Options of a command come before its subcommand (`run --ledger` vs `run export --ledger`).
    .enablePositionalOptions();

  for (const spec of commands) register(program, spec, io, state);
  return program;
}

/** Add `spec` (and its subcommands) under `parent`. */
function register(parent: Command, spec: CommandSpec, io: Io, state: { exitCode: number }): void {
  const cmd = parent.command(spec.name).description(spec.description).exitOverride();
  spec.configure(cmd);
  for (const sub of spec.subcommands ?? []) register(cmd, sub, io, state);
  if (spec.subcommands?.length) cmd.enablePositionalOptions();
  cmd.addOption(
    new Option('--json', 'print a machine-readable summary on stdout (human text goes to stderr)'),
  );
  if (!spec.run) return;
  const run = spec.run;
  cmd.action(async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const opts = command.opts<CommonOptions & Record<string, unknown>>();
    const positionals = command.processedArgs as unknown[];
    let result: CommandResult;
    try {
      result = await run(positionals, opts, io);
    } catch (err) {
      state.exitCode = emitError(io, Boolean(opts.json), ioProblem(err) ?? err);
      return;
    }
    state.exitCode = emitResult(io, Boolean(opts.json), result);
  });
}

/** `stimkit --version --json` (the two flags alone, in either order): the name and version as JSON. */
function versionJson(argv: readonly string[], io: Io): boolean {
  const rest = argv.slice(2);
  const asked =
    rest.length === 2 &&
    rest.includes('--json') &&
    rest.some((a) => a === '--version' || a === '-V');
  if (asked) io.stdout(`${JSON.stringify({ name: TOOL.name, version: TOOL.version }, null, 2)}\n`);
  return asked;
}

/** Run the CLI on `argv` (as in process.argv) and return the exit code. */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  if (versionJson(argv, io)) return EXIT.ok;
  const state = { exitCode: EXIT.ok as number };
  const program = buildProgram(io, state, await commandsFor(argv));
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version exit 0; everything else commander rejects is a usage error. Commander
      // has already said why on stderr; with --json the reason also goes to stdout.
      if (
        err.code === 'commander.helpDisplayed' ||
        err.code === 'commander.version' ||
        err.code === 'commander.help'
      ) {
        return EXIT.ok;
      }
      if (argv.includes('--json')) {
        const message = err.message.replace(/^error: /, '');
        io.stdout(
          `${JSON.stringify({ ok: false, error: { code: 'E_USAGE', commander: err.code, message } }, null, 2)}\n`,
        );
      }
      return EXIT.usage;
    }
    return emitError(io, argv.includes('--json'), ioProblem(err) ?? err);
  }
  return state.exitCode;
}
