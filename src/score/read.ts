/**
 * The one reader of scores folders (what `stimkit score --out` writes): `score.json` checked by its
 * zod schema, every other file checked against the sha256 `score.json` records before it is read,
 * and `scores.jsonl` line by line against its schema. Every problem is a StimkitError with the
 * caller's code (`E_COMPARE_SCORES`, `E_EXPORT_SCORES`, …) naming the file (and the line).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { StimkitError } from '../core/errors.js';
import { sha256 } from '../core/fsio.js';
import { SCORES_FILES, ScoreLine, ScoresHeader } from './format.js';

const FOLDER_FIX =
  'pass the --out folder of `stimkit score` (score again if it was changed or interrupted)';
const AGAIN_FIX = 'score again with this version of stimkit';

/** A scores folder, opened: its header at once, its other files on demand. */
export interface ScoresFolder {
  dir: string;
  header: ScoresHeader;
  /** The absolute file of `score.json`. */
  headerFile: string;
  /** sha256 of `score.json`'s bytes. */
  sha: string;
  /** A file `score.json` lists, checked against its sha256; null when it lists no such file. */
  listed: (name: string) => Promise<string | null>;
  /** A file `score.json` must list (an error when it does not), checked against its sha256. */
  required: (name: string) => Promise<string>;
  /** Every line of `scores.jsonl`, each checked against the scores line schema. */
  lines: () => Promise<ScoreLine[]>;
}

/** Open the scores folder `dir`; `code` is the command's error code, carried by every problem. */
export async function openScores(dir: string, code: string): Promise<ScoresFolder> {
  const fail = (
    file: string,
    message: string,
    fix: string,
    more: { field?: string; line?: number } = {},
    cause?: unknown,
  ) => StimkitError.fromProblem({ code, file, ...more, message, fix }, cause);
  const headerFile = path.join(dir, SCORES_FILES.header);
  let text: string;
  let value: unknown;
  try {
    text = await readFile(headerFile, 'utf8');
    value = JSON.parse(text);
  } catch (err) {
    throw fail(
      headerFile,
      'no readable score.json: not a scores folder (or an interrupted one)',
      FOLDER_FIX,
      {},
      err,
    );
  }
  const parsed = ScoresHeader.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw fail(headerFile, `not a stimkit.scores header: ${issue.message}`, AGAIN_FIX, {
      field: issue.path.join('.'),
    });
  }
  const header = parsed.data;
  const listed = async (name: string): Promise<string | null> => {
    const entry = header.files.find((f) => f.file === name);
    if (!entry) return null;
    const file = path.join(dir, name);
    const body = await readFile(file, 'utf8').catch((err: unknown) => {
      throw fail(file, `score.json lists ${name}, but it cannot be read`, FOLDER_FIX, {}, err);
    });
    if (sha256(body) !== entry.sha256)
      throw fail(
        file,
        'this file does not match the sha256 score.json records: it changed after scoring',
        FOLDER_FIX,
      );
    return body;
  };
  const required = async (name: string): Promise<string> => {
    const body = await listed(name);
    if (body === null) throw fail(path.join(dir, name), `score.json lists no ${name}`, FOLDER_FIX);
    return body;
  };
  const lines = async (): Promise<ScoreLine[]> => {
    const file = path.join(dir, SCORES_FILES.records);
    const out: ScoreLine[] = [];
    (await required(SCORES_FILES.records)).split('\n').forEach((l, i) => {
      if (l === '') return;
      let v: unknown;
      try {
        v = JSON.parse(l);
      } catch (err) {
        throw fail(file, 'not JSON', AGAIN_FIX, { line: i + 1 }, err);
      }
      const line = ScoreLine.safeParse(v);
      if (!line.success) {
        const issue = line.error.issues[0]!;
        throw fail(file, `not a scores line: ${issue.message}`, AGAIN_FIX, {
          line: i + 1,
          field: issue.path.join('.'),
        });
      }
      out.push(line.data);
    });
    return out;
  };
  return { dir, header, headerFile, sha: sha256(text), listed, required, lines };
}
