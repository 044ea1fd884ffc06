/**
 * `npm run bench -- batch-import [--mb N] [--keep DIR]`
 *
 * Importing a large batch output in bounded memory. Writes an OpenAI Batch output file of about
 * N MB (default 300) answering the paper's instrument (1,792 trials), each answer long enough to
 * reach N MB in all, then `batchImport` records it into a new ledger (with the models file, so
 * every request is rebuilt and checked) in a child process, whose peak RSS is the figure. The
 * import reads the file as a stream, twice (check, then record in transactions of 500 rows), so
 * its memory does not grow with the file. Target: under 400 MiB.
 *
 * With `--keep DIR` the bundle and output are built in DIR once and reused by later runs.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { instrumentBundle } from './lib/instrument-bundle.js';

const TARGET_MIB = 400;
const args = process.argv.slice(3);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

const MODELS = [
  'format: stimkit.models',
  'version: 1',
  'models:',
  '  - {name: m, endpoint: "http://127.0.0.1:9/v1", api_model: org/m}',
  '',
].join('\n');

/** Import in this (fresh) process and print what it recorded and its peak RSS. */
async function child(dir: string): Promise<void> {
  const { batchImport } = await import('../src/batch/import.js');
  const t0 = performance.now();
  const r = await batchImport({
    files: [path.join(dir, 'out.jsonl')],
    bundle: path.join(dir, 'bundle'),
    model: 'm',
    ledger: path.join(dir, `ledger-${process.pid}.sqlite`),
    modelsFile: path.join(dir, 'models.yaml'),
  });
  process.stdout.write(
    JSON.stringify({
      lines: r.lines,
      recorded: r.recorded,
      seconds: (performance.now() - t0) / 1000,
      peak_rss_mib: process.resourceUsage().maxRSS / 1024, // KiB → MiB
    }),
  );
}

/** Write the export (for the custom_ids) and an output answering every line with a long text. */
async function build(dir: string, mb: number): Promise<void> {
  const { bundle } = await instrumentBundle(dir);
  await writeFile(path.join(dir, 'models.yaml'), MODELS);
  const { batchExport } = await import('../src/batch/export.js');
  const input = path.join(dir, 'in.jsonl');
  const exp = await batchExport({
    bundle,
    modelsFile: path.join(dir, 'models.yaml'),
    modelNames: ['m'],
    out: input,
  });
  const ids = (await readFile(input, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { custom_id: string }).custom_id);
  const each = Math.ceil((mb * 1e6) / exp.requests);
  const filler = 'Observers weigh the record, the ties and the arrangements differently. ';
  const out = createWriteStream(path.join(dir, 'out.jsonl'));
  for (const [i, id] of ids.entries()) {
    const text = `Agree. ${filler.repeat(Math.ceil(each / filler.length))}`.slice(0, each);
    const line = {
      id: `batch_req_${i}`,
      custom_id: id,
      response: {
        status_code: 200,
        body: {
          model: 'org/m',
          choices: [{ message: { content: text }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 40, completion_tokens: Math.round(each / 4) },
        },
      },
      error: null,
    };
    if (!out.write(`${JSON.stringify(line)}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

async function parent(): Promise<void> {
  const mb = Number(flag('--mb') ?? 300);
  const keep = flag('--keep');
  const dir = keep ?? (await mkdtemp(path.join(os.tmpdir(), 'stimkit-bench-batch-import-')));
  try {
    await mkdir(dir, { recursive: true });
    if (!existsSync(path.join(dir, 'out.jsonl'))) await build(dir, mb);
    const size = (await stat(path.join(dir, 'out.jsonl'))).size;
    const bench = fileURLToPath(import.meta.url);
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', bench, 'batch-import', '--child', dir],
      { encoding: 'utf8', maxBuffer: 1 << 20 },
    );
    if (r.status !== 0) throw new Error(`import failed:\n${r.stderr}`);
    const got = JSON.parse(r.stdout) as {
      lines: number;
      recorded: number;
      seconds: number;
      peak_rss_mib: number;
    };
    process.stdout.write(
      `batch-import: a ${(size / 1e6).toFixed(0)} MB output, ${got.lines} lines, ${got.recorded} recorded in ${got.seconds.toFixed(1)} s\n`,
    );
    process.stdout.write(
      `  peak RSS ${got.peak_rss_mib.toFixed(0)} MiB; target < ${TARGET_MIB} MiB: ${got.peak_rss_mib < TARGET_MIB ? 'met' : 'MISSED'}\n`,
    );
  } finally {
    if (!keep) await rm(dir, { recursive: true, force: true });
  }
}

if (args[0] === '--child') await child(args[1]!);
else await parent();
