/** Parsers for flag values; a bad value is a usage error (exit 2) that quotes the flag and value. */
import { InvalidArgumentError } from 'commander';

/** Parse a positive integer flag (`--jobs 4`). */
export function positiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n <= 0) {
    throw new InvalidArgumentError(`Expected a positive integer but received "${value}".`);
  }
  return n;
}

/** Parse a non-negative integer flag. */
export function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n)) {
    throw new InvalidArgumentError(`Expected a non-negative integer but received "${value}".`);
  }
  return n;
}

/** Parse a comma-separated list (`--langs en,zh`), trimming blanks. */
export function list(value: string): string[] {
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0)
    throw new InvalidArgumentError(`Expected a comma-separated list but received "${value}".`);
  return items;
}

/** Parse an amount of US dollars (`--budget 25`, `--budget 0.50`): a non-negative decimal. */
export function usdAmount(value: string): number {
  const v = value.trim().replace(/^\$/, '');
  const n = Number(v);
  if (!/^\d+(\.\d+)?$/.test(v) || !Number.isFinite(n)) {
    throw new InvalidArgumentError(
      `Expected an amount of US dollars such as 25 or 0.50 but received "${value}".`,
    );
  }
  return n;
}
/** The `--csv-raw` flag of commands that write CSV tables (see src/core/csv.ts). */
export const CSV_RAW_FLAG = [
  '--csv-raw',
  "write CSV cells as they are: without the ' that stops a spreadsheet running a cell starting with = + - @ as a formula",
] as const;
