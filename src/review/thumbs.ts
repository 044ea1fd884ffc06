/** Thumbnails for the review page: small JPEG data URLs, so the page is one self-contained file. */
import sharp from '../core/sharp.js';

/**
 * A data URL of `file` scaled to fit `size` × `size` (EXIF orientation applied, alpha on white),
 * or null when the file cannot be decoded.
 */
export async function thumbnail(file: string, size: number): Promise<string | null> {
  try {
    const buf = await sharp(file, { limitInputPixels: 50_000_000 })
      .rotate()
      .resize(size, size, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 78 })
      .toBuffer();
    return `data:image/jpeg;base64,${buf.toString('base64')}`;
  } catch {
    return null;
  }
}
