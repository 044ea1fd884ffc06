/**
 * `stimkit check --shipped`: the data files stimkit ships, by the `stimkit:<name>` reference a
 * user's files use for them, with each file's format and title.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseDataText } from '../core/datafile.js';
import { SHIPPED_DIR, SHIPPED_PREFIX, shippedNames } from '../core/shipped.js';

/** One shipped file. */
export interface ShippedFile {
  ref: string;
  format: string | null;
  title: string | null;
}

/** Every shipped data file, sorted by name. */
export function listShipped(): ShippedFile[] {
  return shippedNames().map((name) => {
    const file = path.join(SHIPPED_DIR, name);
    const { value } = parseDataText(file, readFileSync(file, 'utf8'), 'E_CHECK_SYNTAX');
    const v = (value ?? {}) as { format?: unknown; title?: unknown };
    return {
      ref: SHIPPED_PREFIX + name,
      format: typeof v.format === 'string' ? v.format : null,
      title: typeof v.title === 'string' ? v.title : null,
    };
  });
}

/** The human listing: one line per file. */
export function shippedHuman(files: ShippedFile[]): string {
  const width = Math.max(...files.map((f) => f.ref.length));
  const lines = files.map(
    (f) => `  ${f.ref.padEnd(width)}  ${f.format ?? '(no format)'}${f.title ? `  ${f.title}` : ''}`,
  );
  return [
    `${files.length} shipped data files; name one in extends, or in a study's topics, wrappers, prompts or corpus:`,
    ...lines,
  ].join('\n');
}
