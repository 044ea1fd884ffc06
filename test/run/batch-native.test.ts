// Batch export → (the vendor's batch run, stood in by the strict server's replies) → import, for
// Anthropic Message Batches (`custom_id` + `params`; results `{custom_id, result}`) and Gemini
// batch JSONL (`key` + `request`; output `{key, response | error}`): every exported request
// passes the strict validator, results are recorded exactly once with the hashes run records,
// error lines are classified as run classifies replies, and an output of another provider's
// format, or served by another model, is refused before anything is recorded.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Trial } from '../../src/bundle/format.js';
import { ModelSpec } from '../../src/models/schema.js';
import { providerOf } from '../../src/client/providers/index.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { writeRunBag } from './fixture.js';
import { exportBatch, query, writeModels } from './helpers.js';
import { anthropicReply, geminiReply } from './vendor/replies.js';
import { anthropicProblem } from './vendor/validate-anthropic.js';
import { geminiProblem } from './vendor/validate-gemini.js';

const SPECS = {
  anthropic: {
    name: 'claude',
    provider: 'anthropic',
    api_model: 'claude-sonnet-4-5',
    max_tokens: 256,
  },
  gemini: { name: 'gemini-flash', provider: 'gemini', api_model: 'gemini-2.5-flash' },
} as const;

/**
 * What the vendor's batch run writes for request i (answers, a refusal or block, an error, a
 * dropped one), or null when the vendor writes nothing for it.
 */
function outputLine(vendor: 'anthropic' | 'gemini', id: string, i: number, model: string): unknown {
  if (i === 3) return null; // still missing after the batch
  if (vendor === 'anthropic') {
    if (i === 0)
      return {
        custom_id: id,
        result: {
          type: 'errored',
          error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        },
      };
    if (i === 1)
      return {
        custom_id: id,
        result: {
          type: 'errored',
          error: { type: 'error', error: { type: 'invalid_request_error', message: 'bad' } },
        },
      };
    if (i === 2) return { custom_id: id, result: { type: 'expired' } };
    const a = i === 4 ? { kind: 'refusal' as const } : { kind: 'ok' as const };
    return {
      custom_id: id,
      result: { type: 'succeeded', message: JSON.parse(anthropicReply(a, model, i).text) },
    };
  }
  if (i === 0)
    return { key: id, error: { code: 14, message: 'unavailable', status: 'UNAVAILABLE' } };
  if (i === 1) return { key: id, error: { code: 3, message: 'bad', status: 'INVALID_ARGUMENT' } };
  if (i === 2)
    return { key: id, error: { code: 8, message: 'quota', status: 'RESOURCE_EXHAUSTED' } };
  const a = i === 4 ? { kind: 'blocked' as const } : { kind: 'ok' as const };
  return { key: id, response: JSON.parse(geminiReply(a, model, i).text) };
}

describe.each(['anthropic', 'gemini'] as const)('batch files: %s', (vendor) => {
  let dir: string;
  let bag: string;
  let models: string;
  let lines: any[];
  const spec = SPECS[vendor];
  beforeAll(async () => {
    dir = await tempDir(`stimkit-batch-${vendor}-`);
    bag = path.join(dir, 'bag');
    await writeRunBag(bag, 6);
    models = await writeModels(dir, [spec]);
    const input = path.join(dir, 'in.jsonl');
    const exp = await exportBatch(bag, models, spec.name, input, '--json');
    expect(exp.code, exp.stderr).toBe(0);
    expect(exp.json()).toMatchObject({ requests: 8, provider: vendor });
    lines = (await readFile(input, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
  });

  it('exports one request per trial in the vendor’s batch format, each of the documented shape', () => {
    for (const l of lines) {
      if (vendor === 'anthropic') {
        expect(Object.keys(l).sort()).toEqual(['custom_id', 'params']);
        expect(l.custom_id).toMatch(/^[a-zA-Z0-9_-]{1,64}$/); // Message Batches' custom_id rule
        expect(
          anthropicProblem(
            { 'anthropic-version': '2026-10-21', 'content-type': 'application/json' },
            l.params,
          ),
        ).toBeNull();
      } else {
        expect(Object.keys(l).sort()).toEqual(['key', 'request']);
        expect(
          geminiProblem(
            '/v1beta/models/gemini-2.5-flash:generateContent',
            { 'content-type': 'application/json' },
            l.request,
          ),
        ).toBeNull();
      }
    }
  });

  it('imports the output exactly once, classified as run classifies, with run’s hashes', async () => {
    const ids = lines.map((l) => l.custom_id ?? l.key);
    const out = ids
      .map((id, i) => outputLine(vendor, id, i, spec.api_model))
      .filter((l) => l !== null)
      .reverse();
    const output = path.join(dir, 'out.jsonl');
    await writeFile(output, out.map((o) => JSON.stringify(o)).join('\n') + '\n');
    const ledger = path.join(dir, 'batch.sqlite');
    const args = [
      'batch',
      'import',
      output,
      '--bundle',
      bag,
      '--model',
      spec.name,
      '--ledger',
      ledger,
      '--models',
      models,
      '--json',
    ];
    const imp = await runCli(args);
    expect(imp.code, imp.stderr).toBe(0);
    expect(imp.json()).toMatchObject({
      lines: 7,
      recorded: 5,
      outcomes: {
        answer: 3,
        failed: 1,
        provider_block: 1,
      },
      skipped: 0,
    });
    // custom_ids are `<trial id>-<request hash>`; missing lists trial ids
    const trialOf = (id: string) => id.split('-')[0];
    expect(imp.json().missing.sort()).toEqual([ids[0], ids[2], ids[3]].map(trialOf).sort());
    const again = await runCli(args);
    expect(again.json()).toMatchObject({ recorded: 0, skipped: 7 });
    expect(query(ledger, 'SELECT COUNT(*) AS n FROM results')[0].n).toBe(5);
    const trials = (await readFile(path.join(bag, 'data', 'trials.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => Trial.parse(JSON.parse(l)));
    const model = ModelSpec.parse(spec);
    for (const r of query(ledger, 'SELECT trial_id, request_sha256 FROM results'))
      expect(r.request_sha256).toBe(
        providerOf(model).build(
          trials.find((t) => t.id === r.trial_id)!,
          model,
        ).sha256,
      );
  });

  it('refuses an output of another provider’s format, or of another served model, recording nothing', async () => {
    const other = path.join(dir, 'other.jsonl');
    const id = lines[0].custom_id ?? lines[0].key;
    const foreign =
      vendor === 'anthropic'
        ? { key: id, response: JSON.parse(geminiReply({ kind: 'ok' }, 'gemini-2.5-flash', 0).text) }
        : {
            custom_id: id,
            response: { status_code: 200, body: { model: 'x', choices: [] } },
            error: null,
          };
    await writeFile(other, `${JSON.stringify(foreign)}\n`);
    const ledger = path.join(dir, 'refused.sqlite');
    const r = await runCli([
      'batch',
      'import',
      other,
      '--bundle',
      bag,
      '--model',
      spec.name,
      '--ledger',
      ledger,
      '--models',
      models,
      '--json',
    ]);
    expect(r.code).toBe(1);
    expect(r.json().error).toMatchObject({ code: 'E_BATCH_FORMAT' });
    expect(r.json().error.problems[0].line).toBe(1);
    const wrongModel = outputLine(vendor, id, 5, 'some-other-model');
    await writeFile(other, `${JSON.stringify(wrongModel)}\n`);
    const m = await runCli([
      'batch',
      'import',
      other,
      '--bundle',
      bag,
      '--model',
      spec.name,
      '--ledger',
      ledger,
      '--models',
      models,
      '--json',
    ]);
    expect(m.code).toBe(1);
    expect(m.json().error.code).toBe('E_BATCH_MODEL');
  });

  it('without --models, refuses its own output saying to pass --models FILE', async () => {
    const own = path.join(dir, 'own.jsonl');
    await writeFile(
      own,
      `${JSON.stringify(outputLine(vendor, lines[0].custom_id ?? lines[0].key, 5, spec.api_model))}\n`,
    );
    const r = await runCli([
      'batch',
      'import',
      own,
      '--bundle',
      bag,
      '--model',
      spec.name,
      '--ledger',
      path.join(dir, 'no-models.sqlite'),
      '--json',
    ]);
    expect(r.code).toBe(1);
    expect(r.json().error).toMatchObject({ code: 'E_BATCH_FORMAT' });
    expect(r.json().error.problems[0].message).toContain('no --models file');
    expect(r.json().error.problems[0].fix).toContain('pass --models FILE');
  });
});
