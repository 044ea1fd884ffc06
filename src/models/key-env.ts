/**
 * Printing `api_key_env`: a message names the variable only when its value has the shape of a
 * conventional variable name that cannot be a key (`printableKeyEnv`); otherwise it names where
 * the value is set (the models file, its line and field, or `--api-key-env`) and never the
 * value, which may be a key pasted by mistake (`AKIAIOSFODNN7EXAMPLE`). docs/formats/models.md
 * states the rule.
 */
import type { ModelSpec } from './schema.js';

/** Capitals and digits in segments joined by single underscores, starting with a capital. */
const CONVENTIONAL = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;

/** Whether a segment reads like a word: 5+ characters need a vowel, and digits stay few. */
function wordLike(seg: string): boolean {
  const digits = seg.replace(/[^0-9]/g, '').length;
  if (digits === seg.length) return digits <= 4; // MY_KEY_2, KEY_2024
  if (digits > 2 || seg.length > 16) return false;
  return seg.length < 5 || /[AEIOUY]/.test(seg);
}

/**
 * Whether `v` may be printed: at most 64 characters of capitals, digits and single underscores,
 * starting with a capital, with at least one underscore; every segment between underscores at
 * most 16 characters, either all digits (at most 4) or with at most 2 digits, and a segment of 5
 * or more characters has a vowel (A, E, I, O, U, Y). OPENAI_API_KEY, ANTHROPIC_API_KEY,
 * GEMINI_API_KEY, OPENROUTER_API_KEY, HF_TOKEN and MY_KEY_2 are printed; AKIAIOSFODNN7EXAMPLE
 * (no underscore), `my_key` (lower case) and KEY_8F3A9B2C (digit-heavy) are not.
 */
export function printableKeyEnv(v: string): boolean {
  return v.length <= 64 && CONVENTIONAL.test(v) && v.split('_').every(wordLike);
}

/** Where a models file sets a model's `api_key_env` (recorded by loadModelsFile). */
interface KeyEnvSite {
  file: string;
  line: number | undefined;
  field: string;
}

const SITES = new WeakMap<ModelSpec, KeyEnvSite>();

/** Record where `model`'s api_key_env is set. */
export function recordKeyEnvSite(model: ModelSpec, site: KeyEnvSite): void {
  SITES.set(model, site);
}

/** Where a model's api_key_env is set: the models file's site, or `--api-key-env` (the shorthand). */
export function keyEnvSite(model: ModelSpec): KeyEnvSite {
  return SITES.get(model) ?? { file: '', line: undefined, field: '--api-key-env' };
}

/** `file line N, field F` (or the flag) of a site. */
function siteText(s: KeyEnvSite): string {
  if (!s.file) return s.field;
  return `${s.file}${s.line === undefined ? '' : ` line ${s.line}`}, field ${s.field}`;
}

/**
 * How messages name a model's key variable: `$NAME` when printable, else the variable named at
 * its site (value not repeated).
 */
export function keyEnvText(model: ModelSpec): string {
  const v = model.api_key_env ?? '';
  return printableKeyEnv(v)
    ? `$${v}`
    : `the variable named in ${siteText(keyEnvSite(model))} (its value is not repeated: it does not have the shape of a conventional variable name such as OPENAI_API_KEY, and may be a key)`;
}

/** The fix of a key variable that is not set. */
export function keyEnvFix(model: ModelSpec): string {
  const v = model.api_key_env ?? '';
  return printableKeyEnv(v)
    ? `export ${v}=… in this shell`
    : `set ${siteText(keyEnvSite(model))} to a conventional name such as MY_API_KEY (capitals, digits and underscores) and export MY_API_KEY=… in this shell`;
}
