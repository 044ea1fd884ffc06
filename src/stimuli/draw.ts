/**
 * Seeded wrapper draws: a counter-based generator, so any single draw can be recomputed from the
 * study's global seed and the trial key alone, by any program, in any order.
 *
 * For a trial (seed, topic, lang, framing, iteration) and a slot (`prefix` or `suffix`):
 *
 *   key   = "stimkit-wrapper-draw/v1|" + seed + "|" + topic + "|" + lang + "|" + framing + "|" + iteration + "|" + slot
 *   u     = the first 8 bytes of SHA-256(UTF-8(key)), read as an unsigned big-endian 64-bit integer
 *   index = u mod n          (n = number of prefixes, or of suffixes, in the pool of `lang`)
 *
 * `seed` is written as given: a non-negative integer in decimal (so 42 and "42" are the same seed)
 * or a string of letters, digits and `._:-`; `iteration` is a non-negative integer in decimal.
 * Prefix and suffix use different keys, so they are drawn independently. The modulo bias is below
 * n / 2^64 (about 5 × 10^-19 for n = 10). Reference and worked example: docs/formats/wrappers.md.
 */
import { createHash } from 'node:crypto';
import { StimkitError } from '../core/errors.js';
import { LangCode, Slug } from '../ingest/schema.js';
import { FRAMINGS, type Framing } from './pairs.js';
import { poolFor, type WrapperPools } from './wrappers.js';

/** Version tag at the start of every draw key; changes only if the algorithm changes. */
const DRAW_KEY_PREFIX = 'stimkit-wrapper-draw/v1';

/** What identifies one trial's draw. */
export interface DrawTrial {
  globalSeed: number | string;
  topic: string;
  lang: string;
  framing: Framing;
  iteration: number;
}

/** One drawn wrapper. */
export interface DrawnWrapper {
  id: string;
  index: number;
  text: string;
}

const SEED_STRING = /^[A-Za-z0-9._:-]{1,128}$/;

function bad(field: string, expected: string, got: unknown): StimkitError {
  return StimkitError.fromProblem({
    code: 'E_WRAPPERS_DRAW',
    field,
    message: `invalid ${field} for a wrapper draw`,
    expected,
    got: JSON.stringify(got),
    fix: `pass ${expected}`,
  });
}

/** The seed as it appears in the key; throws for a seed that could make keys ambiguous. */
function seedText(seed: number | string): string {
  if (typeof seed === 'number') {
    if (!Number.isSafeInteger(seed) || seed < 0)
      throw bad(
        'globalSeed',
        'a non-negative integer or a string of letters, digits and ._:-',
        seed,
      );
    return String(seed);
  }
  if (!SEED_STRING.test(seed))
    throw bad(
      'globalSeed',
      'a non-negative integer or a string of letters, digits and ._:- (1–128 characters)',
      seed,
    );
  return seed;
}

/** The key string of one draw (see the module comment). */
export function drawKey(trial: DrawTrial, slot: 'prefix' | 'suffix'): string {
  if (!Slug.safeParse(trial.topic).success) throw bad('topic', 'a topic id (slug)', trial.topic);
  if (!LangCode.safeParse(trial.lang).success) throw bad('lang', 'a language tag', trial.lang);
  if (!(FRAMINGS as readonly string[]).includes(trial.framing))
    throw bad('framing', 'affirmative or reverse', trial.framing);
  if (!Number.isSafeInteger(trial.iteration) || trial.iteration < 0)
    throw bad('iteration', 'a non-negative integer', trial.iteration);
  return [
    DRAW_KEY_PREFIX,
    seedText(trial.globalSeed),
    trial.topic,
    trial.lang,
    trial.framing,
    String(trial.iteration),
    slot,
  ].join('|');
}

/** The unsigned 64-bit integer of a key: the first 8 bytes of its SHA-256, big-endian. */
export function drawU64(key: string): bigint {
  return createHash('sha256').update(key, 'utf8').digest().readBigUInt64BE(0);
}

/** The index a key selects from a list of `n` (`u mod n`). */
export function drawIndex(key: string, n: number): number {
  if (!Number.isSafeInteger(n) || n <= 0) throw new RangeError(`cannot draw from ${n} items`);
  return Number(drawU64(key) % BigInt(n));
}

/**
 * Draw the prefix and the suffix of one trial from the pool of `trial.lang`.
 *
 * @example
 * drawWrappers(pools, { globalSeed: 42, topic: 'taiwan', lang: 'en', framing: 'affirmative', iteration: 0 });
 * // { prefix: { id: 'en-p…', index: …, text: '…' }, suffix: { … } }  (worked example: docs/formats/wrappers.md)
 */
export function drawWrappers(
  pools: WrapperPools,
  trial: DrawTrial,
): { prefix: DrawnWrapper; suffix: DrawnWrapper } {
  const pool = poolFor(pools, trial.lang);
  const pick = (slot: 'prefix' | 'suffix'): DrawnWrapper => {
    const list = slot === 'prefix' ? pool.prefixes : pool.suffixes;
    const w = list[drawIndex(drawKey(trial, slot), list.length)]!;
    return { id: w.id, index: w.index, text: w.text };
  };
  return { prefix: pick('prefix'), suffix: pick('suffix') };
}
