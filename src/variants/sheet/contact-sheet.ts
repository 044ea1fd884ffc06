/**
 * The contact sheet: a labelled PNG grid, entries × variants (A0 … A6), so a curator sees the
 * whole ladder at once. Every variant of an entry is shrunk by the same factor (the one that fits
 * A0 in a cell), so A1's crop shows at its true relative size. Labels are an SVG of the built-in
 * bitmap font composited with sharp; no system fonts, so the bytes are the same everywhere.
 * Corpora with more than `perPage` entries get further pages (`contact-sheet-2.png`, …).
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import sharp from '../../core/sharp.js';
import type { OverlayOptions } from 'sharp';
import { sha256, sha256File, writeIfChanged } from '../../core/fsio.js';
import { artifactJson } from '../../core/json.js';
import { textPath, textWidth } from './font.js';
import type { EntryRecord, VariantsLock } from '../lock.js';
import { encodePng } from '../ops/png.js';
import { variantByCode } from '../ops/registry.js';
import type { VariantCode } from '../types.js';

const PAD = 8;
const SCALE = 2;
const BAND = 24; // label band: 9 cells × 2 px + margins

/** Colour of the frame and label of a cell with quality warnings. */
export const WARN_COLOUR = '#e06000';
const FRAME = 4;

/**
 * A warned cell: a frame inside its box and its warning codes (without `W_VARIANTS_`) in white on
 * a strip of the frame colour along its bottom edge.
 */
function markWarned(
  box: { left: number; top: number },
  cell: number,
  codes: string[],
  frames: string[],
  text: string[],
): void {
  const { left: x, top: y } = box;
  frames.push(
    `M${x} ${y}h${cell}v${FRAME}h${-cell}z`,
    `M${x} ${y + cell - FRAME}h${cell}v${FRAME}h${-cell}z`,
  );
  frames.push(
    `M${x} ${y}h${FRAME}v${cell}h${-FRAME}z`,
    `M${x + cell - FRAME} ${y}h${FRAME}v${cell}h${-FRAME}z`,
  );
  const label = codes.map((c) => c.replace(/^W_VARIANTS_/, '')).join(' ');
  const scale = textWidth(label, 2) <= cell - 2 * FRAME - 4 ? 2 : 1;
  const strip = 9 * scale + 6;
  frames.push(`M${x} ${y + cell - strip}h${cell}v${strip}h${-cell}z`);
  text.push(textPath(label, x + FRAME + 2, y + cell - strip + 3, scale));
}

/** A written contact-sheet page. */
export interface SheetPage {
  file: string;
  sha256: string;
  width: number;
  height: number;
}

function cellBox(
  col: number,
  row: number,
  cell: number,
  top: number,
): { left: number; top: number } {
  return { left: PAD + col * (cell + PAD), top: top + row * (BAND + cell + PAD) + BAND };
}

async function renderPage(
  entries: EntryRecord[],
  codes: VariantCode[],
  outDir: string,
  cell: number,
  title: string,
  compression: number,
): Promise<Buffer> {
  const width = PAD + codes.length * (cell + PAD);
  const top = 2 * BAND + PAD; // title band, column headers, a gap
  const height = top + entries.length * (BAND + cell + PAD) + PAD;
  const boxes: string[] = [];
  const text: string[] = [textPath(title, PAD, 4, SCALE)];
  const failedText: string[] = [];
  const warned: string[] = []; // frames and label backings of cells with quality warnings
  const warnText: string[] = [];
  codes.forEach((code, c) =>
    text.push(
      textPath(`${code} ${variantByCode(code).name}`, PAD + c * (cell + PAD), BAND + 4, SCALE),
    ),
  );
  const overlays: OverlayOptions[] = [];
  for (const [r, entry] of entries.entries()) {
    text.push(textPath(entry.id, PAD, top + r * (BAND + cell + PAD) + 4, SCALE));
    const a0 =
      entry.variants.find((v) => v.code === 'A0' && v.width && v.height) ??
      entry.variants.find((v) => v.width && v.height);
    const factor = a0 ? cell / Math.max(a0.width!, a0.height!) : 1;
    for (const [c, code] of codes.entries()) {
      const box = cellBox(c, r, cell, top);
      boxes.push(`M${box.left} ${box.top}h${cell}v${cell}h${-cell}z`);
      const v = entry.variants.find((x) => x.code === code);
      if (!v || v.status !== 'ok' || !v.file) {
        const label = v ? 'failed' : entry.status === 'skipped' ? 'no image' : 'not run';
        failedText.push(textPath(label, box.left + 8, box.top + cell / 2 - 9, SCALE));
        continue;
      }
      overlays.push(
        await thumbnail(path.join(outDir, v.file), v.width!, v.height!, factor, box, cell),
      );
      if (v.warnings?.length)
        markWarned(
          box,
          cell,
          v.warnings.map((w) => w.code),
          warned,
          warnText,
        );
    }
  }
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" shape-rendering="crispEdges">` +
    `<path d="${boxes.join('')}" fill="#d4d4d4"/>` +
    `<path d="${text.join('')}" fill="#111111"/>` +
    `<path d="${failedText.join('')}" fill="#b00020"/></svg>`;
  // Warning frames and codes go over the thumbnails (a blank silhouette must not look like an empty cell).
  const marks = warned.length
    ? [
        {
          input: Buffer.from(
            `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" shape-rendering="crispEdges"><path d="${warned.join('')}" fill="${WARN_COLOUR}"/><path d="${warnText.join('')}" fill="#ffffff"/></svg>`,
          ),
          left: 0,
          top: 0,
        },
      ]
    : [];
  const layers = [{ input: Buffer.from(svg), left: 0, top: 0 }, ...overlays, ...marks];
  return flattenToPng(width, height, layers, compression);
}

/** A thumbnail of the variant image at `file` (`width` × `height`), scaled by `factor` and centred in `box`. */
async function thumbnail(
  file: string,
  width: number,
  height: number,
  factor: number,
  box: { left: number; top: number },
  cell: number,
): Promise<OverlayOptions> {
  const tw = Math.max(1, Math.min(cell, Math.round(width * factor)));
  const th = Math.max(1, Math.min(cell, Math.round(height * factor)));
  const thumb = await sharp(file)
    .resize(tw, th, { fit: 'fill', kernel: 'lanczos3' })
    .toColourspace('srgb')
    .png({ compressionLevel: 0 })
    .toBuffer();
  return {
    input: thumb,
    left: box.left + Math.floor((cell - tw) / 2),
    top: box.top + Math.floor((cell - th) / 2),
  };
}

/** Composite `layers` over a white `width` × `height` canvas and encode it as an RGB PNG. */
async function flattenToPng(
  width: number,
  height: number,
  layers: OverlayOptions[],
  compression: number,
): Promise<Buffer> {
  const { data, info } = await sharp({
    create: { width, height, channels: 3, background: '#ffffff' },
  })
    .composite(layers)
    .raw()
    .toBuffer({ resolveWithObject: true });
  // The canvas is opaque: keep RGB only (compositing adds an alpha channel). libvips drops the
  // band: a loop over the pixels in JavaScript cost some 20 CPU-s on a 214-entry sheet.
  const rgb = await sharp(data, { raw: { width, height, channels: info.channels } })
    .removeAlpha()
    .raw()
    .toBuffer();
  return encodePng({ width, height, channels: 3, data: rgb }, compression);
}

/** File name of contact-sheet page `n` (1-based). */
function sheetName(n: number): string {
  return n === 1 ? 'contact-sheet.png' : `contact-sheet-${n}.png`;
}

/** Options of `renderSheets` and `writeContactSheet`. */
export interface SheetOptions {
  cell: number;
  title: string;
  compression: number;
  perPage?: number;
  /** File name of page n (1-based); default `sheetName`. */
  name?: (n: number) => string;
  /**
   * Called before a page is written with its name and sha256, or removed with null (the run
   * moves aside locks that vouch for other bytes).
   */
  beforeWrite?: (file: string, sha256: string | null) => Promise<void>;
}

/** Every page of the sheet drawn in memory (named, not yet written). */
export async function renderSheets(
  entries: EntryRecord[],
  codes: VariantCode[],
  outDir: string,
  opts: SheetOptions,
): Promise<Array<{ file: string; png: Buffer }>> {
  const perPage = opts.perPage ?? 50;
  const count = Math.max(1, Math.ceil(entries.length / perPage));
  const pages: Array<{ file: string; png: Buffer }> = [];
  for (let p = 0; p < count; p++) {
    const slice = entries.slice(p * perPage, (p + 1) * perPage);
    const title = count > 1 ? `${opts.title} (${p + 1}/${count})` : opts.title;
    const png = await renderPage(slice, codes, outDir, opts.cell, title, opts.compression);
    pages.push({ file: (opts.name ?? sheetName)(p + 1), png: Buffer.from(png) });
  }
  return pages;
}

/** Write pages drawn by `renderSheets` into `outDir`; returns what was written. */
export async function writeSheets(
  pages: Array<{ file: string; png: Buffer }>,
  outDir: string,
  beforeWrite?: SheetOptions['beforeWrite'],
): Promise<SheetPage[]> {
  const written: SheetPage[] = [];
  for (const { file, png } of pages) {
    await beforeWrite?.(file, sha256(png));
    await writeIfChanged(path.join(outDir, file), png);
    const meta = await sharp(png).metadata();
    written.push({ file, sha256: sha256(png), width: meta.width, height: meta.height });
  }
  return written;
}

const SHEET_PAGE = /^contact-sheet(-[0-9]+)?\.png$/;

/**
 * Write the contact sheet page(s) into `outDir`; returns what was written. Every page is drawn
 * before the first is written, so a failure while drawing leaves the earlier sheet as it was;
 * pages of an earlier, longer sheet are removed once the new ones are written, so the folder
 * never shows an old page beside the new ones.
 */
export async function writeContactSheet(
  entries: EntryRecord[],
  codes: VariantCode[],
  outDir: string,
  opts: SheetOptions,
): Promise<SheetPage[]> {
  const pages = await renderSheets(entries, codes, outDir, opts);
  const written = await writeSheets(pages, outDir, opts.beforeWrite);
  if (opts.name) return written;
  const keep = new Set(pages.map((p) => p.file));
  for (const name of await readdir(outDir)) {
    if (!SHEET_PAGE.test(name) || keep.has(name)) continue;
    await opts.beforeWrite?.(name, null);
    await rm(path.join(outDir, name), { force: true });
  }
  return written;
}

/**
 * The pages the lock at `lockFile` records, when nothing about them can have changed: that lock is
 * byte for byte `lock` with those pages (same records, selection, recipe, tool and library
 * versions — everything a page is drawn from) and every page still has its sha256. Otherwise
 * null, and the sheet is drawn again. Saves the rendering on a rerun that changes nothing.
 */
export async function currentSheets(
  lock: VariantsLock,
  lockFile: string,
  outDir: string,
): Promise<SheetPage[] | null> {
  let text: string;
  let sheets: unknown;
  try {
    text = await readFile(lockFile, 'utf8');
    sheets = (JSON.parse(text) as { contact_sheets?: unknown }).contact_sheets;
  } catch {
    return null;
  }
  if (
    !Array.isArray(sheets) ||
    sheets.length === 0 ||
    artifactJson({ ...lock, contact_sheets: sheets }) !== text
  )
    return null;
  for (const page of sheets as SheetPage[]) {
    if ((await sha256File(path.join(outDir, page.file)).catch(() => null)) !== page.sha256)
      return null;
  }
  return sheets as SheetPage[];
}
