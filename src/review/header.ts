/**
 * `review.json`, the header of a review folder: what was reviewed (its sha256) and the files
 * written. Its `format` is how `stimkit review` knows a folder it may replace.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { relPosix, sha256 } from '../core/fsio.js';
import { artifactJson } from '../core/json.js';
import { TOOL } from '../core/tool.js';
import type { ReviewData } from './source.js';

/** The `format` of review.json. */
export const REVIEW_FORMAT = 'stimkit.review';
/** The header file of a review folder. */
export const REVIEW_HEADER = 'review.json';

/** One input: its path relative to the review folder and the sha256 of its bytes (null: unreadable). */
interface Input {
  file: string;
  sha256: string | null;
}

/** The input's sha256: of the file, or of a bundle's manifest-sha256.txt (the bundle digest). */
async function inputOf(out: string, data: ReviewData): Promise<Input> {
  const file = data.kind === 'bundle' ? path.join(data.input, 'manifest-sha256.txt') : data.input;
  const digest = await readFile(file).then(sha256, () => null);
  return { file: relPosix(out, path.resolve(file)), sha256: digest };
}

/** The text of review.json for a review of `data` written to `out` as `files` (name → bytes). */
export async function reviewHeader(
  out: string,
  data: ReviewData,
  params: { variants?: string; thumb: number; csvRaw: boolean },
  files: Record<string, string>,
): Promise<string> {
  const inputs = [await inputOf(out, data)];
  if (params.variants) {
    const v = path.resolve(params.variants);
    inputs.push({ file: relPosix(out, v), sha256: sha256(await readFile(v)) });
  }
  return artifactJson({
    format: REVIEW_FORMAT,
    version: 1,
    tool: { ...TOOL },
    kind: data.kind,
    thumb: params.thumb,
    csv: params.csvRaw ? 'raw' : 'safe',
    inputs,
    files: Object.entries(files).map(([file, text]) => ({ file, sha256: sha256(text) })),
  });
}
