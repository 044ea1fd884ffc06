// A batch export recorded in the ledger claims its trials: `run` on that ledger does not send a
// trial a batch file holds until `batch import` has read that trial's line (a request at the vendor
// is not paid twice), a later export leaves it out until --reexport, and --send-exported sends it
// live; what the output leaves unanswered (an error line) is sent by the next run.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { writeRunBag } from './fixture.js';
import { exportBatch, importBatch, query, writeModels } from './helpers.js';
import { startServer, type TestServer } from './server.js';

let dir: string;
let bag: string;
let models: string;
let server: TestServer;
beforeAll(async () => {
  dir = await tempDir('stimkit-batch-held-');
  bag = path.join(dir, 'bag');
  await writeRunBag(bag, 6);
  server = await startServer(() => ({ kind: 'ok', text: 'live' }));
  models = await writeModels(dir, [
    { name: 'vlm', endpoint: `${server.url}`, api_model: 'org/vlm-7b' },
  ]);
});
afterAll(() => server.close());

/** The custom_ids of a batch input file, in order. */
const idsOf = async (file: string): Promise<string[]> =>
  (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => String(JSON.parse(l).custom_id));

/** An OpenAI Batch output line: an answer, or a server error. */
const outputLine = (custom_id: string, ok: boolean) =>
  JSON.stringify({
    id: `r_${custom_id}`,
    custom_id,
    response: ok
      ? {
          status_code: 200,
          body: {
            model: 'org/vlm-7b',
            choices: [{ message: { content: 'from the batch' }, finish_reason: 'stop' }],
          },
        }
      : { status_code: 500, body: { error: { message: 'server error' } } },
    error: null,
  });

const run = (ledger: string, ...extra: string[]) =>
  runCli(['run', bag, '--models', models, '--ledger', ledger, ...extra]);

describe('a batch export recorded in the ledger', () => {
  it('holds its trials back from run and from a later export until their output is imported', async () => {
    const ledger = path.join(dir, 'held.sqlite');
    const input = path.join(dir, 'in.jsonl');
    const exp = await exportBatch(bag, models, 'vlm', input, '--ledger', ledger, '--json');
    expect(exp.code, exp.stderr).toBe(0);
    expect(exp.json()).toMatchObject({ requests: 8, recorded_in: ledger, warnings: [] });
    const ids = await idsOf(input);
    expect(query(ledger, 'SELECT value FROM meta WHERE key = ?', 'version')[0].value).toBe('4');
    expect(query(ledger, 'SELECT COUNT(*) AS n FROM batch_exported')[0].n).toBe(8);

    // a run before the import sends nothing: every trial is in the batch file
    const first = await run(ledger);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout + first.stderr).toContain('8 held in a batch file not yet imported');
    expect(first.stdout + first.stderr).toContain('--send-exported');
    expect(server.requests).toHaveLength(0);

    // the output: five answers, a server error for the sixth, nothing for the last two
    const output = path.join(dir, 'out.jsonl');
    await writeFile(
      output,
      `${ids
        .slice(0, 6)
        .map((id, i) => outputLine(id, i < 5))
        .join('\n')}\n`,
    );
    const imp = await importBatch([output], bag, models, 'vlm', ledger, '--json');
    expect(imp.code, imp.stderr).toBe(0);
    expect(imp.json()).toMatchObject({ recorded: 5, in_batch: 2 });
    expect(imp.json().missing).toHaveLength(3);

    // the next run sends the one the batch answered with an error, and holds the two unanswered
    const second = await run(ledger, '--json');
    expect(second.code, second.stderr).toBe(0);
    expect(second.json().models[0]).toMatchObject({
      pending: 1,
      done: 1,
      in_batch: { trials: 2, files: [input] },
    });
    expect(server.requests).toHaveLength(1);
    expect(ids[5]).toContain(
      query(ledger, 'SELECT trial_id FROM results WHERE response_text = ?', 'live')[0].trial_id,
    );

    // a later export leaves them out, and says so; --reexport writes them again
    const again = path.join(dir, 'again.jsonl');
    const none = await exportBatch(bag, models, 'vlm', again, '--ledger', ledger, '--json');
    expect(none.code, none.stderr).toBe(0);
    expect(none.json()).toMatchObject({ requests: 0, in_batch: { trials: 2, files: [input] } });
    const re = await exportBatch(bag, models, 'vlm', again, '--ledger', ledger, '--reexport');
    expect(re.code, re.stderr).toBe(0);
    expect(await idsOf(again)).toEqual(ids.slice(6));

    // --send-exported sends them live, once each; importing the re-export's output then records nothing
    const third = await run(ledger, '--send-exported', '--json');
    expect(third.json().models[0]).toMatchObject({ pending: 2, done: 2 });
    expect(server.requests).toHaveLength(3);
    expect(server.requests.map((r) => r.seen)).toEqual([0, 0, 0]); // each trial once
    const late = path.join(dir, 'late.jsonl');
    await writeFile(
      late,
      `${ids
        .slice(6)
        .map((id) => outputLine(id, true))
        .join('\n')}\n`,
    );
    const lateImp = await importBatch([late], bag, models, 'vlm', ledger, '--json');
    expect(lateImp.json()).toMatchObject({ recorded: 0, skipped: 2, in_batch: 0, missing: [] });
    expect(query(ledger, 'SELECT COUNT(*) AS n FROM results')[0].n).toBe(8);
  });

  it('records in the run that run and import continue, keeps a file an earlier export holds, and refuses a folder as --out', async () => {
    const ledger = path.join(dir, 'two.sqlite');
    const other = path.join(dir, 'bag-other');
    await writeRunBag(other, 4);
    // the ledger's latest run is of another bundle: refused as run and import refuse it
    const first = await runCli(['run', other, '--models', models, '--ledger', ledger]);
    expect(first.code, first.stderr).toBe(0);
    const served = server.requests.length;
    const out = path.join(dir, 'two.jsonl');
    const refused = await exportBatch(bag, models, 'vlm', out, '--ledger', ledger);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('E_RUN_LEDGER_DIGEST');
    const exp = await exportBatch(
      bag,
      models,
      'vlm',
      out,
      '--ledger',
      ledger,
      '--new-run',
      'b2',
      '--where',
      'lang=en',
      '--json',
    );
    expect(exp.code, exp.stderr).toBe(0);
    const held = exp.json().requests;
    expect(held).toBeGreaterThan(0);
    // run continues run b2 and holds what the export wrote
    const r = await run(ledger, '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ run: 'b2' });
    expect(r.json().models[0].in_batch.trials).toBe(held);
    expect(server.requests.length - served).toBe(8 - held);
    // another selection to the same file would delete requests the ledger holds: refused
    const zh = await exportBatch(bag, models, 'vlm', out, '--ledger', ledger, '--where', 'lang=zh');
    expect(zh.code).toBe(1);
    expect(zh.stderr).toContain('E_BATCH_OUT_HELD');
    expect(await idsOf(out)).toHaveLength(held);
    // --reexport of the same selection writes them all again into it
    const re = await exportBatch(bag, models, 'vlm', out, '--ledger', ledger, '--reexport');
    expect(re.code, re.stderr).toBe(0);
    expect(await idsOf(out)).toHaveLength(held);
    // a folder as --out: refused before anything is recorded
    const rows = query(ledger, 'SELECT COUNT(*) AS n FROM batch_exported')[0].n;
    const folder = await exportBatch(bag, models, 'vlm', dir, '--ledger', ledger, '--reexport');
    expect(folder.code).toBe(1);
    expect(folder.stderr).toContain('E_BATCH_OUT');
    expect(query(ledger, 'SELECT COUNT(*) AS n FROM batch_exported')[0].n).toBe(rows);
  });

  it('imports some parts only with --partial; the others stay held', async () => {
    const ledger = path.join(dir, 'parts.sqlite');
    const input = path.join(dir, 'parts.jsonl');
    const exp = await exportBatch(
      bag,
      models,
      'vlm',
      input,
      '--ledger',
      ledger,
      '--part-requests',
      '3',
      '--json',
    );
    expect(exp.code, exp.stderr).toBe(0);
    const parts: Array<{ file: string }> = exp.json().parts;
    expect(parts).toHaveLength(3);
    const outs: string[] = [];
    for (const p of parts.slice(0, 2)) {
      const o = p.file.replace('parts.part', 'parts-out.part');
      await writeFile(o, `${(await idsOf(p.file)).map((id) => outputLine(id, true)).join('\n')}\n`);
      outs.push(o);
    }
    const imp = (...extra: string[]) =>
      importBatch(outs, bag, models, 'vlm', ledger, '--json', ...extra);
    const whole = await imp();
    expect(whole.code).toBe(1);
    expect(whole.stderr).toContain('--partial');
    const some = await imp('--partial');
    expect(some.code, some.stderr).toBe(0);
    expect(some.json()).toMatchObject({ recorded: 6, in_batch: 2 });
    const r = await run(ledger, '--json');
    expect(r.json().models[0]).toMatchObject({ pending: 0 });
    expect(r.json().models[0].in_batch.files[0]).toMatch(
      /parts\.part-0001-of-0003\.jsonl … .*parts\.part-0003-of-0003\.jsonl$/,
    );
  });

  it('warns that nothing is recorded without --ledger, and refuses --reexport without one', async () => {
    const input = path.join(dir, 'bare.jsonl');
    const bare = await exportBatch(bag, models, 'vlm', input);
    expect(bare.code, bare.stderr).toBe(0);
    expect(bare.stderr).toMatch(/warning: no --ledger: nothing records that these requests/);
    const re = await exportBatch(bag, models, 'vlm', input, '--reexport');
    expect(re.code).toBe(2);
    expect(re.stderr).toContain('--reexport');
  });
});
