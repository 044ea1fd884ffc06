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
    const extra: CsvColumn[] = scorers.flatMap((s) => s.columns?.[t.file] ?? []);
    return extra.length === 0 ? t : { ...t, columns: [...t.columns, ...extra] };
  });
}
