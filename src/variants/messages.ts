/**
 * Messages recorded in the variants lock must not depend on the machine: absolute paths in them
 * (an image's, a model package's, a temp file's) are rewritten relative to the output folder, the
 * way every other path of the lock is written.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { relPosix } from '../core/fsio.js';

/**
 * A token that may be an absolute path: after the start, a space, a quote, a bracket, `=` or
 * `,`, a `/` (or a drive letter on Windows) and up to the next space, quote, bracket, `,`, `;`
 * or `:`. Trailing dots (end of a sentence) are not part of it.
 */
const ABSOLUTE = /(^|[\s'"`([=,])((?:\/|[A-Za-z]:\\)[^\s'"`()[\],;:]*)/g;

/** True for a POSIX path whose top folder exists here (so `/models/medium`, a resource key, is left alone). */
function isLocalPath(token: string): boolean {
  if (!path.isAbsolute(token)) return false;
  if (process.platform === 'win32') return true;
  const top = token.split('/')[1];
  return top !== undefined && top !== '' && existsSync(`/${top}`);
}

/**
 * `message` with every absolute path of this machine replaced by the path relative to `outDir`
 * (forward slashes), e.g. `/home/me/corpus/horse.png` → `../corpus/horse.png`.
 *
 * @example
 * lockMessage("ENOENT: open '/data/x/horse.png'", '/data/out') // "ENOENT: open '../x/horse.png'"
 */
export function lockMessage(message: string, outDir: string): string {
  return message.replace(ABSOLUTE, (whole, lead: string, token: string) => {
    const trail = /(?<!\.)\.+$/.exec(token)?.[0] ?? '';
    const file = trail ? token.slice(0, -trail.length) : token;
    if (file.length < 2 || !isLocalPath(file)) return whole;
    return `${lead}${relPosix(outDir, file)}${trail}`;
  });
}
