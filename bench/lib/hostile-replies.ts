/**
 * Replies built to make a backtracking regular expression slow (long runs of one markdown
 * character, markers that open and never close, one very long line), and the whole per-response
 * scoring a reply gets: every audit column of the VLM scorer (D6 lengths through the Appendix O
 * cleaner, D5 language share, the lexical refusal, short and marker baselines) and the
 * instrument's forced-choice parser, in English and Chinese. Used by bench/hostile-replies.ts
 * (time per reply) and test/audit/hostile-replies.test.ts (the values).
 */
import type { Trial } from '../../src/bundle/format.js';
import { vlmScorer } from '../../src/score/audit-scorer.js';
import type { ScoreBundle } from '../../src/score/bundle.js';
import { optionParser, type ParseResult } from '../../src/score/parse.js';
import type { ScoreRecord } from '../../src/score/types.js';

/** The reply cap of `run` (a longer body is refused before it is read). */
export const REPLY_CAP_BYTES = 4 * 1024 * 1024;

/** `unit` repeated to `n` characters (cut inside the last repeat). */
const fill = (unit: string, n: number): string =>
  unit.repeat(Math.ceil(n / unit.length)).slice(0, n);

/**
 * The hostile shapes: each builds a reply of exactly `n` bytes of UTF-8, all ASCII (so `n`
 * characters) but the Chinese label run. The first eight are the issue's; then the openers that
 * find no closer, one per rule that scans ahead for one; then runs of an option label.
 */
export const HOSTILE_SHAPES: Record<string, (n: number) => string> = {
  spaces: (n) => `a${' '.repeat(n - 2)}b`,
  tabs: (n) => `a${'\t'.repeat(n - 2)}b`,
  hashes: (n) => '#'.repeat(n),
  'heading-spaces': (n) => `# a${' '.repeat(n - 4)}b`,
  asterisks: (n) => '*'.repeat(n),
  pipes: (n) => '|'.repeat(n),
  'nested-lists': (n) => fill('- * + 1. ', n),
  'long-line': (n) => fill('The man stands before the tanks and does not move, ', n),
  quotes: (n) => '>'.repeat(n),
  backticks: (n) => '`'.repeat(n),
  'digits-dots': (n) => fill('1.', n),
  'image-openers': (n) => fill('![', n),
  'link-openers': (n) => fill('[a](', n),
  'fence-openers': (n) => fill('```x\n', n),
  'think-openers': (n) => fill('<think>', n),
  'tag-openers': (n) => fill('<a ', n),
  'bold-openers': (n) => `**${'a '.repeat(n / 2 - 1)}`,
  'blank-lines': (n) => fill(' \n', n),
  'answer-markers': (n) => fill('x answer:', n),
  // An option label again and again without punctuation: one clause that the negation look-back
  // of every label found would read back to its start. The Chinese run is of `n` UTF-8 bytes
  // (同意 is three bytes a character; the remainder is `x`).
  'label-run': (n) => fill('agree ', n),
  'label-run-zh': (n) => fill('同意', Math.floor(n / 3)) + 'x'.repeat(n % 3),
};

const TRIAL = {
  id: 't_000000000000000000000000',
  paradigm: 'describe',
  arm: null,
  entry: 'e',
  item: null,
  topic: null,
  variant: 'A0',
  framing: null,
  iteration: null,
  seed: 0,
  prompt: 'p',
  wrappers: null,
  models: null,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Describe the image.' }] }],
  images: [],
} as const;

const OPTIONS = {
  en: ['Strongly agree', 'Agree', 'Disagree', 'Strongly disagree'],
  zh: ['强烈同意', '同意', '不同意', '强烈不同意'],
} as const;

/** What scoring one reply gives: its VLM audit record and its instrument parse, in one language. */
export interface HostileScore {
  vlm: ScoreRecord;
  instrument: ParseResult;
}

/**
 * A scorer for replies: the VLM audit of a describe trial and the instrument's parser, both in
 * `lang` (a reply is scored once as the one or the other; both are timed together).
 */
export function replyScorer(lang: 'en' | 'zh'): (reply: string) => HostileScore {
  const audit = vlmScorer({
    entries: new Map([
      ['e', { id: 'e', sensitivity: 'high', narrative_markers: { en: ['riot'] } }],
    ]),
    judges: [],
    rubric: null,
    judgeLedger: null,
  }).prepare({ digest: 'bench' } as unknown as ScoreBundle);
  const parse = optionParser(
    OPTIONS[lang].map((label, i) => ({ label, value: [2, 1, -1, -2][i]! })),
    lang,
  );
  const trial = { ...TRIAL, lang, sampling: {} } as unknown as Trial;
  const model = { name: 'm', origin: null, vendor: null, simulated: false };
  return (reply) => ({
    vlm: audit({
      trial,
      response: {
        trial_id: TRIAL.id,
        model: 'm',
        response: reply,
        simulated: false,
        truth: null,
        error: null,
      },
      model,
    }),
    instrument: parse(reply),
  });
}
