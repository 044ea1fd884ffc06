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

/** The failure for a file that `isTruncated` says ends early. */
export const TRUNCATED: ImageFailure = {
  code: 'E_IMAGE_TRUNCATED',
  message: 'the image data ends early (truncated file)',
  fix: 'download or copy the file again and compare its size with the source',
};

const CORRUPT: ImageFailure = {
  code: 'E_IMAGE_CORRUPT',
  message: 'the image data is corrupt',
  fix: 'fetch a clean copy of the file from the archive',
};

const RULES: Array<{ test: RegExp; failure: ImageFailure }> = [
  {
    test: /input (buffer|file) is empty|buffer is empty/i,
    failure: {
      code: 'E_IMAGE_EMPTY',
      message: 'the file is empty (0 bytes)',
      fix: 'supply the image file again',
    },
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
      message:
        'not an image in a format stimkit can decode (JPEG, PNG, WebP, TIFF, GIF, AVIF/HEIF)',
      fix: 'convert the file to PNG or JPEG, or check that it is an image at all',
    },
  },
  // libjpeg's "premature end of JPEG image" is truncation; "Corrupt JPEG data: premature end of data segment" is not.
  {
    test: /premature end of (jpeg image|input)|truncated|unexpected end|end of (stream|file)|libpng read error|not enough data|short read/i,
    failure: TRUNCATED,
  },
  {
    test: /corrupt|bad (huffman|header|marker|crc)|crc error|incorrect header check/i,
    failure: CORRUPT,
  },
  { test: /invalid|decode|read error|not a (png|jpeg)/i, failure: CORRUPT },
];

/**
 * Map an error thrown by sharp to a stimkit failure; the original message is kept in `message`.
 * `truncated` (from `isTruncated`) settles truncation by the file's structure, whatever the words.
 */
export function classifySharpError(err: unknown, truncated = false): ImageFailure {
  // libvips may report the same failure with different, or several, lines when threads race
  // (e.g. only "Warning treated as error due to failOn setting"), so classify on every line.
  const lines = [
    ...new Set(
      (err instanceof Error ? err.message : String(err))
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean),
    ),
  ];
  const raw = lines.join('; ');
  if (truncated) return { ...TRUNCATED, message: `${TRUNCATED.message} [decoder: ${raw}]` };
  for (const rule of RULES) {
    if (rule.test.test(raw))
      return { ...rule.failure, message: `${rule.failure.message} [decoder: ${raw}]` };
  }
  if (/warning treated as error/i.test(raw))
    return { ...CORRUPT, message: `${CORRUPT.message} [decoder: ${raw}]` };
  return {
    code: 'E_IMAGE_DECODE',
    message: `the decoder failed [decoder: ${raw}]`,
    fix: 'check the file with an image viewer',
  };
}

/**
 * Whether a PNG or JPEG file ends before its structure does: a PNG whose chunks run past the end
 * or never reach IEND; a JPEG whose segments or entropy-coded data run out before the EOI marker.
 * Bytes after IEND/EOI (e.g. a phone's appended video) are not truncation. Used to classify a
 * failed decode, because libvips words the same failure differently from run to run.
 */
export function isTruncated(bytes: Uint8Array, format: string): boolean {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (format === 'png') {
    let o = 8;
    while (o + 8 <= b.length) {
      const len = b.readUInt32BE(o);
      const type = b.toString('latin1', o + 4, o + 8);
      if (o + 12 + len > b.length) return true;
      if (type === 'IEND') return false;
      o += 12 + len;
    }
    return true;
  }
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
