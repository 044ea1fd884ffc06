// The judge at scale through batch files: export writes the pending judge requests (the bodies a
// live call would send, keyed by the judge key) and sends nothing; import fills the judge ledger
// exactly as live calls do (same outcome, text, request hash), once; a later export holds only
// what is still unjudged.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeBatchFile } from '../../src/audit/judge-batch.js';
import { judgeCounts, runJudgeCalls, type JudgeCallOptions } from '../../src/audit/judge-calls.js';
import { ModelSpec } from '../../src/models/schema.js';
import { tempDir } from '../helpers/tmp.js';
import { promptOf } from '../run/fixture.js';
import { FAST, query } from '../run/helpers.js';
import { startServer, type TestServer } from '../run/server.js';

const TARGETS = [0, 1, 2, 3];
const LABEL = 'main/rubric-0123456789ab';
let dir: string;
let server: TestServer;
beforeAll(async () => {
  dir = await tempDir('stimkit-judge-batch-');
  server = await startServer((r) => ({ kind: 'ok', text: `{"label": ${r.k}}` }));
});
afterAll(() => server.close());

const judge = (endpoint: string) =>
  ModelSpec.parse({ name: 'judge-x', role: 'judge', endpoint, api_model: 'org/judge-x' });
const options = (ledger: string, endpoint: string): JudgeCallOptions<number> => ({
  ledger,
  digest: 'd'.repeat(64),
  studyId: null,
  runLabel: LABEL,
  judge: judge(endpoint),
  profile: { provider: 'openai' },
  targets: TARGETS,
  targetIdOf: (k) => `t_${k}@resp`,
  request: (k, structured) => ({
    body: {
      model: 'org/judge-x',
      messages: [{ role: 'user', content: promptOf(k) }],
      ...(structured ? { response_format: { type: 'json_object' } } : {}),
    },
    sha256: `${structured ? 's' : 'p'}${k}`.padStart(64, '0'),
  }),
  backoff: FAST,
});
const rows = (ledger: string) =>
  query(
    ledger,
    'SELECT trial_id, outcome, response_text, request_sha256 FROM results ORDER BY trial_id',
  );

/** The judge keys of a requests file, in order. */
const keysIn = async (file: string): Promise<string[]> =>
  (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => String(JSON.parse(l).custom_id).split(':').pop()!);

describe('judge batch files', () => {
  it('export sends nothing; import records as live calls do, once', async () => {
    const batchLedger = path.join(dir, 'batch.sqlite');
    const out = path.join(dir, 'batch');
    const unreachable = 'http://127.0.0.1:9/v1';
    const ex = await runJudgeCalls({ ...options(batchLedger, unreachable), batch: { out } });
    expect(ex.batch?.exported?.requests).toBe(4);
    expect(query(batchLedger, 'SELECT COUNT(*) AS n FROM attempts')[0].n).toBe(0);
    const file = judgeBatchFile(out, 'judge-x', LABEL, 'requests');
    const lines = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // custom_id: judging, bundle, request hash, judge key
    expect(lines.map((l) => l.custom_id)).toEqual(
      TARGETS.map((k) => `rubric-0123456789ab:dddddddddddd:${'0'.repeat(16)}:t_${k}@resp`),
    );
    expect(lines[0]).toMatchObject({ method: 'POST', url: '/v1/chat/completions' });

    // the batch run's output: answers for 0 and 1, a 400 for 2, nothing for 3
    const results = lines.slice(0, 3).map((l, k) => ({
      custom_id: l.custom_id,
      response:
        k < 2
          ? {
              status_code: 200,
              body: {
                model: 'org/judge-x',
                choices: [{ message: { content: `{"label": ${k}}` }, finish_reason: 'stop' }],
              },
            }
          : { status_code: 400, body: { error: { message: 'bad request' } } },
      error: null,
    }));
    await writeFile(
      judgeBatchFile(out, 'judge-x', LABEL, 'results'),
      results.map((r) => JSON.stringify(r)).join('\n'),
    );
    const imp = await runJudgeCalls({ ...options(batchLedger, unreachable), batch: { in: [out] } });
    expect(imp).toMatchObject({ judged: 2, batch: { imported: { recorded: 2, failed: 1 } } });
    const again = await runJudgeCalls({
      ...options(batchLedger, unreachable),
      batch: { in: [out] },
    });
    expect(again.skipped).toBe(2);
    expect(query(batchLedger, 'SELECT COUNT(*) AS n FROM attempts')[0].n).toBe(3);

    // the same judging live: identical rows for the answered keys
    const liveLedger = path.join(dir, 'live.sqlite');
    await runJudgeCalls(options(liveLedger, server.url));
    const live = rows(liveLedger).slice(0, 2);
    expect(rows(batchLedger).slice(0, 2)).toEqual(live);
    expect(rows(batchLedger)[2]).toMatchObject({ trial_id: 't_2@resp', outcome: 'failed' });

    // exporting again writes what is still unjudged and in no batch file: the failed one; the
    // missing one is still held by the first export (its output did not answer it)
    // into the same folder it would delete t_3's request, which the ledger holds as sent: refused
    await expect(
      runJudgeCalls({ ...options(batchLedger, unreachable), batch: { out } }),
    ).rejects.toThrow(/E_BATCH_OUT_HELD|holds 1 request\(s\) of an earlier export/);
    expect(await keysIn(file)).toHaveLength(4);
    const out2 = path.join(dir, 'batch-2');
    const ex2 = await runJudgeCalls({
      ...options(batchLedger, unreachable),
      batch: { out: out2 },
    });
    expect(ex2.batch?.exported).toMatchObject({ requests: 1, in_batch: 1 });
    expect(await keysIn(judgeBatchFile(out2, 'judge-x', LABEL, 'requests'))).toEqual(['t_2@resp']);
    // --reexport (the first batch failed): both, though the second export holds t_2 now
    const ex3 = await runJudgeCalls({
      ...options(batchLedger, unreachable),
      batch: { out, reexport: true },
    });
    expect(ex3.batch?.exported).toMatchObject({ requests: 2, in_batch: 0 });
    expect(await keysIn(file)).toEqual(['t_2@resp', 't_3@resp']);
  });

  it('live calls leave out what a batch file holds, unless sendExported; results read in the same step are not exported again', async () => {
    const ledger = path.join(dir, 'held.sqlite');
    const out = path.join(dir, 'held-out');
    const unreachable = 'http://127.0.0.1:9/v1';
    const ex = await runJudgeCalls({ ...options(ledger, unreachable), batch: { out } });
    expect(ex.batch?.exported?.requests).toBe(4);
    const file = judgeBatchFile(out, 'judge-x', LABEL, 'requests');
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    const before = server.requests.length;
    // a live judging now: every response is in the batch file, nothing is asked (nor paid twice)
    const live = await runJudgeCalls(options(ledger, server.url));
    expect(live).toMatchObject({ judged: 0, in_batch: 4 });
    expect(server.requests.length).toBe(before);
    expect(judgeCounts(live)).toContain('4 not asked: in a batch file');
    // the batch's output for two of them, read in the same step as an export: the export holds
    // neither the two answered (read first) nor the two still in the first batch
    const folder = path.join(dir, 'held-in');
    await mkdir(folder, { recursive: true });
    await writeFile(
      judgeBatchFile(folder, 'judge-x', LABEL, 'results'),
      lines
        .slice(0, 2)
        .map((l, k) =>
          JSON.stringify({
            custom_id: JSON.parse(l).custom_id,
            response: {
              status_code: 200,
              body: {
                model: 'org/judge-x',
                choices: [{ message: { content: `{"label": ${k}}` }, finish_reason: 'stop' }],
              },
            },
            error: null,
          }),
        )
        .join('\n'),
    );
    const both = await runJudgeCalls({
      ...options(ledger, unreachable),
      batch: { in: [folder], out: path.join(dir, 'held-out-2') },
    });
    expect(both.batch?.imported?.recorded).toBe(2);
    expect(both.batch?.exported).toEqual({ file: null, requests: 0, in_batch: 2 });
    // asked live with sendExported: the two still in the batch file, once each
    const sent = await runJudgeCalls({
      ...options(ledger, server.url),
      batch: { sendExported: true },
    });
    expect(sent).toMatchObject({ judged: 2, in_batch: 0, skipped: 2 });
    expect(server.requests.length).toBe(before + 2);
  });

  it('a judging with nothing pending writes no requests file and needs no results file', async () => {
    const ledger = path.join(dir, 'done.sqlite');
    const out = path.join(dir, 'done-out');
    const folder = path.join(dir, 'done-in');
    const unreachable = 'http://127.0.0.1:9/v1';
    // the second round of a fully judged study
    await runJudgeCalls(options(ledger, server.url));
    const ex = await runJudgeCalls({ ...options(ledger, unreachable), batch: { out } });
    expect(ex.batch).toEqual({
      nothing_pending: true,
      exported: { file: null, requests: 0, in_batch: 0 },
    });
    await expect(readFile(judgeBatchFile(out, 'judge-x', LABEL, 'requests'))).rejects.toThrow(
      /ENOENT/,
    );
    expect(judgeCounts(ex)).toContain('nothing pending');
    await mkdir(folder, { recursive: true });
    const imp = await runJudgeCalls({ ...options(ledger, unreachable), batch: { in: [folder] } });
    expect(imp).toMatchObject({ judged: 0, skipped: 4, batch: { nothing_pending: true } });
    // with responses pending, the missing results file is still an error, recording nothing
    const fresh = path.join(dir, 'fresh.sqlite');
    await expect(
      runJudgeCalls({ ...options(fresh, unreachable), batch: { in: [folder] } }),
    ).rejects.toMatchObject({ code: 'E_JUDGE_BATCH_READ' });
    expect(query(fresh, 'SELECT COUNT(*) AS n FROM results')[0].n).toBe(0);
  });
});
