// Text tokens for the estimate: OpenAI's tokenizers load offline from the js-tiktoken package
// (the vectors are tiktoken's own: "hello world" is [24912, 2375] in o200k_base and
// [15339, 1917] in cl100k_base), and the characters-per-token rule brackets both tokenizers on
// every English and Chinese text the shipped prompt cards, wrappers and topics hold.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { charsRule, textCounter } from '../../src/run/text-tokens.js';
import { ROOT } from '../helpers/cli.js';

const strings = (v: unknown): string[] =>
  typeof v === 'string'
    ? [v]
    : Array.isArray(v)
      ? v.flatMap(strings)
      : v && typeof v === 'object'
        ? Object.values(v).flatMap(strings)
        : [];

async function shippedTexts(): Promise<string[]> {
  const files = ['prompts.yaml', 'wrappers.yaml', 'geopolitics.topics.yaml'];
  const all: string[] = [];
  for (const f of files)
    all.push(...strings(parse(await readFile(path.join(ROOT, 'manifests', f), 'utf8'))));
  return [...new Set(all.filter((s) => s.length >= 12))];
}

/**
 * Both OpenAI tokenizers, built once for the two tests (building one from its ranks takes 0.7–1.5
 * CPU-s; an encoder keeps no state between calls).
 */
let tokenizers: Promise<[o200k: Tiktoken, cl100k: Tiktoken]> | undefined;
const openaiTokenizers = () =>
  (tokenizers ??= (async () => [
    new Tiktoken((await import('js-tiktoken/ranks/o200k_base')).default),
    new Tiktoken((await import('js-tiktoken/ranks/cl100k_base')).default),
  ])());

describe('text tokens', () => {
  it("counts with OpenAI's tokenizers from the package alone", async () => {
    const [o200k, cl100k] = await openaiTokenizers();
    expect(o200k.encode('hello world')).toEqual([24912, 2375]);
    expect(cl100k.encode('hello world')).toEqual([15339, 1917]);
    const count = await textCounter('o200k_base');
    expect(count(['hello world', 'hello world'])).toEqual({ low: 4, high: 14 });
  });

  it('the characters-per-token rule brackets both tokenizers on the shipped English and Chinese texts', async () => {
    const texts = await shippedTexts();
    expect(texts.length).toBeGreaterThan(100);
    expect(texts.some((t) => /\p{Script=Han}/u.test(t))).toBe(true);
    const encoders = await openaiTokenizers();
    const outside: string[] = [];
    for (const t of texts) {
      const r = charsRule(t);
      for (const e of encoders) {
        const n = e.encode(t).length;
        if (n < r.low || n > r.high)
          outside.push(`${n} not in ${r.low}–${r.high}: ${t.slice(0, 60)}`);
      }
    }
    expect(outside).toEqual([]);
  });
});
