/**
 * Why an image could not be decoded, classified from the file's own bytes: its signature, and
 * whether its structure ends early (truncated) or breaks (corrupt). Never from libvips' message:
 * libvips keeps one error buffer for all threads, so at `--jobs 8` an image failing at the same
 * moment as another may be given the other's message. The message is kept as a detail only,
 * read again by decoding the file alone (`isolatedDetail`).
 */
import { crc32 } from 'node:zlib';

/** A decoding failure classified: code, plain explanation, and what to do. */
export interface ImageFailure {
  code: string;
  message: string;
  fix: string;
}

/** The failure for a file that `isTruncated` says ends early. */
const TRUNCATED: ImageFailure = {
  code: 'E_IMAGE_TRUNCATED',
  message: 'the image data ends early (truncated file)',
  fix: 'download or copy the file again and compare its size with the source',
};

const CORRUPT: ImageFailure = {
  code: 'E_IMAGE_CORRUPT',
  message: 'the image data is corrupt',
  fix: 'fetch a clean copy of the file from the archive',
};

/** The failure of an empty file. */
export const EMPTY: ImageFailure = {
  code: 'E_IMAGE_EMPTY',
  message: 'the file is empty (0 bytes)',
  fix: 'supply the image file again',
};

const UNSUPPORTED: ImageFailure = {
  code: 'E_IMAGE_UNSUPPORTED',
  message: 'not an image in a format stimkit can decode (JPEG, PNG, WebP, TIFF, GIF, AVIF/HEIF)',
  fix: 'convert the file to PNG or JPEG, or check that it is an image at all',
};

const UNDECODABLE: ImageFailure = {
  code: 'E_IMAGE_DECODE',
  message: 'the decoder failed',
  fix: 'check the file with an image viewer',
};

/** The format a file's first bytes announce (sharp's names), or null for none stimkit decodes. */
function sniffFormat(bytes: Uint8Array): string | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 16));
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  const ascii = b.toString('latin1');
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') return 'webp';
  if (ascii.startsWith('GIF87a') || ascii.startsWith('GIF89a')) return 'gif';
  if (ascii.startsWith('II*\0') || ascii.startsWith('MM\0*')) return 'tiff';
  // ISO-BMFF: AVIF (AV1) decodes; HEIC (HEVC) does not in sharp's own libvips
  if (ascii.slice(4, 8) === 'ftyp') return /^avi[fs]$/.test(ascii.slice(8, 12)) ? 'heif' : 'heic';
  return null;
}

/**
 * Classify a failed read of `bytes` from the bytes alone. `stage` is `header` when even the
 * header could not be read (sharp's `metadata()`), `decode` when the pixels could not. `detail`
 * (the decoder's words, see `isolatedDetail`) is appended to the message.
 */
export function classifyImageFailure(
  bytes: Uint8Array,
  stage: 'header' | 'decode',
  detail?: string,
): ImageFailure {
  const format = sniffFormat(bytes);
  const f =
    bytes.byteLength === 0
      ? EMPTY
      : format === null || format === 'heic'
        ? stage === 'header' || format === 'heic'
          ? UNSUPPORTED
          : UNDECODABLE
        : isTruncated(bytes, format)
          ? TRUNCATED
          : CORRUPT;
  return detail ? { ...f, message: `${f.message} [decoder: ${detail}]` } : f;
}

/** The lines of an error message, each once, joined by `; `. */
function decoderWords(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return [
    ...new Set(
      text
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean),
    ),
  ].join('; ');
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * The decoder's words for a failure, read by running `again` (the same decode of the same file)
 * once more, one such rerun at a time, so that no other failure of this process's reruns can
 * overwrite them. A detail for people; codes never depend on it.
 */
export function isolatedDetail(again: () => Promise<unknown>): Promise<string> {
  const run = queue.then(async () => {
    try {
      await again();
      return 'decoded on a second try';
    } catch (err) {
      return decoderWords(err);
    }
  });
  queue = run.catch(() => undefined);
  return run;
}

/**
 * Whether a file ends before its structure does: a PNG whose intact chunks (each CRC checked)
 * run past the end or never reach IEND; a JPEG whose segments or entropy-coded data run out
 * before the EOI marker; a WebP shorter than its RIFF size; a GIF without its trailer. Bytes
 * after IEND/EOI (e.g. a phone's appended video) are not truncation; other formats are never
 * judged truncated. Used to classify a failed decode, because libvips words the same failure
 * differently from run to run.
 */
function isTruncated(bytes: Uint8Array, format: string): boolean {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (format === 'png') {
    let o = 8;
    while (o + 8 <= b.length) {
      const len = b.readUInt32BE(o);
      if (!/^[A-Za-z]{4}$/.test(b.toString('latin1', o + 4, o + 8))) return false; // corrupt
      if (o + 12 + len > b.length) return true;
      // a chunk whose CRC fails was damaged, not cut: corrupt (what follows it may look cut)
      if (crc32(b.subarray(o + 4, o + 8 + len)) !== b.readUInt32BE(o + 8 + len)) return false;
      if (b.toString('latin1', o + 4, o + 8) === 'IEND') return false;
      o += 12 + len;
    }
    return true;
  }
  if (format === 'webp') return b.length >= 8 && 8 + b.readUInt32LE(4) > b.length;
  if (format === 'gif') return b[b.length - 1] !== 0x3b;
  if (format === 'jpeg') {
    let o = 2; // after SOI
    while (o + 2 <= b.length) {
      if (b[o] !== 0xff) return false; // not a marker where one must be: corrupt, not truncated
      const marker = b[o + 1]!;
      if (marker === 0xff) {
        o++; // fill byte
        continue;
      }
      if (marker === 0xd9) return false; // EOI
      if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        o += 2;
        continue;
      }
      if (o + 4 > b.length) return true;
      const len = b.readUInt16BE(o + 2);
      if (o + 2 + len > b.length) return true;
      o += 2 + len;
      if (marker === 0xda) {
        // Entropy-coded data: runs to the next marker that is neither a stuffed 0x00 nor a restart.
        while (
          o + 1 < b.length &&
          !(b[o] === 0xff && b[o + 1] !== 0x00 && !(b[o + 1]! >= 0xd0 && b[o + 1]! <= 0xd7))
        )
          o++;
        if (o + 1 >= b.length) return true;
      }
    }
    return true;
  }
  return false;
}
