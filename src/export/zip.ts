/**
 * A ZIP file written entry by entry (fflate's streaming `Zip`, deflate), so that an Inspect log
 * of thousands of samples never sits in memory whole. Same entries in the same order → same
 * bytes: every entry carries one fixed modification time (1980-01-01 00:00, the earliest a ZIP
 * can hold, given in local time because ZIP stores local time) and the same deflate level.
 *
 * Long strings that recur across entries (an image's data URL in every sample that shows it) are
 * deflated once: an entry holding one is written as a chain of separate DEFLATE streams — the text
 * before it, the string, the text after — each ended by a sync flush (an empty stored block, byte
 * aligned, not final) except the last, so the chain is one valid DEFLATE stream (RFC 1951 §3.2.3:
 * a stream is a series of blocks; fflate's `flush(true)` documents this concatenation). No piece
 * refers back into another, so a string's piece is the same bytes wherever it stands.
 */
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { Deflate, inflateSync, Zip, ZipDeflate, type ZipInputFile } from 'fflate';
import { LRUCache } from 'lru-cache';
import { StimkitError } from '../core/errors.js';

/** The modification time of every entry: 1980-01-01 00:00 in the ZIP's own (local) time fields. */
const ZIP_EPOCH = new Date(1980, 0, 1, 0, 0, 0);
const LEVEL = 6;

/** A string deflated once: its UTF-8 bytes and their DEFLATE piece (sync-flushed, not final). */
interface Piece {
  raw: Uint8Array;
  deflated: Uint8Array<ArrayBuffer>;
}

/** What the pieces of one export may hold at most (bytes, raw and deflated together). */
const PIECE_CACHE_BYTES = 256 << 20;

/**
 * The pieces of recurring strings, shared by every ZIP of one export (a string → its piece). The
 * least recently used go when the cache holds more than `maxBytes`, so memory does not grow with
 * the number of images in a study; a piece made again is the same bytes (deflate is a function of
 * its input), so what is evicted changes the time of an export, never its files.
 */
export class PieceCache {
  private readonly pieces: LRUCache<string, Piece>;

  constructor(maxBytes = PIECE_CACHE_BYTES) {
    this.pieces = new LRUCache<string, Piece>({
      maxSize: maxBytes,
      sizeCalculation: (p) => Math.max(1, p.raw.length + p.deflated.length),
    });
  }

  /** The piece of `text`, deflated on first use (or again after it was evicted). */
  get(text: string): Piece {
    let p = this.pieces.get(text);
    if (!p) {
      const raw = new TextEncoder().encode(text);
      p = { raw, deflated: deflatePiece(raw, false) };
      this.pieces.set(text, p);
    }
    return p;
  }
}

/** The bytes of an array of chunks, one after another. */
function joined(chunks: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** A final, empty fixed-Huffman block: what makes a sync-flushed piece a whole stream. */
const FINAL_EMPTY = Uint8Array.of(0x03, 0x00);

/**
 * `bytes` as one DEFLATE stream at LEVEL: final, or (`final` false) ended by a sync flush, so that
 * another stream may follow it. fflate 0.8.3's own `flush(true)` writes a wrong empty stored block
 * when the data ends inside a byte, so the sync flush is written here from the stream's bit
 * position (fflate keeps it as `s.r`: the bits used in the last byte, and that byte above them);
 * each such piece is inflated back and compared before it is used, so a change in fflate cannot
 * write a broken archive unnoticed.
 */
function deflatePiece(bytes: Uint8Array, final: boolean): Uint8Array<ArrayBuffer> {
  const chunks: Uint8Array[] = [];
  // a stream left open would take a hash table of 2^20 entries (2 MB) for every piece: 2^16 here
  // (a fixed size, not one computed with Math.log, whose last bit may differ between engines)
  const d = new Deflate({ level: LEVEL, ...(final ? {} : { mem: 4 }) }, (chunk) =>
    chunks.push(chunk),
  );
  if (final) {
    d.push(bytes, true);
    return joined(chunks);
  }
  d.push(bytes);
  d.flush();
  const r = (d as unknown as { s: { r?: number } }).s.r ?? 0;
  // an empty stored block, not final: 3 header bits of 0 after the used bits, then up to the
  // byte boundary, then LEN 0 and NLEN 0xffff
  const header = new Uint8Array(Math.ceil(((r & 7) + 3) / 8));
  header[0] = r >> 3;
  chunks.push(header, Uint8Array.of(0x00, 0x00, 0xff, 0xff));
  const piece = joined(chunks);
  const back = inflateSync(joined([piece, FINAL_EMPTY]));
  if (back.length !== bytes.length || !back.every((b, i) => b === bytes[i]))
    throw new Error(
      'zip: a sync-flushed DEFLATE piece does not inflate to its input (fflate changed?)',
    );
  return piece;
}

/**
 * A string of an entry that recurs across entries (an image's data URL), given apart from the
 * text around it: written as its piece without being searched for, so that the entry's text need
 * not hold it (building and then searching a string with a long data URL inside costs more than
 * deflating the text around it).
 */
export interface Recurring {
  recurring: string;
}

/**
 * An entry's parts as text runs (strings) and shared pieces: each `Recurring` part is its piece,
 * and each text run is cut at every occurrence of a `shared` or recurring string in it.
 */
function cutParts(
  content: ReadonlyArray<string | Recurring>,
  shared: readonly string[],
  cache: PieceCache,
) {
  const all = [...shared];
  for (const part of content) if (typeof part !== 'string') all.push(part.recurring);
  // text runs and pieces alternate, first and last a run (maybe empty), as `cut` gives them
  const parts: Array<string | Piece> = [];
  let run = '';
  for (const part of content) {
    const cuts = typeof part === 'string' ? cut(part, all, cache) : [cache.get(part.recurring)];
    for (const c of cuts) {
      if (typeof c === 'string') run += c;
      else {
        parts.push(run, c);
        run = '';
      }
    }
  }
  parts.push(run);
  return parts;
}

/** `content` cut at each occurrence of a `shared` string: text runs (strings) and shared pieces. */
function cut(content: string, shared: readonly string[], cache: PieceCache) {
  const hits: Array<[number, string]> = [];
  for (const s of new Set(shared)) {
    if (s.length === 0) continue;
    for (let i = content.indexOf(s); i >= 0; i = content.indexOf(s, i + s.length))
      hits.push([i, s]);
  }
  hits.sort((a, b) => a[0] - b[0]);
  const parts: Array<string | Piece> = [];
  let at = 0;
  for (const [i, s] of hits) {
    if (i < at) continue; // overlaps an earlier hit: stays in the text
    parts.push(content.slice(at, i), cache.get(s));
    at = i + s.length;
  }
  parts.push(content.slice(at));
  return parts;
}

/**
 * A deflated entry made of pieces: the text runs deflated here, the shared strings' pieces from
 * the cache, the last run final. Its CRC-32 and size are of the whole uncompressed content.
 */
function piecedEntry(name: string, parts: Array<string | Piece>) {
  const chunks: Array<Uint8Array<ArrayBuffer>> = [];
  let crc = 0;
  let size = 0;
  for (const [i, part] of parts.entries()) {
    const raw = typeof part === 'string' ? new TextEncoder().encode(part) : part.raw;
    // CRC-32 is one fixed function (ISO 3309): the same value on every machine. An empty run is
    // skipped: Node.js 20's crc32 returns 0, not `crc`, for an empty TextEncoder result (zlib's
    // crc32 given no buffer), which wrote a CRC of 0 for an entry ending in a shared string.
    if (raw.length > 0) crc = crc32(raw, crc);
    size += raw.length;
    const last = i === parts.length - 1;
    chunks.push(typeof part === 'string' ? deflatePiece(raw, last) : part.deflated);
  }
  const entry: ZipInputFile = {
    filename: name,
    size,
    crc,
    compression: 8,
    flag: 0,
    mtime: ZIP_EPOCH,
  };
  return { entry, chunks };
}

/** A ZIP being written to a new file. */
export interface ZipSink {
  /**
   * Add one entry (its whole content, or its parts in order); entries are stored in the order
   * added. Each `Recurring` part, and each `shared` or recurring string found in the text, is
   * deflated once per cache, not once per entry.
   */
  add: (
    name: string,
    content: string | ReadonlyArray<string | Recurring>,
    shared?: readonly string[],
  ) => Promise<void>;
  /** Finish the archive, fsync and close; the sha256 and size of the file. */
  close: () => Promise<{ sha256: string; bytes: number }>;
  /** Close the file unfinished (after a failure; the folder it is in is thrown away). */
  abort: () => Promise<void>;
}

/**
 * What a ZIP without ZIP64 records can hold (APPNOTE 6.3.10 §4.4.21–24: a count of 0xFFFF or an
 * offset or size of 0xFFFFFFFF means "see the ZIP64 record"), which fflate does not write: past
 * either, readers that trust the end record see a wrong count or wrong offsets.
 */
const ZIP_LIMITS = { entries: 0xfffe, bytes: 0xfffffffe };

/** The archive outgrew ZIP_LIMITS. */
function zipTooLarge(file: string, what: string, limit: number): StimkitError {
  return StimkitError.fromProblem({
    code: 'E_EXPORT_ZIP_LIMIT',
    file,
    message: `this log needs more ${what} than a ZIP without ZIP64 records holds, and stimkit does not write ZIP64`,
    expected: `at most ${limit} ${what}`,
    got: `more`,
    fix: 'export a smaller run: split the study into bundles (or runs) of fewer trials per model and paradigm',
  });
}

/**
 * Open `file` (it must not exist) as a new ZIP archive; `cache` holds the shared strings' pieces.
 * Refuses (E_EXPORT_ZIP_LIMIT) an entry past `limits`.
 */
export async function openZip(
  file: string,
  cache = new PieceCache(),
  limits = ZIP_LIMITS,
): Promise<ZipSink> {
  const handle: FileHandle = await open(file, 'wx');
  let entries = 0;
  const hash = createHash('sha256');
  let bytes = 0;
  let failure: Error | null = null;
  let chunks: Uint8Array[] = [];
  const zip = new Zip((err, data) => {
    if (err) failure = err;
    else chunks.push(data);
  });
  const drain = async () => {
    const pending = chunks;
    chunks = [];
    if (failure) throw failure;
    for (const c of pending) {
      hash.update(c);
      bytes += c.length;
      await handle.write(c);
    }
  };
  return {
    add: async (name, content, shared = []) => {
      if (++entries > limits.entries) throw zipTooLarge(file, 'entries', limits.entries);
      const parts = cutParts(typeof content === 'string' ? [content] : content, shared, cache);
      const [only] = parts;
      if (parts.length === 1 && typeof only === 'string') {
        const entry = new ZipDeflate(name, { level: LEVEL });
        entry.mtime = ZIP_EPOCH;
        zip.add(entry);
        entry.push(new TextEncoder().encode(only), true);
      } else {
        const { entry, chunks: pieces } = piecedEntry(name, parts);
        zip.add(entry);
        pieces.forEach((c, i) => entry.ondata!(null, c, i === pieces.length - 1));
      }
      await drain();
      // the next local header (and at last the central directory) must start within the limit
      if (bytes > limits.bytes) throw zipTooLarge(file, 'bytes', limits.bytes);
    },
    close: async () => {
      try {
        zip.end();
        await drain();
        await handle.sync();
      } finally {
        await handle.close();
      }
      return { sha256: hash.digest('hex'), bytes };
    },
    abort: () => handle.close().catch(() => undefined),
  };
}
