/**
 * Which images a release may ship: an entry's `provenance.license` decides for the image and every
 * variant of it (each variant is a derivative work, and even A0 is a re-encoded, possibly resized
 * copy). docs/release-licences.md is this table in words. Unknown or unlisted terms → no.
 */

/** `yes`: ships; `conditions`: ships with the conditions recorded in LICENSES.md; `no`: withheld. */
type Decision = 'yes' | 'conditions' | 'no';

/** What a licence allows for the release. */
export interface LicenceRule {
  /** The SPDX id when there is one, else the archive term as written in the table. */
  id: string;
  decision: Decision;
  /** What the release must do or say (attribution, non-commercial use, share-alike), or why not. */
  note: string;
}

const BY = 'attribution: credit the creator (LICENSES.md and each stimulus row name it)';
const ND =
  'no derivatives: every variant (A0 included: re-encoded, possibly resized) is a derivative';

/** Normalised licence text → rule. Keys are lower case with single spaces and `-` between words. */
const TABLE: Record<string, LicenceRule> = {};
function add(keys: string[], rule: LicenceRule): void {
  for (const k of keys) TABLE[k] = rule;
}
add(['cc0-1.0', 'cc0'], { id: 'CC0-1.0', decision: 'yes', note: 'public domain dedication' });
add(['public-domain', 'pd', 'public-domain-mark', 'pdm-1.0', 'cc-pdm-1.0', 'cc-pddc'], {
  id: 'public domain',
  decision: 'yes',
  note: 'no copyright restriction',
});
add(['us-government-work', 'u.s.-government-work', 'work-of-the-u.s.-federal-government'], {
  id: 'U.S. Government work',
  decision: 'yes',
  note: 'public domain in the United States (17 U.S.C. § 105); credit the agency',
});
for (const v of ['1.0', '2.0', '2.5', '3.0', '4.0']) {
  add([`cc-by-${v}`], { id: `CC-BY-${v}`, decision: 'yes', note: BY });
  add([`cc-by-sa-${v}`], {
    id: `CC-BY-SA-${v}`,
    decision: 'conditions',
    note: `${BY}; share-alike: the images and their variants are under CC-BY-SA-${v}`,
  });
  add([`cc-by-nc-${v}`], {
    id: `CC-BY-NC-${v}`,
    decision: 'conditions',
    note: `${BY}; non-commercial use only`,
  });
  add([`cc-by-nc-sa-${v}`], {
    id: `CC-BY-NC-SA-${v}`,
    decision: 'conditions',
    note: `${BY}; non-commercial use only; share-alike (CC-BY-NC-SA-${v})`,
  });
  add([`cc-by-nd-${v}`], { id: `CC-BY-ND-${v}`, decision: 'no', note: ND });
  add([`cc-by-nc-nd-${v}`], { id: `CC-BY-NC-ND-${v}`, decision: 'no', note: ND });
}
add(['all-rights-reserved', 'copyright', 'copyrighted', 'proprietary'], {
  id: 'all rights reserved',
  decision: 'no',
  note: 'no permission to redistribute',
});
add(['fair-use', 'fair-dealing'], {
  id: 'fair use',
  decision: 'no',
  note: 'fair use covers the study, not redistribution by others',
});
add(['no-known-copyright-restrictions', 'no-known-restrictions'], {
  id: 'no known copyright restrictions',
  decision: 'conditions',
  note: 'the archive knows of no restriction (Flickr Commons, Library of Congress); check the archive’s rights statement',
});

const UNKNOWN = (text: string): LicenceRule => ({
  id: text === '' ? 'unknown' : text,
  decision: 'no',
  note: 'not in the licence table: unknown terms are never redistributed',
});

/** The key a licence text is looked up by: lower case, `CC BY-SA 4.0` → `cc-by-sa-4.0`. */
function licenceKey(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-');
}

/** The rule of a licence text as an entry's provenance writes it (unknown → `no`). */
export function licenceRule(text: string | null | undefined): LicenceRule {
  const t = (text ?? '').trim();
  const key = licenceKey(t);
  // own keys only: a licence written `constructor` or `toString` is no entry of the table
  return Object.hasOwn(TABLE, key) ? TABLE[key]! : UNKNOWN(t);
}

/** Whether an image under this rule ships in the release. */
export const ships = (rule: LicenceRule): boolean => rule.decision !== 'no';

/**
 * The images (sha256) that ship: those every entry showing them may redistribute. Two entries can
 * show the same bytes (`image.same_as`, or one file listed twice) under different licences; the
 * bytes are one file, so the stricter licence decides.
 */
export function shippedImages(
  variants: ReadonlyArray<{ entry: string; sha256: string }>,
  licenceOf: (entry: string) => string | null | undefined,
): Set<string> {
  const forbidden = new Set(
    variants.filter((v) => !ships(licenceRule(licenceOf(v.entry)))).map((v) => v.sha256),
  );
  return new Set(variants.map((v) => v.sha256).filter((s) => !forbidden.has(s)));
}
