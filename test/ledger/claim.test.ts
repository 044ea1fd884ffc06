/**
 * Claims, the rule every paid request follows (run's model calls and a judge's live calls alike):
 * a writer may claim an attempt of a trial only while it holds the lock and only if no one else
 * has attempted the trial since it planned it; a claim refused is returned, never sent.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/core/redact.js';
import { acquireLock } from '../../src/ledger/lock.js';
import { openLedgerDb } from '../../src/ledger/open.js';
import { LedgerWriter } from '../../src/ledger/write.js';
import { tempDir } from '../helpers/tmp.js';

describe('claims', () => {
  it('refuse a trial another writer attempted, and every claim of a writer that lost its lock', async () => {
    const file = path.join(await tempDir('stimkit-ledger-claim-'), 'claims.sqlite');
    const a = openLedgerDb(file);
    const b = openLedgerDb(file);
    const lockA = acquireLock(a, file, 'stimkit score --judge a');
    const wa = new LedgerWriter(a, 1, 'd', new Redactor([]));
    const wb = new LedgerWriter(b, 1, 'd', new Redactor([]));
    const claim = (w: LedgerWriter, trial: string, attempt: number) =>
      w.claim('judge', trial, attempt, 'judge', 'h', null);

    const first = claim(wa, 't1@m', 1);
    expect(typeof first).toBe('number');
    // Without the lock, B may claim nothing; A may not claim t1 again while its attempt is open.
    expect(claim(wb, 't2@m', 1)).toEqual({
      refused: 'lost_lock',
      holder: expect.stringContaining(`pid ${process.pid}`),
    });
    expect(claim(wa, 't1@m', 2)).toEqual({ refused: 'taken' });

    // B forced past the lock (its row cleared by hand): A's open claim stays A's, A stops claiming.
    b.prepare('DELETE FROM lock').run();
    const lockB = acquireLock(b, file, 'stimkit score --judge b');
    expect(lockB.interrupted).toBe(0);
    expect(claim(wb, 't1@m', 1)).toEqual({ refused: 'taken' });
    expect(claim(wb, 't1@m', 2)).toEqual({ refused: 'taken' });
    expect(claim(wa, 't3@m', 1)).toMatchObject({ refused: 'lost_lock' });
    wa.finishAttempt(first as number, { outcome: 'retry' });
    // A trial attempted after B planned it (B expected attempt 1): refused; as planned: claimed.
    expect(claim(wb, 't1@m', 1)).toEqual({ refused: 'taken' });
    expect(typeof claim(wb, 't1@m', 2)).toBe('number');
    expect(typeof claim(wb, 't3@m', 1)).toBe('number');
    const rows = b
      .prepare('SELECT trial_id, attempt, writer_id FROM attempts ORDER BY attempt_id')
      .all();
    expect(rows).toEqual([
      { trial_id: 't1@m', attempt: 1, writer_id: lockA.writerId },
      { trial_id: 't1@m', attempt: 2, writer_id: lockB.writerId },
      { trial_id: 't3@m', attempt: 1, writer_id: lockB.writerId },
    ]);
    lockA.release();
    lockB.release();
    a.close();
    b.close();
  });
});
