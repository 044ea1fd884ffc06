/**
 * Loading a rubric (`stimkit.rubric` v1), its digest, the copy a bundle seals (`data/rubric.json`,
 * read back by the bundle reader), and which rubric a scoring run uses: the sealed one, an override
 * (`--rubric FILE`), or the shipped default when the study sealed none. The digest is the sha256 of the rubric's RFC 8785
 * canonical JSON, so the YAML a study names and the JSON copy in the bag have the same digest.
 */
import path from 'node:path';
import { loadDataFile } from '../core/datafile.js';
import { sha256 } from '../core/fsio.js';
import { canonicalJson } from '../core/json.js';
import { PACKAGE_ROOT } from '../core/tool.js';
import { Rubric, RUBRIC_FORMAT, RUBRIC_VERSION } from './rubric-schema.js';

/** The rubric shipped with stimkit (the paper's Appendix E skeleton). */
export const DEFAULT_RUBRIC_FILE = path.join(PACKAGE_ROOT, 'manifests', 'audit-rubric.yaml');

/** The sha256 of the rubric's canonical JSON. */
export function rubricDigest(rubric: Rubric): string {
  return sha256(canonicalJson(rubric));
}

/** A rubric file, schema-checked (E_RUBRIC_INVALID with every problem). */
export async function loadRubric(
  file: string,
): Promise<{ rubric: Rubric; digest: string; file: string }> {
  const { data } = await loadDataFile(file, Rubric, 'E_RUBRIC_INVALID');
  return { rubric: data, digest: rubricDigest(data), file };
}

/** What the bundle seals as data/rubric.json. */
export function rubricPayload(rubric: Rubric, file: string, fileSha256: string): unknown {
  return {
    format: RUBRIC_FORMAT,
    version: RUBRIC_VERSION,
    file,
    sha256: fileSha256,
    digest: rubricDigest(rubric),
    rubric,
  };
}

/** The rubric a scoring run uses, and its provenance (recorded in every score). */
export interface ResolvedRubric {
  rubric: Rubric;
  digest: string;
  /** sealed: the bundle's; override: --rubric FILE; default: shipped, the bundle sealed none. */
  source: 'sealed' | 'override' | 'default';
  /** Digest of the bundle's sealed rubric, null when it has none. */
  sealed_digest: string | null;
  /** True when the rubric used is the sealed one (an override with identical content counts). */
  is_sealed: boolean;
  file: string | null;
}

/**
 * Pick the rubric: `override` when given, else the bundle's sealed one (`SealedBundle.rubric()`,
 * null when its study named none), else the shipped default.
 */
export async function resolveRubric(
  sealedRubric: Rubric | null,
  override?: string,
): Promise<ResolvedRubric> {
  const sealed = sealedRubric ? { rubric: sealedRubric, digest: rubricDigest(sealedRubric) } : null;
  const sealedDigest = sealed?.digest ?? null;
  if (override) {
    const r = await loadRubric(override);
    return {
      rubric: r.rubric,
      digest: r.digest,
      source: 'override',
      sealed_digest: sealedDigest,
      is_sealed: r.digest === sealedDigest,
      file: override,
    };
  }
  if (sealed)
    return {
      ...sealed,
      source: 'sealed',
      sealed_digest: sealedDigest,
      is_sealed: true,
      file: null,
    };
  const r = await loadRubric(DEFAULT_RUBRIC_FILE);
  return {
    rubric: r.rubric,
    digest: r.digest,
    source: 'default',
    sealed_digest: null,
    is_sealed: false,
    file: 'manifests/audit-rubric.yaml',
  };
}
