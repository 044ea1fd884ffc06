/**
 * `stimkit verify`: re-hash every payload and tag file of a bundle, check the bag declaration,
 * Payload-Oxum, that every trial's images are in the bag under their own digest, and (optionally)
 * that the digest is the one a paper cites. Every changed, missing, extra or renamed file is
 * listed by name; nothing stops at the first problem.
 */
import { createHash, getHashes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { StimkitError, type Problem } from '../core/errors.js';
import { parseBagInfo, parseManifest, parseOxum, type ManifestLine } from '../bundle/bagit.js';
import { PAYLOAD } from '../bundle/format.js';
import { checkBundleContent } from './content.js';
import { withFixes } from './fixes.js';
import { hashFiles, listFiles, type FoundFile } from '../core/walk.js';

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

const TAG_MANIFEST = 'tagmanifest-sha256.txt';

const ALGORITHMS: Record<string, string> = {
  md5: 'md5',
  sha1: 'sha1',
  sha256: 'sha256',
  sha512: 'sha512',
};

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

/** Verify the bag at `dir`. Throws only when `dir` is not a folder at all. */
export async function verifyBundle(
  dir: string,
  options: VerifyOptions = {},
): Promise<VerifyResult> {
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
  const problems: Problem[] = [];
  const changed = new Set<string>();
  const missing = new Set<string>();
  const extra = new Set<string>();
  const add = (code: string, file: string, message: string, more: Partial<Problem> = {}) =>
    problems.push({ code, severity: 'error', file, message, ...more });

  const files = await listFiles(root);
  const byPath = new Map(files.map((f) => [f.path, f]));
  for (const f of files.filter((x) => !x.regular)) {
    add(
      'E_VERIFY_NOT_REGULAR',
      f.path,
      'not a regular file (a symbolic link or device); a bag holds plain files only',
      { fix: 'replace it with the file itself' },
    );
  }
  const readTag = async (name: string) =>
    byPath.get(name)?.regular ? readFile(path.join(root, name), 'utf8') : null;

  // Bag declaration.
  const bagit = await readTag('bagit.txt');
  if (bagit === null) {
    add('E_VERIFY_BAGIT_TXT', 'bagit.txt', 'the bag declaration is missing', {
      fix: 'this is not a BagIt bag; rebuild it with stimkit bundle',
    });
  } else {
    const decl = new Map(parseBagInfo(bagit).fields);
    if (!['1.0', '0.97'].includes(decl.get('BagIt-Version') ?? '')) {
      add('E_VERIFY_BAGIT_TXT', 'bagit.txt', 'unsupported or missing BagIt-Version', {
        expected: '1.0',
        got: decl.get('BagIt-Version') ?? 'nothing',
      });
    }
    if ((decl.get('Tag-File-Character-Encoding') ?? '').toUpperCase() !== 'UTF-8') {
      add('E_VERIFY_BAGIT_TXT', 'bagit.txt', 'Tag-File-Character-Encoding must be UTF-8', {
        got: decl.get('Tag-File-Character-Encoding') ?? 'nothing',
      });
    }
  }

  // Payload folder (RFC 8493 §2.1.2): say so once when it is gone, besides each missing file.
  if (!(await stat(path.join(root, 'data')).catch(() => null))?.isDirectory()) {
    add('E_VERIFY_NO_PAYLOAD_DIR', 'data', 'the payload folder data/ is missing', {
      fix: 'restore data/ from the original bundle',
    });
  }

  // Manifests.
  const payloadManifests = files.filter((f) => manifestAlgorithm(f.path, 'manifest') !== null);
  const tagManifests = files.filter((f) => manifestAlgorithm(f.path, 'tagmanifest') !== null);
  if (!byPath.has('manifest-sha256.txt')) {
    add('E_VERIFY_NO_MANIFEST', 'manifest-sha256.txt', 'the sha256 payload manifest is missing', {
      fix: 'rebuild the bundle; its digest is the sha256 of this file',
    });
  }
  const dataFiles = files.filter((f) => f.path.startsWith('data/'));
  const listedTags = new Set<string>();
  const listedBy = new Map<string, Set<string>>();
  const check = async (manifestFile: FoundFile, kind: 'payload' | 'tag') => {
    const alg = manifestAlgorithm(
      manifestFile.path,
      kind === 'payload' ? 'manifest' : 'tagmanifest',
    )!;
    const nodeAlg = ALGORITHMS[alg];
    if (!nodeAlg || !getHashes().includes(nodeAlg)) {
      add('E_VERIFY_ALGORITHM', manifestFile.path, `checksum algorithm "${alg}" is not supported`, {
        expected: Object.keys(ALGORITHMS).join(', '),
      });
      return;
    }
    const text = (await readTag(manifestFile.path)) ?? '';
    const { lines, errors } = parseManifest(text);
    for (const e of errors)
      add(
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
        add(
          'E_VERIFY_MANIFEST_PATH',
          manifestFile.path,
          `lists "${l.path}", which is not a ${kind} file path of this bag`,
        );
      else usable.push(l);
      if (kind === 'tag') {
        listedTags.add(l.path);
        listedBy.set(manifestFile.path, (listedBy.get(manifestFile.path) ?? new Set()).add(l.path));
      }
    }
    const present = usable.filter((l) => byPath.get(l.path)?.regular);
    const digests = await hashFiles(
      root,
      present.map((l) => ({ path: l.path, size: byPath.get(l.path)!.size })),
      nodeAlg,
      options.concurrency,
    );
    for (const l of usable) {
      if (!byPath.has(l.path)) {
        missing.add(l.path);
        add('E_VERIFY_MISSING', l.path, `listed in ${manifestFile.path} but not in the bag`, {
          fix: 'restore the file from the original bundle',
        });
      } else if (digests.get(l.path) !== undefined && digests.get(l.path) !== l.digest) {
        changed.add(l.path);
        add('E_VERIFY_CHANGED', l.path, `content differs from ${manifestFile.path}`, {
          expected: l.digest,
          got: digests.get(l.path) ?? 'unreadable',
        });
      }
    }
    if (kind === 'payload') {
      const listed = new Set(usable.map((l) => l.path));
      for (const f of dataFiles) {
        if (!listed.has(f.path)) extra.add(f.path);
      }
      return usable;
    }
    return usable;
  };
  const payloadLines: ManifestLine[] = [];
  for (const m of payloadManifests) payloadLines.push(...((await check(m, 'payload')) ?? []));
  for (const m of tagManifests) await check(m, 'tag');

  // The tag manifest: stimkit always writes it, and without it bagit.txt, bag-info.txt and the
  // payload manifests (whose sha256 is the digest) are not sealed, so a stimkit bag requires it.
  if (!byPath.has(TAG_MANIFEST)) {
    missing.add(TAG_MANIFEST);
    add(
      'E_VERIFY_NO_TAGMANIFEST',
      TAG_MANIFEST,
      'the sha256 tag manifest is missing, so bagit.txt, bag-info.txt and the manifests are not sealed',
      {
        fix: 'restore it from the original bundle (stimkit bundle always writes it)',
      },
    );
  } else {
    const covered = listedBy.get(TAG_MANIFEST) ?? new Set<string>();
    for (const name of ['bagit.txt', 'bag-info.txt', ...payloadManifests.map((m) => m.path)]) {
      if (!covered.has(name)) {
        add(
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

  // Extra files: payload files in no manifest, and top-level files that are not tag files.
  const missingDigests = new Map(
    payloadLines.filter((l) => missing.has(l.path)).map((l) => [l.digest, l.path]),
  );
  const extraDigests = await hashFiles(
    root,
    [...extra].map((p) => ({ path: p, size: byPath.get(p)!.size })),
    'sha256',
    options.concurrency,
  );
  for (const p of extra) {
    const from = missingDigests.get(extraDigests.get(p) ?? '');
    add(
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
    ...payloadManifests.map((f) => f.path),
    ...tagManifests.map((f) => f.path),
    ...listedTags,
  ]);
  for (const f of files) {
    if (!f.path.startsWith('data/') && !known.has(f.path)) {
      extra.add(f.path);
      add('E_VERIFY_EXTRA', f.path, 'not a tag file of this bag (not in the tag manifest)', {
        fix: 'remove it',
      });
    }
  }

  // Payload-Oxum.
  const octets = dataFiles.reduce((s, f) => s + f.size, 0);
  const info = await readTag('bag-info.txt');
  const oxumText =
    info === null ? undefined : new Map(parseBagInfo(info).fields).get('Payload-Oxum');
  const oxum = oxumText === undefined ? null : parseOxum(oxumText);
  if (!oxum) {
    add('E_VERIFY_OXUM', 'bag-info.txt', 'Payload-Oxum is missing or malformed', {
      expected: '<octets>.<files>',
      got: oxumText ?? 'nothing',
    });
  } else if (oxum.octets !== octets || oxum.files !== dataFiles.length) {
    add('E_VERIFY_OXUM', 'bag-info.txt', 'Payload-Oxum does not match the payload', {
      expected: `${oxum.octets}.${oxum.files}`,
      got: `${octets}.${dataFiles.length}`,
    });
  }

  // Digest and content.
  const manifestBytes = byPath.get('manifest-sha256.txt')?.regular
    ? await readFile(path.join(root, 'manifest-sha256.txt'))
    : null;
  const digest = manifestBytes ? createHash('sha256').update(manifestBytes).digest('hex') : null;
  if (options.digest !== undefined && digest !== options.digest.toLowerCase()) {
    add('E_VERIFY_DIGEST', 'manifest-sha256.txt', 'the bundle digest is not the expected one', {
      expected: options.digest,
      got: digest ?? 'nothing',
      fix: 'use the bundle the digest was published for',
    });
  }
  const sha256Lines = payloadManifests.some((m) => m.path === 'manifest-sha256.txt')
    ? new Map(
        parseManifest((await readTag('manifest-sha256.txt')) ?? '').lines.map((l) => [
          l.path,
          l.digest,
        ]),
      )
    : new Map<string, string>();
  const content =
    byPath.has(`data/${PAYLOAD.trials}`) || byPath.has(`data/${PAYLOAD.bundle}`)
      ? await checkBundleContent(
          root,
          byPath,
          sha256Lines,
          info === null ? null : new Map(parseBagInfo(info).fields),
        )
      : {
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
  problems.push(...content.problems);

  const sortedProblems = problems.sort(
    (a, b) => (a.file ?? '').localeCompare(b.file ?? '') || a.code.localeCompare(b.code),
  );
  return {
    ok: problems.length === 0,
    dir: root,
    digest,
    payload: { files: dataFiles.length, octets },
    trials: content.trials,
    images: content.images,
    changed: [...changed].sort(),
    missing: [...missing].sort(),
    extra: [...extra].sort(),
    problems: withFixes(sortedProblems),
  };
}
