// Batch export → (a stand-in for vllm run-batch) → import: the same bodies run would send, the
// trial id through custom_id, results recorded exactly once, error lines classified as run
// classifies replies, the missing trials listed.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRequest } from '../../src/client/request.js';
import { ModelSpec } from '../../src/models/schema.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { writeRunBag } from './fixture.js';
import { exportBatch, importBatch, query, writeModels } from './helpers.js';
import { startServer } from './server.js';

let dir: string;
let bag: string;
let models: string;
beforeAll(async () => {
  dir = await tempDir('stimkit-run-batch-');
  bag = path.join(dir, 'bag');
  await writeRunBag(bag, 6);
  models = await writeModels(dir, [
    {
      name: 'vlm',
      endpoint: 'http://127.0.0.1:9/v1',
      api_model: 'org/vlm-7b',
      sampling: { top_k: 'drop' },
    },
  ]);
});

/** A batch output file answering every exported line with `content` (served by org/vlm-7b). */
function answeredAll(lines: Array<{ custom_id: string }>, content: string): string {
  return (
    lines
      .map((l, i) =>
        JSON.stringify({
          id: `r${i}`,
          custom_id: l.custom_id,
          response: {
            status_code: 200,
            body: {
              model: 'org/vlm-7b',
              choices: [{ message: { content }, finish_reason: 'stop' }],
            },
          },
          error: null,
        }),
      )
      .join('\n') + '\n'
  );
}

describe('batch export and import', () => {
  it('round-trips through custom_id exactly once', async () => {
    const input = path.join(dir, 'in.jsonl');
    const exp = await exportBatch(bag, models, 'vlm', input, '--json');
    expect(exp.code, exp.stderr).toBe(0);
    // every request leaves top_k out: the summary counts dropped fields over all of them
    expect(exp.json()).toMatchObject({ requests: 8, dropped: { top_k: 8 } });
    const lines = (await readFile(input, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(8);
    expect(lines[0]).toMatchObject({
      method: 'POST',
      url: '/v1/chat/completions',
      body: { model: 'org/vlm-7b', seed: 42, chat_template_kwargs: { enable_thinking: false } },
    });
    expect(lines[0].body.top_k).toBeUndefined();
    const image = lines.find((l) => Array.isArray(l.body.messages[0].content));
    expect(image.body.messages[0].content[0].image_url.url).toMatch(/^data:image\/png;base64,/);

    // What vllm run-batch writes: one output line per request, in any order; here with faults.
    const out = lines
      .map((l, i) => {
        const id = `batch_req_${i}`;
        if (i === 0)
          return {
            id,
            custom_id: l.custom_id,
            response: { status_code: 500, body: { error: 'overloaded' } },
            error: null,
          };
        if (i === 1)
          return {
            id,
            custom_id: l.custom_id,
            response: null,
            error: { code: 'timeout', message: 'request timed out' },
          };
        if (i === 2)
          return {
            id,
            custom_id: l.custom_id,
            response: {
              status_code: 200,
              body: {
                model: 'org/vlm-7b',
                choices: [{ message: { content: '' }, finish_reason: 'content_filter' }],
              },
            },
            error: null,
          };
        if (i === 3)
          return {
            id,
            custom_id: l.custom_id,
            response: { status_code: 404, body: { error: 'no such model' } },
            error: null,
          };
        return {
          id,
          custom_id: l.custom_id,
          response: {
            status_code: 200,
            body: {
              model: 'org/vlm-7b',
              choices: [{ message: { content: `answer ${l.custom_id}` }, finish_reason: 'stop' }],
              usage: { prompt_tokens: 3, completion_tokens: 2 },
            },
          },
          error: null,
        };
      })
      .reverse();
    const output = path.join(dir, 'out.jsonl');
    await writeFile(output, out.map((o) => JSON.stringify(o)).join('\n') + '\n');
    const ledger = path.join(dir, 'batch.sqlite');
    const imp = await importBatch([output], bag, models, 'vlm', ledger, '--json');
    expect(imp.code, imp.stderr).toBe(0);
    expect(imp.json()).toMatchObject({
      lines: 8,
      recorded: 6,
      outcomes: { answer: 4, provider_block: 1, failed: 1 },
      errors: { server_error: 1, 'batch_error:timeout': 1 },
      skipped: 0,
    });
    // custom_ids are `<trial id>-<request hash>`; missing lists trial ids
    const trialOf = (id: string) => id.split('-')[0];
    expect(imp.json().missing.sort()).toEqual(
      [trialOf(lines[0].custom_id), trialOf(lines[1].custom_id)].sort(),
    );

    const before = query(ledger, 'SELECT COUNT(*) AS n FROM attempts')[0].n;
    const again = await importBatch([output], bag, models, 'vlm', ledger, '--json');
    expect(again.json()).toMatchObject({ recorded: 0, skipped: 8 });
    expect(query(ledger, 'SELECT COUNT(*) AS n FROM attempts')[0].n).toBe(before);
    expect(query(ledger, 'SELECT COUNT(*) AS n FROM results')[0].n).toBe(6);

    // The request hashes match what run would send for the same trials.
    const spec = ModelSpec.parse({
      name: 'vlm',
      endpoint: 'http://127.0.0.1:9/v1',
      api_model: 'org/vlm-7b',
      sampling: { top_k: 'drop' },
    });
    const trials = (await readFile(path.join(bag, 'data', 'trials.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const hashes = new Map(
      query(ledger, 'SELECT trial_id, request_sha256 FROM results').map((r) => [
        r.trial_id,
        r.request_sha256,
      ]),
    );
    for (const t of trials)
      if (hashes.has(t.id)) expect(hashes.get(t.id)).toBe(buildRequest(t, spec).sha256);

    // A later run of the same model on the same ledger sends only the two still missing.
    const server = await startServer();
    try {
      const live = await writeModels(
        dir,
        [
          {
            name: 'vlm',
            endpoint: server.url,
            api_model: 'org/vlm-7b',
            sampling: { top_k: 'drop' },
          },
        ],
        'live.yaml',
      );
      const run = await runCli(['run', bag, '--models', live, '--ledger', ledger, '--json']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.json().models[0]).toMatchObject({ already_recorded: 6, done: 2 });
      expect(server.requests).toHaveLength(2);
      expect(query(ledger, 'SELECT COUNT(*) AS n FROM results')[0].n).toBe(8);
    } finally {
      await server.close();
    }
  });

  it('refuses bad flag combinations with exit 2, each with a fix', async () => {
    const cases = [
      ['export', bag, '--models', models, '--out', path.join(dir, 'x.jsonl')],
      ['export', bag, '--models', models, '--model', 'vlm', '--judge', 'j', '--out', dir],
      ['export', bag, '--judge', 'j', '--models', models, '--out', dir],
      [
        'import',
        path.join(dir, 'a.jsonl'),
        path.join(dir, 'b.jsonl'),
        '--bundle',
        bag,
        '--model',
        'vlm',
      ],
      [
        'import',
        dir,
        '--bundle',
        bag,
        '--judge',
        'a',
        '--judge',
        'b',
        '--models',
        models,
        '--ledger',
        path.join(dir, 'l.sqlite'),
      ],
    ];
    for (const args of cases) {
      const r = await runCli(['batch', ...args, '--json']);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.json().error, args.join(' ')).toMatchObject({
        code: 'E_BATCH_USAGE',
        fix: expect.any(String),
      });
    }
  });

  it('refuses a simulated model with exit 1, and an output file imported under another model', async () => {
    const sim = await writeModels(
      dir,
      [
        { name: 'vlm', endpoint: 'http://127.0.0.1:9/v1', api_model: 'org/vlm-7b' },
        { name: 'simmy', provider: 'sim', sim: { seed: 1 } },
      ],
      'sim.yaml',
    );
    const s = await exportBatch(bag, sim, 'simmy', path.join(dir, 'sim.jsonl'), '--json');
    expect(s.code).toBe(1);
    expect(s.json().error.code).toBe('E_BATCH_SIM');
    expect(s.json().error.message).toContain(
      'expected provider: openai, anthropic or gemini, got provider: sim',
    );

    const input = path.join(dir, 'in2.jsonl');
    expect((await exportBatch(bag, models, 'vlm', input, '--json')).code).toBe(0);
    const lines = (await readFile(input, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const output = path.join(dir, 'out2.jsonl');
    await writeFile(output, answeredAll(lines, 'x'));
    const ledger = path.join(dir, 'other.sqlite');
    const importAs = (model: string) =>
      runCli([
        'batch',
        'import',
        output,
        '--bundle',
        bag,
        '--model',
        model,
        '--ledger',
        ledger,
        '--json',
      ]);
    const other = await importAs('Other');
    expect(other.code).toBe(1);
    expect(other.json().error.code).toBe('E_BATCH_MODEL');
    expect(other.json().error.message).toContain('expected "Other", got "org/vlm-7b"');
    // nor under a model whose name the served one only starts with (vlm-7b is not a snapshot of vlm)
    expect((await importAs('vlm')).json().error.code).toBe('E_BATCH_MODEL');
    // under its own name (no models file: the served name without its organisation) it is recorded
    const own = await importAs('vlm-7b');
    expect(own.code, own.stderr).toBe(0);
    expect(own.json().recorded).toBe(lines.length);
  });

  it('refuses a line whose custom_id is no trial of the bundle', async () => {
    const output = path.join(dir, 'bad.jsonl');
    await writeFile(
      output,
      `${JSON.stringify({ custom_id: 't_000000000000000000000000', response: { status_code: 200, body: { choices: [{ message: { content: 'x' }, finish_reason: 'stop' }] } } })}\n`,
    );
    const r = await runCli([
      'batch',
      'import',
      output,
      '--bundle',
      bag,
      '--model',
      'vlm',
      '--ledger',
      path.join(dir, 'bad.sqlite'),
      '--json',
    ]);
    expect(r.code).toBe(1);
    expect(r.json().unknown).toEqual(['t_000000000000000000000000']);
  });

  it("does not record a line of a trial outside the model's selection (a text-only model's image trials)", async () => {
    const textOnly = await writeModels(
      dir,
      [
        {
          name: 'txt',
          endpoint: 'http://127.0.0.1:9/v1',
          api_model: 'org/vlm-7b',
          // the vlm's requests, so its text trials' lines answer this model's requests too
          sampling: { top_k: 'drop' },
          modalities: ['text'],
        },
      ],
      'text-only.yaml',
    );
    // The vlm's export holds image trials too; its output is imported under the text-only model.
    const input = path.join(dir, 'all.jsonl');
    const exp = await exportBatch(bag, models, 'vlm', input);
    expect(exp.code, exp.stderr).toBe(0);
    const lines = (await readFile(input, 'utf8'))
      .trim()
      .split('\n')
      .map(
        (l) => JSON.parse(l) as { custom_id: string; body: { messages: { content: unknown }[] } },
      );
    const withImage = lines
      .filter((l) => l.body.messages.some((m) => Array.isArray(m.content)))
      .map((l) => l.custom_id);
    expect(withImage.length).toBeGreaterThan(0);
    const output = path.join(dir, 'all-out.jsonl');
    await writeFile(output, answeredAll(lines, 'ok'));
    const ledger = path.join(dir, 'text-only.sqlite');
    const r = await runCli([
      'batch',
      'import',
      output,
      '--bundle',
      bag,
      '--model',
      'txt',
      '--models',
      textOnly,
      '--ledger',
      ledger,
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(1);
    expect([...r.json().unknown].sort()).toEqual([...withImage].sort());
    expect(r.json().recorded).toBe(lines.length - withImage.length);
    const recorded = query<{ trial_id: string }>(ledger, 'SELECT trial_id FROM results');
    const imageTrials = withImage.map((id) => id.split('-')[0]);
    expect(recorded.map((x) => x.trial_id).filter((id) => imageTrials.includes(id))).toEqual([]);
  });
});
