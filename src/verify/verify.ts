/**
 * `stimkit verify`: re-hash every payload and tag file of a bundle, check the bag declaration,
 * Payload-Oxum, that every trial's images are in the bag under their own digest, and (optionally)
 * that the digest is the one a paper cites. Every changed, missing, extra or renamed file is
 * listed by name; nothing stops at the first problem.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { StimkitError, type Problem } from '../core/errors.js';
import { parseBagInfo, parseManifest, parseOxum } from '../bundle/bagit.js';
import { PAYLOAD } from '../bundle/format.js';
import { checkBundleContent } from './content.js';
import { withFixes } from './fixes.js';
import {
  addProblem,
  checkManifests,
  checkTagManifestCoverage,
  readTag,
  type BagScan,
  type ManifestListing,
} from './manifests.js';
import { hashFiles, listFiles } from '../core/walk.js';

/** Options of `verifyBundle`. */
export interface VerifyOptions {
  /** The digest the bundle must have (sha256 of manifest-sha256.txt), e.g. the one a paper cites. */
  digest?: string;
  /** Files hashed at a time (default 4). */
  concurrency?: number;
}

/** What verify found. `ok` is false when any problem was found. */
export interface VerifyResult {
  ok: boolean;
  dir: string;
  /** sha256 of manifest-sha256.txt as found (null when it is missing). */
  digest: string | null;
  payload: { files: number; octets: number };
  trials: number | null;
  images: number | null;
  changed: string[];
  missing: string[];
  extra: string[];
  problems: Problem[];
}

/** Verify the bag at `dir`. Throws only when `dir` is not a folder at all. */
export async function verifyBundle(
  dir: string,
  options: VerifyOptions = {},
): Promise<VerifyResult> {
  const scan = await openBag(dir, options);
  checkDeclaration(scan);
  if (!(await stat(path.join(scan.root, 'data')).catch(() => null))?.isDirectory()) {
    // Payload folder (RFC 8493 §2.1.2): say so once when it is gone, besides each missing file.
    addProblem(scan, 'E_VERIFY_NO_PAYLOAD_DIR', 'data', 'the payload folder data/ is missing', {
      fix: 'restore data/ from the original bundle',
    });
  }
  const listing = await checkManifests(scan);
  checkTagManifestCoverage(scan, listing);
  await checkExtraFiles(scan, listing);
  const dataFiles = scan.files.filter((f) => f.path.startsWith('data/'));
  const octets = dataFiles.reduce((s, f) => s + f.size, 0);
  const info = readTag(scan, 'bag-info.txt');
  checkOxum(scan, info, octets, dataFiles.length);
  const digest = checkDigest(scan, options.digest);
  const content = checkContent(scan, listing, info);
  scan.problems.push(...content.problems);

  const sortedProblems = scan.problems.sort(
    (a, b) => (a.file ?? '').localeCompare(b.file ?? '') || a.code.localeCompare(b.code),
  );
  return {
    ok: scan.problems.length === 0,
    dir: scan.root,
    digest,
    payload: { files: dataFiles.length, octets },
    trials: content.trials,
    images: content.images,
    changed: [...scan.changed].sort(),
    missing: [...scan.missing].sort(),
    extra: [...scan.extra].sort(),
    problems: withFixes(sortedProblems),
  };
}

/** List the bag's files (every non-regular one is a problem); throws when `dir` is no folder. */
async function openBag(dir: string, options: VerifyOptions): Promise<BagScan> {
  const root = path.resolve(dir);
  const st = await stat(root).catch(() => null);
  if (!st?.isDirectory()) {
    throw StimkitError.fromProblem({
      code: 'E_VERIFY_NOT_FOUND',
      file: dir,
      message: 'no bundle folder here',
      fix: 'pass the folder `stimkit bundle --out` wrote',
    });
  }
  const files = await listFiles(root);
  const scan: BagScan = {
    root,
    files,
    byPath: new Map(files.map((f) => [f.path, f])),
    concurrency: options.concurrency,
    problems: [],
    changed: new Set<string>(),
    missing: new Set<string>(),
    extra: new Set<string>(),
  };
  for (const f of files.filter((x) => !x.regular)) {
    addProblem(
      scan,
      'E_VERIFY_NOT_REGULAR',
      f.path,
      'not a regular file (a symbolic link or device); a bag holds plain files only',
      { fix: 'replace it with the file itself' },
    );
  }
  return scan;
}

/** The bag declaration, bagit.txt: its version and tag-file encoding. */
function checkDeclaration(scan: BagScan): void {
  const bagit = readTag(scan, 'bagit.txt');
  if (bagit === null) {
    addProblem(scan, 'E_VERIFY_BAGIT_TXT', 'bagit.txt', 'the bag declaration is missing', {
      fix: 'this is not a BagIt bag; rebuild it with stimkit bundle',
    });
    return;
  }
  const decl = new Map(parseBagInfo(bagit).fields);
  if (!['1.0', '0.97'].includes(decl.get('BagIt-Version') ?? '')) {
    addProblem(scan, 'E_VERIFY_BAGIT_TXT', 'bagit.txt', 'unsupported or missing BagIt-Version', {
      expected: '1.0',
      got: decl.get('BagIt-Version') ?? 'nothing',
    });
  }
  if ((decl.get('Tag-File-Character-Encoding') ?? '').toUpperCase() !== 'UTF-8') {
    addProblem(
      scan,
      'E_VERIFY_BAGIT_TXT',
      'bagit.txt',
      'Tag-File-Character-Encoding must be UTF-8',
      { got: decl.get('Tag-File-Character-Encoding') ?? 'nothing' },
    );
  }
}

/** Extra files: payload files in no manifest, and top-level files that are not tag files. */
async function checkExtraFiles(scan: BagScan, listing: ManifestListing): Promise<void> {
  const missingDigests = new Map(
    listing.payloadLines.filter((l) => scan.missing.has(l.path)).map((l) => [l.digest, l.path]),
  );
  const extraDigests = await hashFiles(
    scan.root,
    [...scan.extra].map((p) => ({ path: p, size: scan.byPath.get(p)!.size })),
    'sha256',
    scan.concurrency,
  );
  for (const p of scan.extra) {
    const from = missingDigests.get(extraDigests.get(p) ?? '');
    addProblem(
      scan,
      'E_VERIFY_EXTRA',
      p,
      from ? `not in the payload manifest (it is ${from}, renamed)` : 'not in the payload manifest',
      {
        fix: from ? `rename it back to ${from}` : 'remove it; a sealed bundle cannot gain files',
      },
    );
  }
  const known = new Set([
    'bagit.txt',
    'bag-info.txt',
    ...listing.payloadManifests.map((f) => f.path),
    ...listing.tagManifests.map((f) => f.path),
    ...listing.listedTags,
  ]);
  for (const f of scan.files) {
    if (!f.path.startsWith('data/') && !known.has(f.path)) {
      scan.extra.add(f.path);
      addProblem(
        scan,
        'E_VERIFY_EXTRA',
        f.path,
        'not a tag file of this bag (not in the tag manifest)',
        {
          fix: 'remove it',
        },
      );
    }
  }
}

/** Payload-Oxum in bag-info.txt against the payload's octets and file count. */
function checkOxum(scan: BagScan, info: string | null, octets: number, files: number): void {
  const oxumText =
    info === null ? undefined : new Map(parseBagInfo(info).fields).get('Payload-Oxum');
  const oxum = oxumText === undefined ? null : parseOxum(oxumText);
  if (!oxum) {
    addProblem(scan, 'E_VERIFY_OXUM', 'bag-info.txt', 'Payload-Oxum is missing or malformed', {
      expected: '<octets>.<files>',
      got: oxumText ?? 'nothing',
    });
  } else if (oxum.octets !== octets || oxum.files !== files) {
    addProblem(scan, 'E_VERIFY_OXUM', 'bag-info.txt', 'Payload-Oxum does not match the payload', {
      expected: `${oxum.octets}.${oxum.files}`,
      got: `${octets}.${files}`,
    });
  }
}

/** The bundle digest (sha256 of manifest-sha256.txt), checked against `expected` when given. */
function checkDigest(scan: BagScan, expected: string | undefined): string | null {
  const manifestBytes = scan.byPath.get('manifest-sha256.txt')?.regular
    ? readFileSync(path.join(scan.root, 'manifest-sha256.txt'))
    : null;
  const digest = manifestBytes ? createHash('sha256').update(manifestBytes).digest('hex') : null;
  if (expected !== undefined && digest !== expected.toLowerCase()) {
    addProblem(
      scan,
      'E_VERIFY_DIGEST',
      'manifest-sha256.txt',
      'the bundle digest is not the expected one',
      {
        expected,
        got: digest ?? 'nothing',
        fix: 'use the bundle the digest was published for',
      },
    );
  }
  return digest;
}

/** The stimkit content checks (header, trials, images, counts), when this is a stimkit bundle. */
function checkContent(
  scan: BagScan,
  listing: ManifestListing,
  info: string | null,
): ReturnType<typeof checkBundleContent> {
  const sha256Lines = listing.payloadManifests.some((m) => m.path === 'manifest-sha256.txt')
    ? new Map(
        parseManifest(readTag(scan, 'manifest-sha256.txt') ?? '').lines.map((l) => [
          l.path,
          l.digest,
        ]),
      )
    : new Map<string, string>();
  if (scan.byPath.has(`data/${PAYLOAD.trials}`) || scan.byPath.has(`data/${PAYLOAD.bundle}`)) {
    return checkBundleContent(
      scan.root,
      scan.byPath,
      sha256Lines,
      info === null ? null : new Map(parseBagInfo(info).fields),
    );
  }
  return {
    trials: null,
    images: null,
    problems: [
      {
        code: 'E_VERIFY_HEADER',
        severity: 'error' as const,
        file: `data/${PAYLOAD.bundle}`,
        message: 'not a stimkit bundle (no data/bundle.json or data/trials.jsonl)',
      },
    ],
  };
}
