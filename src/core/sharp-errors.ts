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
  {
    test: /premature end|truncated|unexpected end|end of (stream|file|data)|libpng read error|not enough data|short read/i,
    failure: {
      code: 'E_IMAGE_TRUNCATED',
      message: 'the image data ends early (truncated file)',
      fix: 'download or copy the file again and compare its size with the source',
    },
  },
  {
    test: /corrupt|bad (huffman|header|marker|crc)|crc error|invalid|incorrect header|decode|read error|not a (png|jpeg)/i,
    failure: {
      code: 'E_IMAGE_CORRUPT',
      message: 'the image data is corrupt',
      fix: 'fetch a clean copy of the file from the archive',
    },
  },
];

/** Map an error thrown by sharp to a stimkit failure; the original message is kept in `message`. */
export function classifySharpError(err: unknown): ImageFailure {
  const raw = (err instanceof Error ? err.message : String(err)).split('\n')[0]!.trim();
  for (const rule of RULES) {
    if (rule.test.test(raw)) return { ...rule.failure, message: `${rule.failure.message} [decoder: ${raw}]` };
  }
  return { code: 'E_IMAGE_DECODE', message: `the decoder failed [decoder: ${raw}]`, fix: 'check the file with an image viewer' };
}
