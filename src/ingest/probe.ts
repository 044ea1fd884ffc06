/**
 * Decode one image under an explicit pixel limit and describe it: format, size, colour space, ICC
 * profile, EXIF orientation, bit depth, alpha, perceptual hash. Every failure is classified in
 * `core/sharp-errors.ts`.
 */
import path from 'node:path';
import { parse as parseIcc } from 'icc';
import { jpegScanProblem } from './jpeg-scan.js';
import sharp from '../core/sharp.js';
import type { Metadata } from 'sharp';
import { sha256 } from '../core/fsio.js';
import { phashOf } from '../core/phash.js';
import {
  classifyImageFailure,
  EMPTY,
  isolatedDetail,
  type ImageFailure,
} from '../core/sharp-errors.js';

/** What ingest records about a decoded image. */
interface ImageFacts {
  format: string;
  /** Stored size, before EXIF orientation. */
  width: number;
  height: number;
  /** Size after applying EXIF orientation (what a viewer shows, and what A0 starts from). */
  oriented_width: number;
  oriented_height: number;
  /** EXIF orientation 1–8 (1 when absent). */
  exif_orientation: number;
  /** libvips interpretation, e.g. `srgb`, `b-w`, `cmyk`. */
  colour_space: string;
  channels: number;
  bit_depth: number;
  has_alpha: boolean;
  palette: boolean;
  icc: { description: string | null; sha256: string; bytes: number } | null;
  /** 64-bit perceptual hash, 16 hex digits. */
  phash: string;
}

/** File extensions and the formats they promise. */
const EXTENSION_FORMATS: Record<string, string[]> = {
  '.jpg': ['jpeg'],
  '.jpeg': ['jpeg'],
  '.jpe': ['jpeg'],
  '.png': ['png'],
  '.webp': ['webp'],
  '.tif': ['tiff'],
  '.tiff': ['tiff'],
  '.gif': ['gif'],
  '.avif': ['heif'],
  '.heic': ['heif'],
  '.heif': ['heif'],
};

const DEPTH_BITS: Record<string, number> = {
  uchar: 8,
  char: 8,
  ushort: 16,
  short: 16,
  uint: 32,
  int: 32,
  float: 32,
  double: 64,
};

export type ProbeResult = { ok: true; facts: ImageFacts } | { ok: false; failure: ImageFailure };

/**
 * A failed read classified from the file's own bytes (never from libvips' shared error text),
 * with the decoder's words from reading it again alone.
 */
async function failed(
  bytes: Buffer,
  stage: 'header' | 'decode',
  again: () => Promise<unknown>,
): Promise<ProbeResult> {
  return { ok: false, failure: classifyImageFailure(bytes, stage, await isolatedDetail(again)) };
}

function iccFacts(icc: Buffer | undefined): ImageFacts['icc'] {
  if (!icc) return null;
  let description: string | null;
  try {
    description = parseIcc(icc).description ?? null;
  } catch {
    description = null;
  }
  return { description, sha256: sha256(icc), bytes: icc.length };
}

/**
 * Why the header alone rules the image out (over the pixel limit, or an extension that does not
 * match the content), or null when it does not.
 */
function headerFailure(meta: Metadata, fileName: string, pixelLimit: number): ImageFailure | null {
  const format = meta.format ?? 'unknown';
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width * height > pixelLimit) {
    return {
      code: 'E_IMAGE_TOO_LARGE',
      message: `the header declares ${width} × ${height} = ${(width * height).toLocaleString('en-US')} pixels, over the pixel limit of ${pixelLimit.toLocaleString('en-US')} (possible decompression bomb)`,
      fix: 'downscale the image, or raise --pixel-limit if it is genuine',
    };
  }
  const ext = path.extname(fileName).toLowerCase();
  const promised = EXTENSION_FORMATS[ext];
  // Content stimkit does not take (an SVG, a PDF page) under whatever name: renaming cannot help.
  if (!Object.values(EXTENSION_FORMATS).some((f) => f.includes(format))) {
    return {
      code: 'E_IMAGE_UNSUPPORTED',
      message: `the content is ${format}, not an image format stimkit takes (${Object.keys(EXTENSION_FORMATS).join(' ')})`,
      fix: 'convert it to PNG (a vector image: render it at the size wanted) and update image.file',
    };
  }
  if (!promised) {
    return {
      code: 'E_IMAGE_EXTENSION',
      message: `the extension "${ext || '(none)'}" is not an image extension stimkit knows (content is ${format})`,
      fix: `rename the file with one of ${Object.keys(EXTENSION_FORMATS).join(' ')}`,
    };
  }
  if (!promised.includes(format)) {
    return {
      code: 'E_IMAGE_MISLABELLED',
      message: `the extension "${ext}" says ${promised.join('/')} but the content is ${format}`,
      fix: `rename the file to match its content (e.g. .${format === 'jpeg' ? 'jpg' : format}) and update image.file`,
    };
  }
  return null;
}

/**
 * Decode `bytes` fully (so truncation and corruption show) and describe the image.
 * `fileName` is used only to check that the extension matches the content.
 */
export async function probeImage(
  bytes: Buffer,
  fileName: string,
  pixelLimit: number,
): Promise<ProbeResult> {
  if (bytes.length === 0) return { ok: false, failure: EMPTY };
  const header = () => sharp(bytes, { limitInputPixels: false }).metadata();
  let meta: Metadata;
  try {
    meta = await header();
  } catch {
    return failed(bytes, 'header', header);
  }
  const refused = headerFailure(meta, fileName, pixelLimit);
  if (refused) return { ok: false, failure: refused };
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  const format = meta.format ?? 'unknown';
  let phash: string;
  // A full decode with failOn 'warning' catches truncated and corrupt data that metadata() misses.
  const decode = () =>
    phashOf(
      sharp(bytes, { limitInputPixels: pixelLimit, failOn: 'warning' })
        .rotate()
        .flatten({ background: '#ffffff' }),
    );
  try {
    phash = await decode();
  } catch {
    return failed(bytes, 'decode', decode);
  }
  // libvips stops reading a JPEG at its last row: damage in the middle of its data decodes
  // without a warning, so every scan is walked as libjpeg would (jpeg-scan.ts).
  const damaged = format === 'jpeg' ? jpegScanProblem(bytes) : null;
  if (damaged)
    return {
      ok: false,
      failure: {
        code: 'E_IMAGE_CORRUPT',
        message: `the image data is corrupt: ${damaged} (the decoder shows the damaged part as garbage)`,
        fix: 'fetch a clean copy of the file from the archive',
      },
    };
  const orientation = meta.orientation ?? 1;
  const swap = orientation >= 5 && orientation <= 8;
  return {
    ok: true,
    facts: {
      format,
      width,
      height,
      oriented_width: swap ? height : width,
      oriented_height: swap ? width : height,
      exif_orientation: orientation,
      colour_space: meta.space ?? 'unknown',
      channels: meta.channels ?? 0,
      bit_depth: meta.bitsPerSample ?? DEPTH_BITS[meta.depth ?? ''] ?? 0,
      has_alpha: Boolean(meta.hasAlpha),
      palette: Boolean(meta.isPalette),
      icc: iccFacts(meta.icc),
      phash,
    },
  };
}
