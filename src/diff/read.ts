/**
 * Reading two sealed bundles for `stimkit diff`, through the one reader of sealed bundles
 * (`openBundle`): every payload file diff compares is checked against the bundle's manifest and
 * validated against its schema, so a diff compares the bundles its digests name. A bundle changed
 * after sealing is refused, naming the file (`stimkit verify` lists every changed file).
 */
import { openBundle } from '../bundle/reader.js';
import type { BundleHeader, Trial } from '../bundle/format.js';
import type { BundleEntry } from '../bundle/payload-schemas.js';

/** The parts of a bundle a diff compares. */
export interface BundlePayload {
  /** The folder as given. */
  dir: string;
  digest: string;
  header: BundleHeader;
  study: Record<string, unknown>;
  entries: BundleEntry[];
  recipe: unknown;
  prompts: unknown;
  items: unknown;
  wrappers: unknown;
  trials: Map<string, Trial>;
}

/** Read a bundle's payload. Throws E_DIFF_NOT_A_BUNDLE naming the file it cannot read or trust. */
export async function readBundlePayload(dir: string): Promise<BundlePayload> {
  const b = await openBundle(dir, 'E_DIFF_NOT_A_BUNDLE');
  return {
    dir,
    digest: b.digest,
    header: b.header,
    study: (await b.study())?.study ?? {},
    entries: (await b.entries()) ?? [],
    recipe: (await b.variants())?.recipe ?? null,
    prompts: await b.prompts(),
    items: await b.items(),
    wrappers: await b.wrappers(),
    trials: new Map((await b.trials()).map((t) => [t.id, t])),
  };
}
