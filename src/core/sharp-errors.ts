/**
 * sharp's errors carry no code, only libvips' message. This is the one place that maps those
 * messages to stimkit error codes, with a sentence a curator can act on.
 */

/** A decoding failure classified: code, plain explanation, and what to do. */
export interface ImageFailure {
  code: string;
  message: string;
  fix: string;
}

const RULES: Array<{ test: RegExp; failure: Omit<ImageFailure, 'message'> & { message: string } }> = [
  {
    test: /input (buffer|file) is empty|buffer is empty/i,
    failure: { code: 'E_IMAGE_EMPTY', message: 'the file is empty (0 bytes)', fix: 'supply the image file again' },
  },
  {
    test: /exceeds pixel limit/i,
    failure: {
      code: 'E_IMAGE_TOO_LARGE',
      message: 'the image exceeds the pixel limit (possible decompression bomb)',
      fix: 'downscale the image, or raise --pixel-limit if it is genuine',
    },
  },
  {
    test: /unsupported image format/i,
    failure: {
      code: 'E_IMAGE_UNSUPPORTED',
      message: 'not an image in a format stimkit can decode (JPEG, PNG, WebP, TIFF, GIF, AVIF/HEIF)',
      fix: 'convert the file to PNG or JPEG, or check that it is an image at all',
    },
  },
  // libjpeg's "premature end of JPEG image" is truncation; "Corrupt JPEG data: premature end of data segment" is not.
  {
    test: /premature end of (jpeg image|input)|truncated|unexpected end|end of (stream|file)|libpng read error|not enough data|short read/i,
    failure: {
      code: 'E_IMAGE_TRUNCATED',
      message: 'the image data ends early (truncated file)',
      fix: 'download or copy the file again and compare its size with the source',
    },
  },
  {
    test: /corrupt|bad (huffman|header|marker|crc)|crc error|incorrect header check/i,
    failure: {
      code: 'E_IMAGE_CORRUPT',
      message: 'the image data is corrupt',
      fix: 'fetch a clean copy of the file from the archive',
    },
  },
  {
    test: /invalid|decode|read error|not a (png|jpeg)/i,
    failure: {
      code: 'E_IMAGE_CORRUPT',
      message: 'the image data is corrupt',
      fix: 'fetch a clean copy of the file from the archive',
    },
  },
];

/** Map an error thrown by sharp to a stimkit failure; the original message is kept in `message`. */
export function classifySharpError(err: unknown): ImageFailure {
  // libvips may report the same failure with different, or several, lines when threads race
  // (e.g. only "Warning treated as error due to failOn setting"), so classify on every line.
  const lines = [...new Set((err instanceof Error ? err.message : String(err)).split('\n').map((l) => l.trim()).filter(Boolean))];
  const raw = lines.join('; ');
  for (const rule of RULES) {
    if (rule.test.test(raw)) return { ...rule.failure, message: `${rule.failure.message} [decoder: ${raw}]` };
  }
  if (/warning treated as error/i.test(raw)) {
    return {
      code: 'E_IMAGE_CORRUPT',
      message: `the decoder found damaged image data [decoder: ${raw}]`,
      fix: 'fetch a clean copy of the file from the archive',
    };
  }
  return { code: 'E_IMAGE_DECODE', message: `the decoder failed [decoder: ${raw}]`, fix: 'check the file with an image viewer' };
}

/**
 * Truncation by structure, independent of decoder messages: a PNG must end with its IEND chunk and
 * a JPEG with its EOI marker (trailing bytes after them are tolerated). Returns a failure or null.
 */
export function checkComplete(bytes: Uint8Array, format: string): ImageFailure | null {
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - 4096)));
  const complete =
    format === 'png' ? tail.includes(Buffer.from('IEND', 'latin1')) : format === 'jpeg' ? tail.includes(Buffer.from([0xff, 0xd9])) : true;
  if (complete) return null;
  return {
    code: 'E_IMAGE_TRUNCATED',
    message: `the image data ends early (truncated file: no ${format === 'png' ? 'IEND chunk' : 'end-of-image marker'})`,
    fix: 'download or copy the file again and compare its size with the source',
  };
}
