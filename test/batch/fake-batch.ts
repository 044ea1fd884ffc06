/**
 * A local fake of an OpenAI-compatible batch processor (the OpenAI Batch API, `vllm run-batch`):
 * reads a batch input file (`{custom_id, method, url, body}` lines), answers each request as the
 * live test judge server does (judge-answer.ts), and writes the output file in the OpenAI Batch
 * output shape (`{id, custom_id, response: {status_code, request_id, body}, error}`, as
 * documented at https://platform.openai.com/docs/guides/batch), in input order.
 *
 *   node --import tsx test/batch/fake-batch.ts IN.jsonl OUT.jsonl
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { judgeCompletion } from './judge-answer.js';

/** Answer every line of `input` into `output`; returns the number of lines. */
export async function runFakeBatch(input: string, output: string): Promise<number> {
  const lines = (await readFile(input, 'utf8')).split('\n').filter((l) => l.trim() !== '');
  const out = lines.map((raw, i) => {
    const line = JSON.parse(raw);
    if (line.method !== 'POST' || line.url !== '/v1/chat/completions')
      throw new Error(`${input}:${i + 1}: not a chat completions batch line`);
    return JSON.stringify({
      id: `batch_req_${i}`,
      custom_id: line.custom_id,
      response: { status_code: 200, request_id: `req_${i}`, body: judgeCompletion(line.body) },
      error: null,
    });
  });
  await writeFile(output, out.map((l) => `${l}\n`).join(''));
  return out.length;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [input, output] = process.argv.slice(2);
  await runFakeBatch(input!, output!);
}
