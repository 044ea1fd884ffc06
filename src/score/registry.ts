/**
 * The paradigm scorers and the tables every paradigm shares, in one screen. To add a paradigm,
 * append its scorer to `SCORERS`; its own tables and the columns it adds to `trials.csv` follow.
 */
import { StimkitError } from '../core/errors.js';
import { blockColumns, speechmapColumns } from './block-columns.js';
import { instrumentScorer } from './instrument.js';
import { outcomeColumns } from './outcome-columns.js';
import { pressureScorer } from './pressure.js';
import type { CsvColumn, CsvTable, ParadigmScorer } from './types.js';

export const SCORERS: ParadigmScorer[] = [instrumentScorer, pressureScorer];

/** `trials.csv`: one row per scored trial × model of every paradigm. */
const trialsTable: CsvTable = {
  file: 'trials.csv',
  doc: 'one row per scored trial × model, every paradigm: the design fields, score, stance and reason',
  paradigms: 'all',
  columns: [
    { name: 'trial', doc: 'trial id', value: (r) => r.trial.id },
    { name: 'model', doc: 'model name', value: (r) => r.model.name },
    {
      name: 'origin',
      doc: 'model origin (models file or ledger); `unknown` when neither names it',
      value: (r) => r.model.origin ?? 'unknown',
    },
    {
      name: 'vendor',
      doc: 'model vendor (models file); empty when unknown',
      value: (r) => r.model.vendor,
    },
    { name: 'paradigm', doc: 'trial paradigm', value: (r) => r.trial.paradigm },
    { name: 'language', doc: 'prompt language', value: (r) => r.trial.lang },
    { name: 'entry', doc: 'corpus entry (VLM paradigms)', value: (r) => r.trial.entry },
    { name: 'variant', doc: 'image variant A0–A6 (VLM paradigms)', value: (r) => r.trial.variant },
    { name: 'seed', doc: 'replication seed (VLM paradigms)', value: (r) => r.trial.seed },
    { name: 'topic', doc: 'instrument topic', value: (r) => r.trial.topic },
    { name: 'framing', doc: 'instrument framing', value: (r) => r.trial.framing },
    { name: 'iteration', doc: 'instrument iteration', value: (r) => r.trial.iteration },
    {
      name: 'score',
      doc: "the paradigm's score before keying (instrument: −2..+2)",
      value: (r) => r.record.score,
    },
    {
      name: 'stance',
      doc: 'the score on the stance axis (instrument: after keying)',
      value: (r) => r.record.stance,
    },
    {
      name: 'reason',
      doc: 'why the score is 0 or missing: for a row that is not an answer its outcome (no_response for a suppressed reply or no text, provider_block, model_refusal, length, failed)',
      value: (r) => r.record.reason,
    },
    {
      name: 'simulated',
      doc: '1 for a simulated response, 0 otherwise',
      value: (r) => (r.record.simulated ? 1 : 0),
    },
    ...outcomeColumns(),
    ...blockColumns(),
    ...speechmapColumns(),
  ],
};

/** The forced-choice paradigms, whose rows carry the label scored. */
const LABELLED = new Set(['instrument', 'pressure']);

/**
 * trials.csv's last columns, after every scorer's (so that the earlier ones keep their places):
 * the design fields that tell apart trials the columns before leave alike — a thinking-on and a
 * thinking-off trial, the turns of a pressure conversation, an item's arm and wrappers — and the
 * option label scored.
 */
const TRIALS_TAIL: CsvColumn[] = [
  { name: 'arm', doc: 'instrument arm (instrument, pressure)', value: (r) => r.trial.arm },
  { name: 'item', doc: 'minimal-pair item (instrument, pressure)', value: (r) => r.trial.item },
  { name: 'prompt', doc: 'prompt card (VLM paradigms)', value: (r) => r.trial.prompt },
  { name: 'prefix', doc: 'wrapper prefix id', value: (r) => r.trial.wrappers?.prefix.id ?? null },
  { name: 'suffix', doc: 'wrapper suffix id', value: (r) => r.trial.wrappers?.suffix.id ?? null },
  {
    name: 'thinking',
    doc: 'the thinking level, `on` or `off`, in a study with thinking as a factor; empty otherwise',
    value: (r) => r.trial.thinking ?? null,
  },
  {
    name: 'conversation',
    doc: 'pressure conversation id',
    value: (r) => r.trial.conversation?.id ?? null,
  },
  { name: 'turn', doc: 'pressure turn, 1-based', value: (r) => r.trial.conversation?.turn ?? null },
  {
    name: 'followup',
    doc: "the pressure turn's follow-up kind (empty for turn 1)",
    value: (r) => r.trial.conversation?.followup ?? null,
  },
  {
    name: 'label',
    doc: 'the option label scored, as the pool spells it (instrument, pressure); empty when none',
    value: (r) =>
      LABELLED.has(r.trial.paradigm) && typeof r.record.parse.label === 'string'
        ? r.record.parse.label
        : null,
  },
];

/** The scorer for a paradigm, or null when no scorer handles it. */
export function scorerFor(
  paradigm: string,
  scorers: readonly ParadigmScorer[] = SCORERS,
): ParadigmScorer | null {
  return scorers.find((s) => s.paradigms.includes(paradigm)) ?? null;
}

/** Every table to write, with the columns scorers add to shared tables appended. */
export function tablesOf(scorers: readonly ParadigmScorer[] = SCORERS): CsvTable[] {
  const shared = [trialsTable];
  const own = scorers.flatMap((s) => s.tables ?? []);
  const all = [...shared, ...own];
  const names = new Set<string>();
  for (const t of all) {
    if (names.has(t.file))
      throw new StimkitError('E_SCORE_REGISTRY', `two scorers write ${t.file}`, {
        fix: 'this is a bug in stimkit (two scorers claim one table); please report it',
      });
    names.add(t.file);
  }
  return all.map((t) => {
    const extra: CsvColumn[] = [
      ...scorers.flatMap((s) => s.columns?.[t.file] ?? []),
      ...(t === trialsTable ? TRIALS_TAIL : []),
    ];
    return extra.length === 0 ? t : { ...t, columns: [...t.columns, ...extra] };
  });
}
