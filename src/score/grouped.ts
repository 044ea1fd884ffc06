/**
 * Driving the grouped tables of a scoring (types.ts, "grouped table"): start each scorer's reader
 * once for the bundle, hand it each drained group with the models it holds and the turns the
 * source recorded as not sent, and collect its counts for score.json at the end.
 */
import type { ScoreBundle } from './bundle.js';
import type { SourceResponses } from './source.js';
import type { Cell, GroupReader, GroupedTables, ParadigmScorer, TableRow } from './types.js';

/** A scorer's grouped tables at work on one scoring. */
export interface ActiveGrouped {
  name: string;
  tables: GroupedTables['tables'];
  reader: GroupReader;
}

/** The readers of the scorers that have something to read in `bundle`, in scorer order. */
export function startGrouped(
  scorers: readonly ParadigmScorer[],
  bundle: ScoreBundle,
): ActiveGrouped[] {
  const out: ActiveGrouped[] = [];
  for (const s of scorers) {
    const reader = s.grouped?.start(bundle) ?? null;
    if (reader) out.push({ name: s.name, tables: s.grouped!.tables, reader });
  }
  return out;
}

/**
 * Every grouped table's rows of one drained group (whole models, sorted), by file, in scorer
 * order. The readers may complete the rows' records, so call this before the records are written.
 */
export function readGroup(
  active: readonly ActiveGrouped[],
  rows: readonly TableRow[],
  source: Pick<SourceResponses, 'unsent'>,
): Array<[string, Cell[][]]> {
  if (active.length === 0) return [];
  const models = [...new Map(rows.map((r) => [r.model.name, r.model])).values()];
  const unsent = new Map(
    models.map((m) => [m.name, source.unsent(m.name)] as const).filter(([, u]) => u.size > 0),
  );
  return active.flatMap((g) => Object.entries(g.reader.read({ rows, models, unsent })));
}

/** The counts of every active reader, by scorer name (score.json `counts.<name>`). */
export function groupedCounts(active: readonly ActiveGrouped[]): Record<string, unknown> {
  return Object.fromEntries(active.map((g) => [g.name, g.reader.counts()]));
}
