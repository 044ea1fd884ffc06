/**
 * The manifest phase of `stimkit verify`: each payload and tag manifest is parsed, its paths
 * checked, and every file it lists re-hashed against the recorded checksum.
 */
import { getHashes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Problem } from '../core/errors.js';
import { parseManifest, type ManifestLine } from '../bundle/bagit.js';
import { hashFiles, type FoundFile } from '../core/walk.js';

/** One verify pass over a bag: the files found, and what is wrong so far. */
export interface BagScan {
  root: string;
  files: FoundFile[];
  byPath: Map<string, FoundFile>;
  concurrency: number | undefined;
  problems: Problem[];
  changed: Set<string>;
  missing: Set<string>;
  extra: Set<string>;
}

/** What the manifests list: the payload lines and which tag files each tag manifest covers. */
export interface ManifestListing {
  payloadManifests: FoundFile[];
  tagManifests: FoundFile[];
  payloadLines: ManifestLine[];
  listedTags: Set<string>;
  listedBy: Map<string, Set<string>>;
}

const TAG_MANIFEST = 'tagmanifest-sha256.txt';

const ALGORITHMS: Record<string, string> = {
  md5: 'md5',
  sha1: 'sha1',
  sha256: 'sha256',
  sha512: 'sha512',
};

/** Record an error-severity problem in the scan. */
export function addProblem(
  scan: BagScan,
  code: string,
  file: string,
  message: string,
  more: Partial<Problem> = {},
): void {
  scan.problems.push({ code, severity: 'error', file, message, ...more });
}

/**
 * The text of a bag-root tag file, or null when it is absent or not a regular file. The files
 * verify reads as text (tag files, the header, the trials, counts.json) are read synchronously:
 * fs/promises' readFile costs several times the CPU of the read itself in handles and promises
 * (open, stat, read, close, each a round trip), which is most of a small bag's verify; nothing
 * else runs while verify reads.
 */
export function readTag(scan: BagScan, name: string): string | null {
  return scan.byPath.get(name)?.regular ? readFileSync(path.join(scan.root, name), 'utf8') : null;
}

function manifestAlgorithm(name: string, prefix: string): string | null {
  const m = new RegExp(`^${prefix}-([a-z0-9]+)\\.txt$`).exec(name);
  return m ? m[1]! : null;
}

function safeRel(p: string): boolean {
  return (
    !p.startsWith('/') &&
    !p.split('/').some((s) => s === '..' || s === '.' || s === '') &&
    !p.includes('\\')
  );
}

/**
 * Check every payload manifest, then every tag manifest: syntax, paths, and each listed file's
 * checksum. Payload files in no manifest are added to `scan.extra`.
 */
export async function checkManifests(scan: BagScan): Promise<ManifestListing> {
  const listing: ManifestListing = {
    payloadManifests: scan.files.filter((f) => manifestAlgorithm(f.path, 'manifest') !== null),
    tagManifests: scan.files.filter((f) => manifestAlgorithm(f.path, 'tagmanifest') !== null),
    payloadLines: [],
    listedTags: new Set<string>(),
    listedBy: new Map<string, Set<string>>(),
  };
  if (!scan.byPath.has('manifest-sha256.txt')) {
    addProblem(
      scan,
      'E_VERIFY_NO_MANIFEST',
      'manifest-sha256.txt',
      'the sha256 payload manifest is missing',
      { fix: 'rebuild the bundle; its digest is the sha256 of this file' },
    );
  }
  for (const m of listing.payloadManifests)
    listing.payloadLines.push(...((await checkManifest(scan, m, 'payload', listing)) ?? []));
  for (const m of listing.tagManifests) await checkManifest(scan, m, 'tag', listing);
  return listing;
}

/** Parse one manifest and keep the lines whose paths are of the right kind for it. */
function usableLines(
  scan: BagScan,
  manifestFile: FoundFile,
  kind: 'payload' | 'tag',
  listing: ManifestListing,
): ManifestLine[] {
  const text = readTag(scan, manifestFile.path) ?? '';
  const { lines, errors } = parseManifest(text);
  for (const e of errors)
    addProblem(
      scan,
      'E_VERIFY_MANIFEST_SYNTAX',
      manifestFile.path,
      `line ${e.line} is not "<checksum> <path>": ${JSON.stringify(e.text.slice(0, 80))}`,
      { line: e.line },
    );
  const usable: ManifestLine[] = [];
  for (const l of lines) {
    const ok =
      safeRel(l.path) &&
      (kind === 'payload' ? l.path.startsWith('data/') : !l.path.startsWith('data/'));
    if (!ok)
      addProblem(
        scan,
        'E_VERIFY_MANIFEST_PATH',
        manifestFile.path,
        `lists "${l.path}", which is not a ${kind} file path of this bag`,
      );
    else usable.push(l);
    if (kind === 'tag') {
      listing.listedTags.add(l.path);
      const covered = listing.listedBy.get(manifestFile.path) ?? new Set();
      listing.listedBy.set(manifestFile.path, covered.add(l.path));
    }
  }
  return usable;
}

/** Check one manifest; returns its usable lines, or undefined when its algorithm is unknown. */
async function checkManifest(
  scan: BagScan,
  manifestFile: FoundFile,
  kind: 'payload' | 'tag',
  listing: ManifestListing,
): Promise<ManifestLine[] | undefined> {
  const alg = manifestAlgorithm(
    manifestFile.path,
    kind === 'payload' ? 'manifest' : 'tagmanifest',
  )!;
  const nodeAlg = ALGORITHMS[alg];
  if (!nodeAlg || !getHashes().includes(nodeAlg)) {
    addProblem(
      scan,
      'E_VERIFY_ALGORITHM',
      manifestFile.path,
      `checksum algorithm "${alg}" is not supported`,
      { expected: Object.keys(ALGORITHMS).join(', ') },
    );
    return;
  }
  const usable = usableLines(scan, manifestFile, kind, listing);
  await compareDigests(scan, manifestFile, usable, nodeAlg);
  if (kind === 'payload') {
    const listed = new Set(usable.map((l) => l.path));
    for (const f of scan.files.filter((x) => x.path.startsWith('data/'))) {
      if (!listed.has(f.path)) scan.extra.add(f.path);
    }
  }
  return usable;
}

/** Re-hash the files a manifest lists and record the missing and the changed ones. */
async function compareDigests(
  scan: BagScan,
  manifestFile: FoundFile,
  usable: ManifestLine[],
  nodeAlg: string,
): Promise<void> {
  const present = usable.filter((l) => scan.byPath.get(l.path)?.regular);
  const digests = await hashFiles(
    scan.root,
    present.map((l) => ({ path: l.path, size: scan.byPath.get(l.path)!.size })),
    nodeAlg,
    scan.concurrency,
  );
  for (const l of usable) {
    if (!scan.byPath.has(l.path)) {
      scan.missing.add(l.path);
      addProblem(
        scan,
        'E_VERIFY_MISSING',
        l.path,
        `listed in ${manifestFile.path} but not in the bag`,
        {
          fix: 'restore the file from the original bundle',
        },
      );
    } else if (digests.get(l.path) !== undefined && digests.get(l.path) !== l.digest) {
      scan.changed.add(l.path);
      addProblem(scan, 'E_VERIFY_CHANGED', l.path, `content differs from ${manifestFile.path}`, {
        expected: l.digest,
        got: digests.get(l.path) ?? 'unreadable',
      });
    }
  }
}

/**
 * The tag manifest: stimkit always writes it, and without it bagit.txt, bag-info.txt and the
 * payload manifests (whose sha256 is the digest) are not sealed, so a stimkit bag requires it.
 */
export function checkTagManifestCoverage(scan: BagScan, listing: ManifestListing): void {
  if (!scan.byPath.has(TAG_MANIFEST)) {
    scan.missing.add(TAG_MANIFEST);
    addProblem(
      scan,
      'E_VERIFY_NO_TAGMANIFEST',
      TAG_MANIFEST,
      'the sha256 tag manifest is missing, so bagit.txt, bag-info.txt and the manifests are not sealed',
      {
        fix: 'restore it from the original bundle (stimkit bundle always writes it)',
      },
    );
    return;
  }
  const covered = listing.listedBy.get(TAG_MANIFEST) ?? new Set<string>();
  for (const name of [
    'bagit.txt',
    'bag-info.txt',
    ...listing.payloadManifests.map((m) => m.path),
  ]) {
    if (!covered.has(name)) {
      addProblem(
        scan,
        'E_VERIFY_TAGMANIFEST_COVERAGE',
        name,
        `not listed in ${TAG_MANIFEST}, so a change to it would go unnoticed`,
        {
          fix: 'restore the original tag manifest (stimkit lists bagit.txt, bag-info.txt and every payload manifest)',
        },
      );
    }
  }
}
