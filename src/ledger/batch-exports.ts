/**
 * Batch exports in the ledger (version 4, schema.ts): the trials `batch export --ledger` wrote into
 * batch files and no `batch import` has read yet. A request in a batch file may already be at the
 * vendor, so such a trial is held: `run` does not send it and a later export does not write it
 * again, unless asked to (`run --send-exported`, `batch export --reexport`); otherwise it would be
 * paid twice. An import marks read every trial its files name, whatever its line says (an answer,
 * an error to export again); a trial with a final result is never held. The judges' batch files
 * are recorded the same way in the judge ledger (a target's key in place of a trial id).
 */
import { StimkitError } from '../core/errors.js';
import { lostLockRefusal } from './claim.js';
import { partsText } from '../core/part-name.js';
import { heldLock } from './lock.js';
import type { Db } from './open.js';

/** One line of an export: the trial (or judge target) and the line's id. */
export interface ExportedLine {
  trialId: string;
  customId: string;
}

/**
 * Where a held trial's request is: the export's file (`--out` as an absolute path; its parts when
 * `parts` > 1, core/part-name.ts) and when it was written.
 */
export interface InBatch {
  file: string;
  parts: number;
  exported_at: string;
}

/**
 * Record one export's lines in one transaction, which first checks that this writer still holds
 * the ledger's lock (E_RUN_LEDGER_BUSY, nothing recorded, when it lost it). Returns the export's id.
 */
export function recordExport(
  db: Db,
  runId: number,
  model: string,
  e: { file: string; parts: number; lines: readonly ExportedLine[] },
): number {
  const at = new Date().toISOString();
  const head = db.prepare(
    'INSERT INTO batch_exports (run_id, model, file, parts, requests, exported_at, writer_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const line = db.prepare(
    'INSERT INTO batch_exported (export_id, trial_id, custom_id) VALUES (?, ?, ?)',
  );
  return db.transaction(() => {
    const lost = lostLockRefusal(db);
    if (lost)
      throw StimkitError.fromProblem({
        code: 'E_RUN_LEDGER_BUSY',
        message: `this export lost the ledger's writer lock while it wrote (now held by ${lost.holder}): nothing recorded, no batch file written`,
        fix: 'run the same command again once that writer has finished',
      });
    const id = Number(
      head.run(runId, model, e.file, e.parts, e.lines.length, at, heldLock(db)?.writerId ?? null)
        .lastInsertRowid,
    );
    for (const l of e.lines) line.run(id, l.trialId, l.customId);
    return id;
  })();
}

/**
 * The trials of `model` in run `runId` that a batch file holds: exported, not read by an import
 * since, and without a final result; each with its latest export.
 */
export function inBatch(db: Db, runId: number, model: string): Map<string, InBatch> {
  const rows = db
    .prepare(
      `SELECT x.trial_id, e.file, e.parts, e.exported_at FROM batch_exported x
       JOIN batch_exports e ON e.export_id = x.export_id
       WHERE e.run_id = ? AND e.model = ? AND x.imported_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM results r
                         WHERE r.run_id = e.run_id AND r.model = e.model AND r.trial_id = x.trial_id)
       ORDER BY e.export_id`,
    )
    .all(runId, model) as Array<{ trial_id: string } & InBatch>;
  return new Map(
    rows.map((r) => [r.trial_id, { file: r.file, parts: r.parts, exported_at: r.exported_at }]),
  );
}

/** The files of the exports that hold `held` (each once, as written: `out`, or its parts). */
export function heldFiles(held: Iterable<InBatch>): string[] {
  return [...new Set([...held].map((h) => partsText(h.file, h.parts)))];
}

/**
 * The requests an export to `file` (an absolute `--out`) holds that no import has read and that
 * have no result, in any run and for any model of the ledger: what writing `file` again would
 * delete.
 */
function heldIn(db: Db, file: string): Array<{ run_id: number; model: string; trial_id: string }> {
  return db
    .prepare(
      `SELECT DISTINCT e.run_id, e.model, x.trial_id FROM batch_exported x
       JOIN batch_exports e ON e.export_id = x.export_id
       WHERE e.file = ? AND x.imported_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM results r
                         WHERE r.run_id = e.run_id AND r.model = e.model AND r.trial_id = x.trial_id)`,
    )
    .all(file) as Array<{ run_id: number; model: string; trial_id: string }>;
}

/** Mark the trials an import read as read, in every export of the run's model that holds them. */
export function markImported(
  db: Db,
  runId: number,
  model: string,
  trialIds: Iterable<string>,
): void {
  const mark = db.prepare(
    `UPDATE batch_exported SET imported_at = ? WHERE trial_id = ? AND imported_at IS NULL
       AND export_id IN (SELECT export_id FROM batch_exports WHERE run_id = ? AND model = ?)`,
  );
  const at = new Date().toISOString();
  db.transaction(() => {
    for (const id of trialIds) mark.run(at, id, runId, model);
  })();
}

/**
 * E_BATCH_OUT_HELD unless writing `file` again keeps every request an earlier export to it holds:
 * each must be among `keys`, the requests of this export (of run `runId` and `model`).
 */
export function refuseOverwrite(
  db: Db,
  file: string,
  at: { runId: number; model: string; keys: ReadonlySet<string> },
): void {
  const lost = heldIn(db, file).filter(
    (h) => h.run_id !== at.runId || h.model !== at.model || !at.keys.has(h.trial_id),
  );
  if (lost.length === 0) return;
  throw StimkitError.fromProblem({
    code: 'E_BATCH_OUT_HELD',
    file,
    message: `this file holds ${lost.length} request(s) of an earlier export whose output no import has read (e.g. ${lost[0]!.trial_id} of model ${lost[0]!.model}), which this export would not write again: writing it would delete them while the ledger holds them as sent`,
    fix: "import that batch's output first, write this export elsewhere (another --out; for score, another --judge-batch-out), or, if that batch failed or was never sent, add --reexport (with the same model and selection) to write them again",
  });
}
