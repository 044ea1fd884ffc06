/**
 * `stimkit label sample --bundle B (--responses FILE.jsonl | --ledger FILE) --n 200 --out sample.json`
 * `stimkit label serve <sample> --rater NAME [--lang zh|en] [--port N] [--host H] [--judges FILE [--judge NAME]…]`
 * `stimkit label export <sample> --out labels.csv [--labels DIR] [--review]`
 * `stimkit label simulate <sample> --ledger FILE --rater NAME=ACCURACY… --out labels.csv` (simulated raters)
 */
import { InvalidArgumentError, Option } from 'commander';
import { CSV_RAW_FLAG, list, nonNegativeInt, positiveInt } from '../cli/flags.js';
import { EXIT, StimkitError } from '../core/errors.js';
import { UI_LANGS } from '../label/i18n.js';
import { STRATA, Stratum } from '../label/sample-schema.js';
import type { SimRater } from '../label/sim-raters.js';
import { announceListening, untilStopped } from './serving.js';
import type { CommandSpec } from './index.js';
import { z } from 'zod';
import { flag, parseOptions } from '../cli/options.js';

function strataFlag(value: string): Stratum[] {
  return list(value).map((s) => {
    const parsed = Stratum.safeParse(s);
    if (!parsed.success)
      throw new InvalidArgumentError(
        `Expected strata from ${STRATA.join(', ')} but received "${s}".`,
      );
    return parsed.data;
  });
}

/** The flags `label sample` reads, as commander parses them. */
const SampleFlags = z.looseObject({
  responses: flag.text,
  ledger: flag.text,
  run: flag.text,
  n: z.number().int(),
  seed: z.number().int(),
  strata: z.array(Stratum).optional(),
  paradigms: flag.list,
});

const sampleCommand: CommandSpec = {
  name: 'sample',
  description:
    'draw the stratified validation sample (model × language × paradigm × sensitivity) from a bundle and its responses',
  configure: (cmd) =>
    cmd
      .requiredOption('--bundle <dir>', 'the bundle the responses answer')
      .option('--responses <file>', 'responses JSONL, one {trial_id, model, response} per line')
      .option('--ledger <file>', 'a run ledger (instead of --responses)')
      .option('--run <label>', 'with --ledger: the run (default: the latest)')
      .addOption(new Option('--n <n>', 'sample size').argParser(positiveInt).default(200))
      .addOption(
        new Option('--seed <n>', 'seed of the stratified draw')
          .argParser(nonNegativeInt)
          .default(42),
      )
      .addOption(
        new Option('--strata <list>', `stratification variables (${STRATA.join(', ')})`).argParser(
          strataFlag,
        ),
      )
      .addOption(
        new Option(
          '--paradigms <list>',
          'paradigms to draw from (default: every paradigm with a corpus entry)',
        ).argParser(list),
      )
      .requiredOption('--out <file>', 'the sample file to write (JSON)'),
  run: async (_args, flags) => {
    const opts = parseOptions(SampleFlags, flags);
    if (Boolean(opts.responses) === Boolean(opts.ledger))
      throw StimkitError.usage(
        'E_USAGE',
        'label sample needs exactly one of --responses FILE.jsonl and --ledger FILE',
        'keep one of --responses and --ledger and drop the other',
      );
    const { DEFAULT_STRATA, makeLabelSample } = await import('../label/make-sample.js');
    const r = await makeLabelSample({
      bundle: String(opts.bundle),
      responses: opts.responses,
      ledger: opts.ledger,
      run: opts.run,
      out: String(opts.out),
      n: opts.n,
      seed: opts.seed,
      strata: opts.strata ?? DEFAULT_STRATA,
      paradigms: opts.paradigms,
    });
    const s = r.sample;
    const human = [
      `label sample: ${s.items.length} of ${s.population} responses in ${s.strata.length} strata (${s.params.strata.join(' × ')}), seed ${s.params.seed}`,
      r.withoutText ? `  ${r.withoutText} response(s) without text skipped` : '',
      r.otherParadigms ? `  ${r.otherParadigms} response(s) to other paradigms skipped` : '',
      `  wrote ${r.out}`,
    ].filter(Boolean);
    return {
      summary: {
        ok: true,
        command: 'label sample',
        out: r.out,
        items: s.items.length,
        population: s.population,
        strata: s.strata,
        skipped: { without_text: r.withoutText, other_paradigms: r.otherParadigms },
      },
      human: human.join('\n'),
      exitCode: EXIT.ok,
    };
  },
};

/** The flags `label serve` reads, as commander parses them. */
const ServeFlags = z.looseObject({
  lang: z.enum(UI_LANGS).optional(),
  port: z.number().int(),
  host: flag.text,
  bundle: flag.text,
  labels: flag.text,
  judges: flag.text,
  judge: flag.list,
});

const serveCommand: CommandSpec = {
  name: 'serve',
  description:
    'the rater web app on this machine: one trial per screen, D1–D5 with guidance, answers saved at once',
  configure: (cmd) =>
    cmd
      .argument('<sample>', 'validation sample file (stimkit label sample)')
      .requiredOption('--rater <name>', 'the rater (letters, digits, . - _): names the rater file')
      .addOption(
        new Option(
          '--lang <lang>',
          'interface language (default: the one last chosen on the page, else zh)',
        ).choices(UI_LANGS),
      )
      .addOption(
        new Option('--port <n>', 'port (0 picks a free one)')
          .argParser(nonNegativeInt)
          .default(8765),
      )
      .option('--host <host>', 'interface to listen on (default 127.0.0.1: this machine only)')
      .option('--bundle <dir>', 'the bundle, when not where the sample says')
      .option(
        '--labels <file>',
        'the rater file (default: <sample>.labels/<rater>.sqlite next to the sample)',
      )
      .option(
        '--judges <file>',
        'judge labels: the judges.csv of stimkit score --judge (or a CSV/JSONL with one row per item × judge): review mode, only the items the judges disagree on',
      )
      .option(
        '--judge <name>',
        'with --judges: compare only this judge (repeat; default: every judge in the file)',
        (v: string, prev: string[] = []) => [...prev, v],
      ),
  run: async ([sample], flags, io) => {
    const opts = parseOptions(ServeFlags, flags);
    const { serveLabels } = await import('../label/serve.js');
    const server = await serveLabels({
      sample: String(sample),
      rater: String(opts.rater),
      lang: opts.lang,
      port: opts.port,
      host: opts.host,
      bundle: opts.bundle,
      labels: opts.labels,
      judges: opts.judges,
      judgeNames: opts.judge,
    });
    io.stderr(
      `stimkit label: ${server.mode === 'review' ? 'review of judge disagreements' : 'labelling'} for rater ${String(opts.rater)}: ${server.items.length} item(s); answers saved in ${server.store.file}\n` +
        `  open this address in a browser on this machine (Ctrl-C stops the server):\n  ${server.running.url}\n`,
    );
    announceListening(io, Boolean(opts.json), 'label serve', server.running, {
      rater: String(opts.rater),
      store: server.store.file,
      mode: server.mode,
      items: server.items.length,
    });
    await untilStopped();
    await server.close();
    return {
      summary: {
        ok: true,
        command: 'label serve',
        event: 'stopped',
        rater: opts.rater,
        store: server.store.file,
      },
      human: 'stimkit label: server stopped; every answer is saved',
      exitCode: EXIT.ok,
    };
  },
};

/** The flags `label export` reads, as commander parses them. */
const LabelExportFlags = z.looseObject({
  labels: flag.text,
});

const exportCommand: CommandSpec = {
  name: 'export',
  description: "write every rater's answers as one labels CSV (one row per item × rater)",
  configure: (cmd) =>
    cmd
      .argument('<sample>', 'validation sample file')
      .requiredOption('--out <file>', 'the labels CSV to write')
      .option(
        '--labels <dir>',
        'the folder of rater files (default: <sample>.labels/ next to the sample)',
      )
      .option('--review', 'export the review (adjudication) files instead of the blind labels')
      .option(
        '--wide',
        'one row per item with a column per dimension × rater (d4_state_aligned.alice), as `stimkit analyze agreement --raters` reads',
      )
      .option(...CSV_RAW_FLAG),
  run: async ([sample], flags) => {
    const opts = parseOptions(LabelExportFlags, flags);
    const { exportLabels } = await import('../label/export.js');
    const r = await exportLabels({
      csvRaw: Boolean(opts.csvRaw),
      sample: String(sample),
      out: String(opts.out),
      labels: opts.labels,
      review: Boolean(opts.review),
      wide: Boolean(opts.wide),
    });
    const human = [
      `label export: ${r.rows} rows from ${r.raters.length} rater(s) → ${r.out}`,
      ...r.raters.map((x) => `  ${x.rater}: ${x.complete} complete, ${x.answered} touched`),
    ];
    return {
      summary: { ok: true, command: 'label export', ...r },
      human: human.join('\n'),
      exitCode: EXIT.ok,
    };
  },
};

function raterFlag(value: string, prev: SimRater[] = []): SimRater[] {
  const m = /^([A-Za-z0-9._-]+)=(0?\.\d+|1(\.0*)?)$/.exec(value);
  if (!m || Number(m[2]) < 0.5)
    throw new InvalidArgumentError(
      `Expected NAME=ACCURACY with an accuracy from 0.5 to 1 (e.g. sim-rater-1=0.95) but received "${value}".`,
    );
  return [...prev, { name: m[1]!, accuracy: Number(m[2]) }];
}

/** The flags `label simulate` reads, as commander parses them. */
const SimulateFlags = z.looseObject({
  run: flag.text,
  rater: z.array(z.strictObject({ name: z.string(), accuracy: z.number() })),
  seed: z.number().int(),
});

const simulateCommand: CommandSpec = {
  name: 'simulate',
  description:
    "SIMULATED raters: a labels CSV for a sample of simulated responses, drawn from the simulator's truth with a set accuracy (a dry run of the validation)",
  configure: (cmd) =>
    cmd
      .argument(
        '<sample>',
        'validation sample file (stimkit label sample), drawn from a run of simulated respondents',
      )
      .requiredOption(
        '--ledger <file>',
        'the run ledger the sample was drawn from (its results carry the truth)',
      )
      .option('--run <label>', "the ledger's run (default: the latest)")
      .requiredOption(
        '--rater <name=accuracy>',
        'a simulated rater and its accuracy per dimension (repeat)',
        raterFlag,
      )
      .addOption(
        new Option('--seed <n>', "seed of the raters' draws").argParser(nonNegativeInt).default(42),
      )
      .requiredOption('--out <file>', 'the labels CSV to write'),
  run: async ([sample], flags) => {
    const opts = parseOptions(SimulateFlags, flags);
    const { writeSimRaterLabels } = await import('../label/sim-raters.js');
    const r = await writeSimRaterLabels({
      sample: String(sample),
      ledger: String(opts.ledger),
      run: opts.run,
      raters: opts.rater,
      seed: opts.seed,
      out: String(opts.out),
    });
    return {
      summary: { ok: true, command: 'label simulate', simulated: true, ...r },
      human: `label simulate: ${r.rows} rows from ${r.raters.length} SIMULATED rater(s) (${r.raters.join(', ')}) → ${r.out}`,
      exitCode: EXIT.ok,
    };
  },
};

export const labelCommand: CommandSpec = {
  name: 'label',
  description:
    'human labelling: draw the validation sample, run the rater web app, export the labels CSV (or simulate raters)',
  configure: () => undefined,
  subcommands: [sampleCommand, serveCommand, exportCommand, simulateCommand],
};
