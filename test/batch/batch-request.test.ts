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

describe('E_BATCH_REQUEST_CHANGED names the setting that differs', () => {
  const input = () => path.join(dir, 'in.jsonl');
  const changedModels = (name: string, extra: Record<string, unknown>) =>
    writeModels(
      dir,
      [{ name: 'm', endpoint: 'http://127.0.0.1:9/v1', image: { max_side: 512 }, ...extra }],
      name,
    );
  /** The problem of an import of the 512 px export's answers under `models` (with `--requests` files). */
  async function refused(models: string, requests: string[] = [input()], output?: string) {
    const out = output ?? (await answered(path.join(dir, 'named.out.jsonl'), (l) => l.custom_id));
    const ledger = path.join(dir, `named-${Math.random().toString(16).slice(2)}.sqlite`);
    const args = importArgs(out, ledger, models);
    const r = await runCli(requests.length ? [...args, '--requests', ...requests] : args);
    expect(r.code, r.stderr).toBe(1);
    expect(r.json().error.code).toBe('E_BATCH_REQUEST_CHANGED');
    expect(existsSync(ledger) ? query(ledger, 'SELECT * FROM results') : []).toEqual([]);
    return r.json().error.problems[0] as { message: string; expected: string; got: string };
  }

  it('the image block: the size, format and bytes of the image in the export and now', async () => {
    const p = await refused(await changedModels('n-img.yaml', { image: { max_side: 768 } }));
    expect(p.message).toMatch(
      /what differs: image 1 \(the image block: max_side, format, quality\): 512×384 png, \d+ bytes in the export, 640×480 png, \d+ bytes now/,
    );
  });

  it('max_tokens', async () => {
    const p = await refused(await changedModels('n-max.yaml', { extra_body: { max_tokens: 512 } }));
    expect(p.message).toContain('what differs: max_tokens: 64 in the export, 512 now');
    expect(p.expected).toContain('max_tokens 512');
    expect(p.got).toContain('max_tokens 64');
  });

  it('temperature', async () => {
    const p = await refused(
      await changedModels('n-temp.yaml', { sampling: { temperature: 'drop' } }),
    );
    expect(p.message).toContain('what differs: temperature: 0.7 in the export, absent now');
  });

  it('the model id, from the answer alone (no --requests) and from the export', async () => {
    const models = await changedModels('n-model.yaml', { api_model: 'm-next' });
    const alone = await refused(models, []);
    expect(alone.message).toContain(
      'what differs: model id (api_model): "m" (the model that answered) in the export, "m-next" now',
    );
    const both = await refused(models);
    expect(both.message).toContain(
      'what differs: model id (api_model): "m" in the export, "m-next" now',
    );
  });

  it('the prompt text', async () => {
    // an export whose first request carried another prompt (as an earlier wording would)
    const edited = lines.map((l, i) => {
      if (i > 0) return l;
      const body = structuredClone(l.body);
      const part = body.messages[0].content.find((c: any) => c.type === 'text');
      part.text = 'Describe the picture, briefly.';
      return {
        ...l,
        body,
        custom_id: `${l.custom_id.slice(0, 26)}-${sha256(JSON.stringify(body)).slice(0, 16)}`,
      };
    });
    const file = path.join(dir, 'edited.in.jsonl');
    await writeFile(file, edited.map((l) => `${JSON.stringify(l)}\n`).join(''));
    const out = await answered(path.join(dir, 'edited.out.jsonl'), (l) =>
      l === lines[0] ? edited[0].custom_id : l.custom_id,
    );
    const p = await refused(await modelsWith('n-prompt.yaml', 512), [file], out);
    expect(p.message).toMatch(
      /what differs: prompt text: "Describe the picture, briefly\." in the export, "[^"]+" now/,
    );
  });

  it('says to give --requests when the answer alone cannot tell', async () => {
    const p = await refused(
      await changedModels('n-alone.yaml', { extra_body: { max_tokens: 512 } }),
      [],
    );
    expect(p.message).toContain('give the export’s input files with --requests FILE…');
  });
});
