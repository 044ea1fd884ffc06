/**
 * The images the final results of a run sent (`results.sent_images`, client/send-image.ts), with
 * each trial's entry and variant: what `LedgerReader.results` gives for them, without reading the
 * other columns (the response text, the simulator's truth, …) nor the results that sent none.
 */
import type { Db } from './open.js';

/** One result's sent images. */
export interface SentImages {
  model: string;
  trial_id: string;
  entry: string | null;
  variant: string | null;
  /** As recorded: source and sent sha256, bytes, width, height, mime. */
  images: Array<Record<string, unknown>>;
}

/** The results of run `runId` that sent images, ordered by model then trial id (streamed). */
export function* sentImageRows(db: Db, runId: number): IterableIterator<SentImages> {
  // a ledger older than the column, opened read-only, has none (readers take it as NULL)
  const columns = db.prepare('PRAGMA table_info(results)').all() as Array<{ name: string }>;
  if (!columns.some((c) => c.name === 'sent_images')) return;
  const stmt = db.prepare(
    `SELECT r.model, r.trial_id, r.sent_images, t.entry, t.variant
     FROM results r LEFT JOIN trials t ON t.run_id = r.run_id AND t.trial_id = r.trial_id
     WHERE r.run_id = ? AND r.sent_images IS NOT NULL ORDER BY r.model, r.trial_id`,
  );
  for (const r of stmt.iterate(runId) as IterableIterator<Record<string, unknown>>) {
    const images = JSON.parse(r.sent_images as string) as Array<Record<string, unknown>> | null;
    if (images === null || images.length === 0) continue;
    yield {
      model: r.model as string,
      trial_id: r.trial_id as string,
      entry: r.entry as string | null,
      variant: r.variant as string | null,
      images,
    };
  }
}
