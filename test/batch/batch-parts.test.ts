// Batch files in parts a vendor accepts: export cuts the lines into numbered parts within the
// limits (bytes counted exactly as written, UTF-8 with the newline), every line in exactly one
// part; import takes every part in any order, each once, and records what one file would.
import { mkdirSync } from 'node:fs';
import { copyFile, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { partLimits, writeParts, VENDOR_LIMITS } from '../../src/batch/parts.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { writeRunBag } from '../run/fixture.js';
import { exportBatch, query, writeModels } from '../run/helpers.js';

let dir: string;
let bag: string;
let models: string;
beforeAll(async () => {
  dir = await tempDir('stimkit-batch-parts-');
  bag = path.join(dir, 'bag');
  await writeRunBag(bag, 6);
  models = await writeModels(dir, [
    { name: 'vlm', endpoint: 'http://127.0.0.1:9/v1', api_model: 'org/vlm-7b' },
  ]);
});

const exportVlm = (out: string, ...more: string[]) =>
  exportBatch(bag, models, 'vlm', out, '--json', ...more);

/** The OpenAI Batch output of an input file: each line answered. */
async function outputOf(input: string, output: string): Promise<void> {
  const lines = (await readFile(input, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const out = lines.map((l) =>
    JSON.stringify({
      custom_id: l.custom_id,
      response: {
        status_code: 200,
        body: {
          model: 'org/vlm-7b',
          choices: [{ message: { content: `ok ${l.custom_id}` }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
        },
      },
      error: null,
    }),
  );
  await writeFile(output, `${out.join('\n')}\n`);
}

describe('parts within limits', () => {
  it('cuts at exact byte boundaries, counting UTF-8 bytes and newlines', async () => {
    const d = await tempDir('stimkit-parts-unit-');
    const texts = [
      'a'.repeat(10),
      '猫'.repeat(5),
      'b'.repeat(20),
      'c',
      '语'.repeat(6),
      'd'.repeat(29),
    ];
    function* lines() {
      for (const [i, t] of texts.entries()) yield [`id${i}`, `${t}\n`] as const;
    }
    const parts = await writeParts(path.join(d, 'x.jsonl'), { requests: 10, bytes: 30 }, lines());
    // 11 + 16 = 27 (+21 > 30) | 21 + 2 = 23 (+19 > 30) | 19 (+30 > 30) | 30
    expect(parts.map((p) => p.bytes)).toEqual([27, 23, 19, 30]);
    expect(parts.map((p) => path.basename(p.file))).toEqual([
      'x.part-0001-of-0004.jsonl',
      'x.part-0002-of-0004.jsonl',
      'x.part-0003-of-0004.jsonl',
      'x.part-0004-of-0004.jsonl',
    ]);
    let all = '';
    for (const p of parts) {
      expect((await stat(p.file)).size).toBe(p.bytes);
      all += await readFile(p.file, 'utf8');
    }
    expect(all).toBe(texts.map((t) => `${t}\n`).join(''));
    expect((await readdir(d)).sort()).toEqual(parts.map((p) => path.basename(p.file)));
  });

  it('names the parts only after the commit (the ledger records the export): a failed commit leaves no file', async () => {
    const d = await tempDir('stimkit-parts-commit-');
    const lines = () => ['a', 'b', 'c'].map((t, i) => [`id${i}`, `${t}\n`] as const);
    const out = path.join(d, 'x.jsonl');
    const seen: number[] = [];
    const refuse = (n: number) => {
      seen.push(n);
      throw new Error('lost the lock');
    };
    await expect(writeParts(out, { requests: 2, bytes: 100 }, lines(), refuse)).rejects.toThrow(
      'lost the lock',
    );
    expect(seen).toEqual([2]);
    expect(await readdir(d)).toEqual([]);
    const parts = await writeParts(out, { requests: 2, bytes: 100 }, lines(), (n) => seen.push(n));
    expect(seen).toEqual([2, 2]);
    expect(parts).toHaveLength(2);
  });

  it('a failure after the commit is E_BATCH_WRITE, naming --reexport; a folder as out is refused first', async () => {
    const d = await tempDir('stimkit-parts-after-');
    const out = path.join(d, 'x.jsonl');
    const lines = () => [['id0', 'a\n'] as const];
    // the commit succeeds, then something takes the file's name (a folder): it cannot be written
    const err = await writeParts(out, { requests: 2, bytes: 100 }, lines(), () =>
      mkdirSync(out),
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_BATCH_WRITE' });
    expect(String((err as Error).message)).toContain('--reexport');
    const first = await writeParts(out, { requests: 2, bytes: 100 }, lines()).catch(
      (e: unknown) => e,
    );
    expect(first).toMatchObject({ code: 'E_BATCH_OUT' });
  });

  it('knows each vendor’s published limits and refuses a higher one', () => {
    expect(VENDOR_LIMITS.openai).toMatchObject({ requests: 50_000, bytes: 200_000_000 });
    expect(VENDOR_LIMITS.anthropic).toMatchObject({ requests: 100_000, bytes: 256_000_000 });
    expect(VENDOR_LIMITS.gemini.bytes).toBe(2_000_000_000);
    expect(partLimits('openai', { partMib: 190 }).bytes).toBe(190 * 2 ** 20);
    expect(partLimits('openai').bytes).toBe(200_000_000);
    // an Anthropic batch is one JSON request around its lines: room is kept for it
    expect(partLimits('anthropic').bytes).toBe(256_000_000 - 64);
    expect(() => partLimits('openai', { partMib: 191 })).toThrow(/above/);
    expect(() => partLimits('anthropic', { partRequests: 100_001 })).toThrow(/above/);
  });

  it('splits an export with --part-requests 2 into sorted parts holding every line once', async () => {
    const whole = path.join(dir, 'one', 'in.jsonl');
    const one = await exportVlm(whole);
    expect(one.code, one.stderr).toBe(0);
    expect(one.json().parts).toEqual([
      { file: whole, requests: 8, bytes: (await stat(whole)).size },
    ]);
    const out = path.join(dir, 'split', 'in.jsonl');
    const r = await exportVlm(out, '--part-requests', '2', '--part-mib', '1');
    expect(r.code, r.stderr).toBe(0);
    const parts = r.json().parts as Array<{ file: string; requests: number; bytes: number }>;
    expect(parts.map((p) => path.basename(p.file))).toEqual(
      [1, 2, 3, 4].map((i) => `in.part-000${i}-of-0004.jsonl`),
    );
    let all = '';
    for (const p of parts) {
      const text = await readFile(p.file, 'utf8');
      expect(p.requests).toBe(2);
      expect(text.trim().split('\n')).toHaveLength(2);
      expect(Buffer.byteLength(text)).toBe(p.bytes);
      expect(p.bytes).toBeLessThanOrEqual(2 ** 20);
      all += text;
    }
    expect(all).toBe(await readFile(whole, 'utf8'));
  });

  it('refuses a limit above the vendor’s with a usage error and its fix', async () => {
    const r = await exportVlm(path.join(dir, 'x.jsonl'), '--part-mib', '191');
    expect(r.code).toBe(2);
    expect(r.json().error.code).toBe('E_BATCH_PART_LIMIT');
    expect(r.stderr + JSON.stringify(r.json())).toContain('--part-mib 190');
    const q = await exportVlm(path.join(dir, 'x.jsonl'), '--part-requests', '50001');
    expect(q.code).toBe(2);
  });
});

describe('importing parts', () => {
  let outs: string[];
  let whole: string;
  beforeAll(async () => {
    const inputs = (await readdir(path.join(dir, 'split'))).sort();
    outs = [];
    for (const f of inputs) {
      const o = path.join(dir, 'split', f.replace('in.', 'out.'));
      await outputOf(path.join(dir, 'split', f), o);
      outs.push(o);
    }
    whole = path.join(dir, 'one', 'out.jsonl');
    await outputOf(path.join(dir, 'one', 'in.jsonl'), whole);
  });
  const importArgs = (ledger: string, files: string[]) => [
    'batch',
    'import',
    ...files,
    '--bundle',
    bag,
    '--model',
    'vlm',
    '--ledger',
    ledger,
    '--models',
    models,
    '--json',
  ];
  const rows = (ledger: string) =>
    query(ledger, 'SELECT * FROM results ORDER BY trial_id').map(
      ({ finished_at, run_id, ...r }) => (void [finished_at, run_id], r),
    );

  it('records the parts in reverse order as one file', async () => {
    const a = path.join(dir, 'parts.sqlite');
    const r = await runCli(importArgs(a, [...outs].reverse()));
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ lines: 8, recorded: 8, missing: [] });
    const b = path.join(dir, 'whole.sqlite');
    expect((await runCli(importArgs(b, [whole]))).code).toBe(0);
    expect(rows(a)).toEqual(rows(b));
    expect(rows(a)).toHaveLength(8);
  });

  it('refuses a part given twice, or the same bytes under another name, or a missing part', async () => {
    const ledger = path.join(dir, 'refused.sqlite');
    const twice = await runCli(
      importArgs(ledger, [outs[0]!, outs[1]!, outs[2]!, outs[3]!, outs[0]!]),
    );
    expect(twice.code).toBe(1);
    expect(twice.json().error.code).toBe('E_BATCH_PARTS');
    const copy = path.join(dir, 'copy-of-part-1.jsonl');
    await copyFile(outs[0]!, copy);
    const same = await runCli(importArgs(ledger, [...outs, copy]));
    expect(same.json().error.code).toBe('E_BATCH_PARTS');
    expect(same.json().error.problems[0].message).toContain('same bytes');
    const missing = await runCli(importArgs(ledger, outs.slice(1)));
    expect(missing.json().error.code).toBe('E_BATCH_PARTS');
    expect(missing.json().error.problems[0].message).toContain('part(s) 1 of 4 are missing');
  });
});
