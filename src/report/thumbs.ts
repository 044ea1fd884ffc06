/**
 * Small thumbnails of bundle images for the report page (the abstraction ladder's variant strip):
 * each image is read from the bundle by its digest, its bytes are checked against that digest,
 * and it is shrunk to fit `THUMB_PX` × `THUMB_PX` as a palette PNG (about 1–11 KB). Same image →
 * same bytes (sharp with fixed settings; no metadata written).
 */
import { readFile } from 'node:fs/promises';
import sharp from '../core/sharp.js';
import { sha256 } from '../core/fsio.js';
import { imageFile, type BundleData } from '../label/bundle.js';

/** The longest side of a thumbnail, in pixels. */
export const THUMB_PX = 128;

/** A thumbnail and where it comes from. */
export interface Thumbnail {
  data: Buffer;
  width: number;
  height: number;
  /** sha256 of the source image (as the bundle names it). */
  source_sha256: string;
}

/**
 * The thumbnail of the bundle image with this digest, or a reason it cannot be made (missing
 * file, bytes that do not match the digest).
 */
export async function bundleThumbnail(
  bundle: BundleData,
  digest: string,
): Promise<Thumbnail | { error: string }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(imageFile(bundle, digest));
  } catch {
    return { error: `image ${digest.slice(0, 12)}… is missing from the bundle` };
  }
  if (sha256(bytes) !== digest)
    return {
      error: `image ${digest.slice(0, 12)}… does not match its digest (the bundle was changed after sealing)`,
    };
  const { data, info } = await sharp(bytes)
    .resize(THUMB_PX, THUMB_PX, { fit: 'inside', withoutEnlargement: true })
    .png({ compressionLevel: 9, palette: true, adaptiveFiltering: false })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, source_sha256: digest };
}
