/**
 * `stimkit label sample|serve|export`: draw the validation sample, run the rater web app over it,
 * export the labels CSV. One command with an action argument (the registry has no subcommands).
 */
import { InvalidArgumentError, Option } from 'commander';
import { list, nonNegativeInt } from '../cli/flags.js';
import { EXIT, StimkitError } from '../core/errors.js';
import { exportLabels } from '../label/export.js';
import { UI_LANGS, type UiLang } from '../label/i18n.js';
import { DEFAULT_STRATA, makeLabelSample } from '../label/make-sample.js';
import { STRATA, type Stratum } from '../label/sample-schema.js';
import { serveLabels } from '../label/serve.js';
import { untilStopped } from './serving.js';
import type { CommandSpec } from './index.js';

const ACTIONS = ['sample', 'serve', 'export'] as const;

function strataFlag(value: string): Stratum[] {
  const items = list(value);
  for (const s of items) if (!(STRATA as readonly string[]).includes(s)) throw new InvalidArgumentError(`Expected strata from ${STRATA.join(', ')} but received "${s}".`);
  return items as Stratum[];
}

function need(opts: Record<string, unknown>, flag: string, action: string): string {
  const key = flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  const v = opts[key];
  if (typeof v !== 'string' || v === '') throw StimkitError.usage('E_USAGE', `label ${action} needs --${flag}`);
  return v;
}

export const labelCommand: CommandSpec = {
  name: 'label',
  description: 'human labelling: `sample` draws the validation sample, `serve` runs the rater web app, `export` writes the labels CSV',
  configure: (cmd) =>
    cmd
      .argument('<action>', 'sample | serve | export')
      .argument('[sample]', 'validation sample file (serve, export)')
      .option('--bundle <dir>', 'sample: the bundle the responses answer; serve: the bundle, when not where the sample says')
      .option('--responses <file>', 'sample: responses JSONL, one {trial_id, model, response} per line')
      .option('--ledger <file>', 'sample: a run ledger instead of --responses')
      .addOption(new Option('--n <n>', 'sample: sample size').argParser(nonNegativeInt).default(200))
      .addOption(new Option('--seed <n>', 'sample: seed of the stratified draw').argParser(nonNegativeInt).default(42))
      .addOption(new Option('--strata <list>', `sample: stratification variables (${STRATA.join(', ')})`).argParser(strataFlag))
      .addOption(new Option('--paradigms <list>', 'sample: paradigms to draw from (default: every paradigm with a corpus entry)').argParser(list))
      .option('--out <file>', 'sample: the sample file to write; export: the labels CSV to write')
      .option('--rater <name>', 'serve: the rater (letters, digits, . - _)')
      .addOption(new Option('--lang <lang>', 'serve: interface language').choices(UI_LANGS).default('zh'))
      .addOption(new Option('--port <n>', 'serve: port (0 picks a free one)').argParser(nonNegativeInt).default(8765))
      .option('--host <host>', 'serve: interface to listen on (default 127.0.0.1, this machine only)')
      .option('--judges <file>', 'serve: judge labels (CSV or JSONL): review mode, showing only the items the judges disagree on')
      .option('--labels <path>', 'serve: the rater file; export: the folder of rater files (default: <sample>.labels/ next to the sample)')
      .option('--review', 'export: the review (adjudication) files instead of the blind labels'),
  run: async ([action, sampleArg], opts, io) => {
    if (!(ACTIONS as readonly unknown[]).includes(action)) throw StimkitError.usage('E_USAGE', `Expected an action (${ACTIONS.join(', ')}) but received "${String(action)}".`);
    const sample = sampleArg === undefined ? undefined : String(sampleArg);
    if (action === 'sample') {
      if (opts.ledger) {
        throw StimkitError.usage('E_USAGE', 'label sample --ledger is not available in this version; export the ledger to JSONL ({trial_id, model, response} per line) and pass --responses');
      }
      if ((opts.n as number) < 1) throw StimkitError.usage('E_USAGE', 'Expected --n of at least 1.');
      const r = await makeLabelSample({
        bundle: need(opts, 'bundle', 'sample'),
        responses: need(opts, 'responses', 'sample'),
        out: need(opts, 'out', 'sample'),
        n: opts.n as number,
        seed: opts.seed as number,
        strata: (opts.strata as Stratum[] | undefined) ?? DEFAULT_STRATA,
        paradigms: opts.paradigms as string[] | undefined,
      });
      const s = r.sample;
      const human = [
        `label sample: ${s.items.length} of ${s.population} responses in ${s.strata.length} strata (${s.params.strata.join(' × ')}), seed ${s.params.seed}`,
        r.withoutText ? `  ${r.withoutText} response line(s) without text skipped` : '',
        r.otherParadigms ? `  ${r.otherParadigms} response(s) to other paradigms skipped` : '',
        `  wrote ${r.out}`,
      ].filter(Boolean);
      return { summary: { ok: true, out: r.out, items: s.items.length, population: s.population, strata: s.strata, skipped: { without_text: r.withoutText, other_paradigms: r.otherParadigms } }, human: human.join('\n'), exitCode: EXIT.ok };
    }
    if (!sample) throw StimkitError.usage('E_USAGE', `label ${String(action)} needs the sample file`);
    if (action === 'export') {
      const r = await exportLabels({ sample, out: need(opts, 'out', 'export'), labels: opts.labels as string | undefined, review: Boolean(opts.review) });
      const human = [`label export: ${r.rows} rows from ${r.raters.length} rater(s) → ${r.out}`, ...r.raters.map((x) => `  ${x.rater}: ${x.complete} complete, ${x.answered} touched`)];
      return { summary: { ok: true, ...r }, human: human.join('\n'), exitCode: EXIT.ok };
    }
    const server = await serveLabels({
      sample,
      rater: need(opts, 'rater', 'serve'),
      lang: opts.lang as UiLang,
      port: opts.port as number,
      host: opts.host as string | undefined,
      bundle: opts.bundle as string | undefined,
      labels: opts.labels as string | undefined,
      judges: opts.judges as string | undefined,
    });
    io.stderr(
      `stimkit label: ${server.mode === 'review' ? 'review of judge disagreements' : 'labelling'} for rater ${String(opts.rater)}: ${server.items.length} item(s); answers saved in ${server.store.file}\n` +
        `  open this address in a browser on this machine (Ctrl-C stops the server):\n  ${server.running.url}\n`,
    );
    await untilStopped();
    await server.close();
    return { summary: { ok: true, rater: opts.rater, store: server.store.file }, human: 'stimkit label: server stopped; every answer is saved', exitCode: EXIT.ok };
  },
};
