/**
 * `stimkit init <dir>`: a small working study to edit, in a new (or empty) folder. Its files refer
 * to the shipped prompt cards, wrapper pools and topics by `stimkit:<name>`, so the study works
 * wherever stimkit is installed. An existing non-empty folder is refused: nothing is overwritten.
 */
import { mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { StimkitError } from '../core/errors.js';
import { writeFileAtomic } from '../core/fsio.js';
import { ENTRIES, MODELS, README, STUDY, TOPICS } from './templates.js';

/** The files init writes, by name (and the empty `images/` folder). */
const INIT_FILES: ReadonlyArray<[string, string]> = [
  ['README.md', README],
  ['entries.yaml', ENTRIES],
  ['my.topics.yaml', TOPICS],
  ['study.yaml', STUDY],
  ['models.yaml', MODELS],
];

/** What init wrote. */
export interface InitResult {
  dir: string;
  files: string[];
}

/** Refuse `dir` unless it is missing or an empty folder. */
async function checkTarget(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => null);
  if (!info) return;
  if (!info.isDirectory()) {
    throw StimkitError.fromProblem({
      code: 'E_INIT_NOT_A_FOLDER',
      file: dir,
      message: 'is a file, not a folder',
      fix: 'name a new folder for the study',
    });
  }
  const present = await readdir(dir);
  if (present.length > 0) {
    throw StimkitError.fromProblem({
      code: 'E_INIT_NOT_EMPTY',
      file: dir,
      message: `the folder is not empty (${present.slice(0, 3).join(', ')}${present.length > 3 ? ', …' : ''}); init writes only into a new or empty folder, so nothing is overwritten`,
      expected: 'a new or empty folder',
      got: `${present.length} item(s)`,
      fix: 'name a new folder, e.g. `stimkit init my-study`',
    });
  }
}

/** Write the study files into `dir` (created if missing). */
export async function initStudy(dir: string): Promise<InitResult> {
  const abs = path.resolve(dir);
  await checkTarget(abs);
  await mkdir(path.join(abs, 'images'), { recursive: true });
  for (const [name, text] of INIT_FILES) await writeFileAtomic(path.join(abs, name), text);
  return { dir: abs, files: [...INIT_FILES.map(([name]) => name), 'images/'] };
}
