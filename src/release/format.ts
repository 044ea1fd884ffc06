/**
 * `release.json` (`stimkit.release`, version 1): the release's header, written last. It records
 * the inputs' sha256, every file of the release with its sha256, and for each withheld entry what
 * `stimkit rehydrate` needs to rebuild its images from the user's own copy: the entry as the
 * sealed bundle holds it, its source image's sha256, and each image's variant code and sha256;
 * with the bundle's variants recipe. docs/formats/release.md describes every field.
 */
import { z } from 'zod';

export const RELEASE_FORMAT = 'stimkit.release';
export const RELEASE_VERSION = 1;

const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

/** A withheld entry and its images. */
export const WithheldEntry = z.strictObject({
  entry: z.string(),
  license: z.string(),
  note: z.string(),
  source: z.strictObject({ file: z.string(), sha256: Sha256Hex, url: z.string().nullable() }),
  images: z.array(z.strictObject({ code: z.string(), sha256: Sha256Hex, phash: z.string() })),
  /** The entry as the sealed bundle's entries.json holds it (for the variants stage). */
  record: z.record(z.string(), z.unknown()),
});
export type WithheldEntry = z.output<typeof WithheldEntry>;

export const ReleaseHeader = z.strictObject({
  format: z.literal(RELEASE_FORMAT),
  version: z.literal(RELEASE_VERSION),
  tool: z.strictObject({ name: z.string(), version: z.string() }),
  bundle: z.strictObject({ digest: Sha256Hex, study: z.string() }),
  inputs: z.array(
    z.strictObject({
      role: z.enum(['bundle', 'ledger', 'scores', 'labels', 'release.yaml']),
      file: z.string(),
      sha256: Sha256Hex,
    }),
  ),
  params: z.strictObject({ run: z.string(), languages: z.array(z.string()) }),
  /** The bundle's variants recipe (variants.json `recipe`), as it is. */
  recipe: z.record(z.string(), z.unknown()),
  counts: z.strictObject({
    images: z.number().int(),
    shipped: z.number().int(),
    withheld: z.number().int(),
    responses: z.number().int(),
    scores: z.number().int(),
    ratings: z.number().int().nullable(),
  }),
  withheld: z.array(WithheldEntry),
  files: z.array(z.strictObject({ file: z.string(), bytes: z.number().int(), sha256: Sha256Hex })),
});
export type ReleaseHeader = z.output<typeof ReleaseHeader>;
