/**
 * The stimkit-specific checks of a bag: the header's format and version, every trial line against
 * the trial schema and its id, and every image a trial shows present under its own digest.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Problem } from '../core/errors.js';
import { jsonKind } from '../core/json.js';
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  BundleHeader,
  imagePayloadPath,
  PAYLOAD,
  Trial,
} from '../bundle/format.js';
import { trialId } from '../bundle/trial-id.js';
import { blockOf, checkDeclaredCounts } from './counts.js';
import type { FoundFile } from '../core/walk.js';

/** Problems found in at most this many trial lines are listed one by one; the rest are counted. */
const MAX_LISTED = 20;

/**
 * Check `data/bundle.json` and `data/trials.jsonl`, and the counts the bag declares (header,
 * counts.json, bag-info.txt `info` fields) against the trials. `manifest` maps bag paths to
 * sha256 digests.
 */
export function checkBundleContent(
  root: string,
  files: Map<string, FoundFile>,
  manifest: Map<string, string>,
  info: Map<string, string> | null = null,
): { trials: number | null; images: number | null; problems: Problem[] } {
  const problems: Problem[] = [];
  const trialsPath = `data/${PAYLOAD.trials}`;
  const add: AddProblem = (code, file, message, more = {}) =>
    problems.push({ code, severity: 'error', file, message, ...more });

  const header = checkHeader(root, files, add);
  if (!files.has(trialsPath)) {
    add('E_VERIFY_TRIALS', trialsPath, 'the trial plan is missing');
    return { trials: null, images: null, problems };
  }
  const lines = readFileSync(path.join(root, trialsPath), 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const { images, cells } = checkTrialLines(lines, add);
  checkTrialImages(images, files, manifest, add);
  problems.push(
    ...checkDeclaredCounts(root, files, header, info, {
      trials: lines.length,
      images,
      cells,
    }),
  );
  return { trials: lines.length, images: images.size, problems };
}

type AddProblem = (code: string, file: string, message: string, more?: Partial<Problem>) => void;

/** `data/bundle.json`: present, JSON, this format and version, and a valid header. */
function checkHeader(
  root: string,
  files: Map<string, FoundFile>,
  add: AddProblem,
): BundleHeader | null {
  const headerPath = `data/${PAYLOAD.bundle}`;
  if (!files.has(headerPath)) {
    add('E_VERIFY_HEADER', headerPath, 'the bundle header is missing');
    return null;
  }
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path.join(root, headerPath), 'utf8'));
  } catch {
    add('E_VERIFY_HEADER', headerPath, 'not valid JSON');
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    add('E_VERIFY_HEADER', headerPath, 'not a stimkit bundle header', {
      expected: 'a JSON object',
      got: jsonKind(value),
    });
    return null;
  }
  const h = value as { format?: unknown; version?: unknown };
  if (h.format !== BUNDLE_FORMAT) {
    add('E_VERIFY_HEADER', headerPath, 'not a stimkit bundle header', {
      field: 'format',
      expected: BUNDLE_FORMAT,
      got: JSON.stringify(h.format),
    });
    return null;
  }
  if (h.version !== BUNDLE_VERSION) {
    add('E_VERIFY_HEADER', headerPath, 'bundle version not supported by this stimkit', {
      field: 'version',
      expected: String(BUNDLE_VERSION),
      got: JSON.stringify(h.version),
      fix: 'use the stimkit version that wrote the bundle (bag-info.txt, Bag-Software-Agent)',
    });
    return null;
  }
  const parsed = BundleHeader.safeParse(h);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  add(
    'E_VERIFY_HEADER',
    headerPath,
    `not a valid bundle header: ${issue.path.join('.') || '(top level)'}: ${issue.message}`,
    { field: issue.path.join('.') || undefined },
  );
  return null;
}

/**
 * Every trial line: JSON, a valid trial, its id, unique, and its image parts. Returns the images
 * the trials show and the trial count per block and language.
 */
function checkTrialLines(
  lines: string[],
  add: AddProblem,
): { images: Set<string>; cells: Map<string, number> } {
  const trialsPath = `data/${PAYLOAD.trials}`;
  const ids = new Map<string, number>();
  const images = new Set<string>();
  const cells = new Map<string, number>();
  let bad = 0;
  const lineProblem = (n: number, message: string, more: Partial<Problem> = {}) => {
    bad++;
    if (bad <= MAX_LISTED) add('E_VERIFY_TRIALS', trialsPath, message, { line: n, ...more });
  };
  lines.forEach((text, i) => {
    const n = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      lineProblem(n, `line ${n} is not JSON`);
      return;
    }
    const parsed = Trial.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      lineProblem(
        n,
        `line ${n} is not a valid trial: ${issue.path.join('.') || '(top level)'}: ${issue.message}`,
      );
      return;
    }
    const t = parsed.data;
    const cell = `${blockOf(t)}\t${t.lang}`;
    cells.set(cell, (cells.get(cell) ?? 0) + 1);
    const expectedId = trialId(t);
    if (t.id !== expectedId)
      lineProblem(n, `line ${n}: trial id does not match its defining fields`, {
        expected: expectedId,
        got: t.id,
      });
    const prev = ids.get(t.id);
    if (prev !== undefined)
      lineProblem(n, `line ${n}: trial id ${t.id} already used on line ${prev}`);
    ids.set(t.id, n);
    const shown = t.messages.flatMap((m) =>
      m.content.flatMap((c) => (c.type === 'image' ? [c] : [])),
    );
    if (shown.map((c) => c.sha256).join() !== t.images.join())
      lineProblem(n, `line ${n}: "images" does not list the images of the messages, in order`);
    for (const part of shown) {
      const want = imagePayloadPath(part.sha256);
      if (part.file !== want)
        lineProblem(n, `line ${n}: image part file should be ${want}`, { got: part.file });
      images.add(part.sha256);
    }
  });
  if (bad > MAX_LISTED)
    add('E_VERIFY_TRIALS', trialsPath, `${bad - MAX_LISTED} more invalid trial line(s) not listed`);
  return { images, cells };
}

/** Every image a trial shows is in the bag, and the manifest records it under its own digest. */
function checkTrialImages(
  images: Set<string>,
  files: Map<string, FoundFile>,
  manifest: Map<string, string>,
  add: AddProblem,
): void {
  for (const digest of [...images].sort()) {
    const p = `data/${imagePayloadPath(digest)}`;
    if (!files.has(p)) {
      add('E_VERIFY_TRIAL_IMAGE', p, 'an image that trials show is not in the bag', {
        fix: 'restore it from the original bundle',
      });
    } else if (manifest.has(p) && manifest.get(p) !== digest) {
      add('E_VERIFY_IMAGE_NAME', p, 'the manifest records other content than the file name says', {
        expected: digest,
        got: manifest.get(p),
      });
    }
  }
}
