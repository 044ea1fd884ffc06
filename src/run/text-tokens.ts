/**
 * Counting a request's text tokens for the estimate of `run --dry-run` and `run --budget`. Where
 * the vendor's tokenizer ships on npm it is used: OpenAI's `o200k_base` (GPT-4o and later) and
 * `cl100k_base` (GPT-4, GPT-3.5) through js-tiktoken, whose ranks are in the package (nothing is
 * downloaded). For other models (Anthropic, Gemini and most open models publish no tokenizer on
 * npm) a stated characters-per-token rule gives a range:
 *
 * - CJK characters (Han, kana, Hangul): 0.4 to 2 tokens each;
 * - every other character: 1/10 to 1/2 token each (10 to 2 characters per token: long English
 *   words reach 8 characters per token);
 *
 * checked against both OpenAI tokenizers on every prompt of the demo bundle (English and
 * Chinese; test/run/text-tokens.test.ts). Both ways add a chat template's framing: 0 to
 * `TEMPLATE_TOKENS_PER_MESSAGE` tokens per message.
 */
import type { Tiktoken } from 'js-tiktoken/lite';
import type { TEXT_TOKENIZERS } from '../models/price.js';
import type { TokenRange } from './image-tokens.js';

/** Upper bound of a chat template's tokens around one message (role markers, separators). */
const TEMPLATE_TOKENS_PER_MESSAGE = 10;

/** The characters-per-token rule: tokens per character, low and high, by script. */
const CHARS_RULE = {
  cjk: { low: 0.4, high: 2 },
  other: { low: 1 / 10, high: 1 / 2 },
} as const;

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

export type TextTokenizer = (typeof TEXT_TOKENIZERS)[number];

/** What a counter says about itself (printed by `run --dry-run`). */
export const TOKENIZER_NOTE: Record<TextTokenizer, string> = {
  o200k_base: "OpenAI's o200k_base tokenizer (js-tiktoken; GPT-4o and later)",
  cl100k_base: "OpenAI's cl100k_base tokenizer (js-tiktoken; GPT-4, GPT-3.5)",
  chars:
    'the characters-per-token rule (CJK 0.4–2 tokens per character, other characters 2–10 characters per token)',
};

/** The characters-per-token range of `text`. */
export function charsRule(text: string): TokenRange {
  const cjk = (text.match(CJK) ?? []).length;
  const other = [...text].length - cjk;
  return {
    low: Math.floor(cjk * CHARS_RULE.cjk.low + other * CHARS_RULE.other.low),
    high: Math.ceil(cjk * CHARS_RULE.cjk.high + other * CHARS_RULE.other.high),
  };
}

const loaded = new Map<string, Promise<Tiktoken>>();

async function encoder(name: 'o200k_base' | 'cl100k_base'): Promise<Tiktoken> {
  let e = loaded.get(name);
  if (!e) {
    e = (async () => {
      const { Tiktoken } = await import('js-tiktoken/lite');
      const ranks =
        name === 'o200k_base'
          ? (await import('js-tiktoken/ranks/o200k_base')).default
          : (await import('js-tiktoken/ranks/cl100k_base')).default;
      return new Tiktoken(ranks);
    })();
    loaded.set(name, e);
  }
  return e;
}

/** A function counting the text tokens of one message's texts, as a range. */
export async function textCounter(
  tokenizer: TextTokenizer,
): Promise<(texts: readonly string[]) => TokenRange> {
  if (tokenizer === 'chars') {
    return (texts) => {
      const r = texts.map(charsRule);
      return {
        low: r.reduce((a, x) => a + x.low, 0),
        high: r.reduce((a, x) => a + x.high, 0) + TEMPLATE_TOKENS_PER_MESSAGE,
      };
    };
  }
  const enc = await encoder(tokenizer);
  return (texts) => {
    const n = texts.reduce((a, t) => a + enc.encode(t).length, 0);
    return { low: n, high: n + TEMPLATE_TOKENS_PER_MESSAGE };
  };
}
