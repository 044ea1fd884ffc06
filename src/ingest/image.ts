/**
 * One entry's image for `stimkit ingest`: resolve its path inside the images root, read and hash
 * it, check a pinned sha256, and decode it into the lock's image record, with its problems.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Problem } from '../core/errors.js';
import { relPosix, sha256 } from '../core/fsio.js';
import { resolveInside, type SafePath } from '../core/safe-path.js';
import { closestImage } from './images-root.js';
import { emptyImageRecord, type ImageRecord } from './lock.js';
import { probeImage } from './probe.js';
import type { Entry } from './schema.js';

/** The record and problems of an image whose path did not resolve inside the images root. */
async function unresolvedImage(
  resolved: Extract<SafePath, { ok: false }>,
  entry: Entry,
  root: string,
  lockDir: string,
  where: Pick<Problem, 'file' | 'line' | 'field' | 'entry'>,
  allowMissing: boolean,
): Promise<{ record: ImageRecord; problems: Problem[] }> {
  if (resolved.reason === 'missing') {
    if (allowMissing)
      return {
        record: emptyImageRecord(relPosix(lockDir, resolved.path), 'missing'),
        problems: [],
      };
    return {
      record: emptyImageRecord(relPosix(lockDir, resolved.path), 'failed'),
      problems: [
        {
          code: 'E_INGEST_IMAGE_MISSING',
          severity: 'error',
          ...where,
          message: `image not found: ${resolved.detail}`,
          fix: await missingImageFix(root, resolved.path),
        },
      ],
    };
  }
  const notFile = resolved.reason === 'not-a-file';
  return {
    record: emptyImageRecord(entry.image.file, 'failed'),
    problems: [
      {
        code: notFile ? 'E_INGEST_NOT_A_FILE' : 'E_INGEST_PATH_ESCAPES',
        severity: 'error',
        ...where,
        message: `refused: ${resolved.detail}`,
        fix: notFile
          ? 'give the path of the image file itself in image.file'
          : 'put the image inside the images root (or point --images at a folder that contains it) and give a relative path',
      },
    ],
  };
}

/** An entry's image record and its problems (unresolved, unreadable, pin mismatch, undecodable). */
export async function ingestImage(
  entry: Entry,
  root: string,
  lockDir: string,
  manifestFile: string,
  line: number | undefined,
  field: string,
  opts: { allowMissing: boolean; pixelLimit: number },
): Promise<{ record: ImageRecord; problems: Problem[] }> {
  const where = { file: manifestFile, line, field: `${field}.image.file`, entry: entry.id };
  const resolved = await resolveInside(root, entry.image.file);
  if (!resolved.ok)
    return unresolvedImage(resolved, entry, root, lockDir, where, opts.allowMissing);
  const file = resolved.path;
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return {
      record: emptyImageRecord(relPosix(lockDir, file), 'failed'),
      problems: [
        {
          code: 'E_INGEST_IMAGE_UNREADABLE',
          severity: 'error',
          ...where,
          message: `cannot read ${relPosix(process.cwd(), file)} (${e.code ?? e.message})`,
          fix: 'check the file permissions',
        },
      ],
    };
  }
  const digest = sha256(bytes);
  const problems: Problem[] = [];
  if (entry.image.sha256 && entry.image.sha256 !== digest) {
    problems.push({
      code: 'E_INGEST_SHA256_MISMATCH',
      severity: 'error',
      ...where,
      field: `${field}.image.sha256`,
      message: 'the file does not have the pinned sha256',
      expected: entry.image.sha256,
      got: digest,
      fix: 'supply the exact file the manifest pins (check the archive version), or update the pin if the change is intended',
    });
  }
  const probe = await probeImage(bytes, file, opts.pixelLimit);
  const base = {
    ...emptyImageRecord(relPosix(lockDir, file), 'failed'),
    sha256: digest,
    bytes: bytes.length,
  };
  if (!probe.ok) {
    problems.push({
      code: probe.failure.code,
      severity: 'error',
      ...where,
      message: `${relPosix(process.cwd(), file)}: ${probe.failure.message}`,
      fix: probe.failure.fix,
    });
    return { record: base, problems };
  }
  return { record: { ...base, status: 'ok', ...probe.facts }, problems };
}

/** The fix of a missing image: the closest file name in its folder, when one is close. */
async function missingImageFix(root: string, file: string): Promise<string> {
  const guess = await closestImage(root, file);
  const generic =
    'supply the file at that path, fix image.file, or pass --allow-missing to list it as missing';
  if (guess && path.basename(guess).normalize('NFC') === path.basename(file).normalize('NFC'))
    return `a file with this name is there, its name written with other Unicode code points (decomposed, as macOS writes names: they print the same): rename it to the name image.file gives (e.g. with a tool that writes NFC), or copy its name from the folder into image.file`;
  return guess ? `did you mean "${guess}"? Set image.file: ${guess}, or ${generic}` : generic;
}
