// Each model custom_id names its request, `<trial id>-<first 16 hex of the request sha256>`, and
// import checks it against the models file it is given: an export made with `max_side: 512`
// imported with `max_side: 768` is refused (E_BATCH_REQUEST_CHANGED), recording nothing; a bare
// trial id of an older export is accepted with a warning saying what cannot be checked.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Trial } from '../../src/bundle/format.js';
import { sha256 } from '../../src/core/fsio.js';
import { existsSync } from 'node:fs';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { writeFixtureBag } from '../verify/fixture.js';
import { query, writeModels } from '../run/helpers.js';
import { imageTrials, patternPng } from '../run/pattern.js';

/** Anthropic's custom_id rule (Message Batches, create: `custom_id` pattern and maxLength 64). */
const ANTHROPIC_ID = /^[a-zA-Z0-9_-]{1,64}$/;

let dir: string;
let bag: string;
let lines: any[];
const modelsWith = (name: string, maxSide: number) =>
  writeModels(
    dir,
    [{ name: 'm', endpoint: 'http://127.0.0.1:9/v1', image: { max_side: maxSide } }],
    name,
  );

/** An OpenAI Batch output answering each line, under the ids `idOf` gives. */
async function answered(file: string, idOf: (l: any) => string): Promise<string> {
  const out = lines.map((l) =>
    JSON.stringify({
      custom_id: idOf(l),
      response: {
        status_code: 200,
        body: { model: 'm', choices: [{ message: { content: 'ok' }, finish_reason: 'stop' }] },
      },
      error: null,
    }),
  );
  await writeFile(file, `${out.join('\n')}\n`);
  return file;
}

const importArgs = (output: string, ledger: string, models: string) => [
  'batch',
  'import',
  output,
  '--bundle',
  bag,
  '--model',
  'm',
  '--ledger',
  ledger,
  '--models',
  models,
  '--json',
];

beforeAll(async () => {
  dir = await tempDir('stimkit-batch-request-');
  bag = path.join(dir, 'bag');
  const pngs = [await patternPng(640, 480), await patternPng(300, 200)];
  await writeFixtureBag(bag, imageTrials(pngs), pngs);
  const m512 = await modelsWith('m512.yaml', 512);
  const input = path.join(dir, 'in.jsonl');
  const exp = await runCli([
    'batch',
    'export',
    bag,
    '--models',
    m512,
    '--model',
    'm',
    '--out',
    input,
  ]);
  expect(exp.code, exp.stderr).toBe(0);
  lines = (await readFile(input, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
});

describe('batch custom_ids name their request', () => {
  it('is <trial id>-<first 16 hex of the sha256 of the body sent>, within Anthropic’s rule', () => {
    for (const l of lines) {
      expect(l.custom_id).toMatch(/^t_[0-9a-f]{24}-[0-9a-f]{16}$/);
      expect(l.custom_id.slice(27)).toBe(sha256(JSON.stringify(l.body)).slice(0, 16));
      expect(l.custom_id).toMatch(ANTHROPIC_ID);
    }
    // the longest trial id the bundle format allows is 26 characters: the id is 43
    expect(Trial.shape.id.safeParse(`t_${'f'.repeat(24)}`).success).toBe(true);
    expect(Trial.shape.id.safeParse(`t_${'f'.repeat(25)}`).success).toBe(false);
    expect(`t_${'f'.repeat(24)}-${'0'.repeat(16)}`).toMatch(ANTHROPIC_ID);
  });

  it('refuses an import whose models file makes another request (768 px for a 512 px export), recording nothing', async () => {
    const output = await answered(path.join(dir, 'out.jsonl'), (l) => l.custom_id);
    const ledger = path.join(dir, 'changed.sqlite');
    const r = await runCli(importArgs(output, ledger, await modelsWith('m768.yaml', 768)));
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('E_BATCH_REQUEST_CHANGED');
    const p = r.json().error.problems[0];
    expect(p).toMatchObject({ line: 1, field: 'custom_id' });
    expect(p.message).toContain('image block');
    expect(p.message).toContain('"max_side":768');
    expect(existsSync(ledger) ? query(ledger, 'SELECT * FROM results') : []).toEqual([]);
    // with the models file it was exported with, the sent images are the 512 px ones
    const ok = await runCli(importArgs(output, ledger, await modelsWith('m512.yaml', 512)));
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json().warnings).toEqual([]);
    const sent = query(ledger, 'SELECT sent_images FROM results').map(
      (x) => JSON.parse(x.sent_images)[0],
    );
    expect(sent.map((s) => Math.max(s.width, s.height)).sort()).toEqual([300, 512]);
  });

  it('accepts the bare trial ids of an older export with a warning saying what is not checked', async () => {
    const output = await answered(path.join(dir, 'bare.jsonl'), (l) => l.custom_id.split('-')[0]);
    const r = await runCli(
      importArgs(output, path.join(dir, 'bare.sqlite'), await modelsWith('m768.yaml', 768)),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ recorded: 2 });
    expect(r.json().warnings).toHaveLength(1);
    expect(r.json().warnings[0]).toContain('2 line(s) name a bare trial id');
    expect(r.json().warnings[0]).toContain('cannot be checked');
    expect(r.stderr).toContain('warning:');
  });
});
