/**
 * The ledger's result INSERT binds every column by name: a final result whose every field has a
 * value of its own lands each value in its own column, and no column of the results table is left
 * out of the INSERT (a column added to the schema but not to the row fails here).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/core/redact.js';
import { acquireLock } from '../../src/ledger/lock.js';
import { openLedgerDb } from '../../src/ledger/open.js';
import { LedgerWriter } from '../../src/ledger/write.js';
import { tempDir } from '../helpers/tmp.js';

describe('a result row', () => {
  it('puts each field in its own column, and every column of the table is written', async () => {
    const file = path.join(await tempDir('stimkit-result-row-'), 'rows.sqlite');
    const db = openLedgerDb(file);
    const lock = acquireLock(db, file, 'stimkit test');
    const w = new LedgerWriter(db, 7, 'digest-x', new Redactor([]));
    const id = w.claim('m', 't_1', 1, 'run', 'req-sha', 'http://127.0.0.1:9/v1');
    expect(typeof id).toBe('number');
    w.recordFinal(
      id as number,
      'm',
      't_1',
      { outcome: 'answer', latency_ms: 11 },
      {
        outcome: 'answer',
        request_sha256: 'req-sha',
        dropped: ['seed'],
        response_text: 'resp',
        reasoning_text: 'think',
        finish_reason: 'stop',
        usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
        served_model: 'served',
        system_fingerprint: 'fp',
        simulated: true,
        truth: { t: 1 },
        error_class: 'ec',
        http_status: 299,
        error_body: 'eb',
        attempts: 4,
        latency_ms: 5.5,
        sent_images: [{ sha256: 'img' }],
        cost_usd: 0.25,
        route_provider: 'rp',
        response_id: 'rid',
        request_id: 'qid',
        region: 'reg',
        endpoint: 'http://127.0.0.1:9/v1',
        reasoning_visibility: 'summary',
        reasoning_tokens: 17,
      },
    );
    const row = db.prepare('SELECT * FROM results').get() as Record<string, unknown>;
    const { finished_at, ...rest } = row;
    expect(typeof finished_at).toBe('string');
    expect(rest).toEqual({
      run_id: 7,
      model: 'm',
      trial_id: 't_1',
      bundle_digest: 'digest-x',
      outcome: 'answer',
      request_sha256: 'req-sha',
      dropped: '["seed"]',
      response_text: 'resp',
      reasoning_text: 'think',
      finish_reason: 'stop',
      prompt_tokens: 1,
      completion_tokens: 2,
      total_tokens: 3,
      usage: '{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}',
      served_model: 'served',
      system_fingerprint: 'fp',
      simulated: 1,
      truth: '{"t":1}',
      error_class: 'ec',
      http_status: 299,
      error_body: 'eb',
      attempts: 4,
      latency_ms: 5.5,
      sent_images: '[{"sha256":"img"}]',
      cost_usd: 0.25,
      route_provider: 'rp',
      response_id: 'rid',
      request_id: 'qid',
      region: 'reg',
      endpoint: 'http://127.0.0.1:9/v1',
      reasoning_visibility: 'summary',
      reasoning_tokens: 17,
    });
    lock.release();
    db.close();
  });
});
