/**
 * A ZIP file written entry by entry (fflate's streaming `Zip`, deflate), so that an Inspect log
 * of thousands of samples never sits in memory whole. Same entries in the same order → same
 * bytes: every entry carries one fixed modification time (1980-01-01 00:00, the earliest a ZIP
 * can hold, given in local time because ZIP stores local time) and the same deflate level.
 */
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { Zip, ZipDeflate } from 'fflate';

/** The modification time of every entry: 1980-01-01 00:00 in the ZIP's own (local) time fields. */
const ZIP_EPOCH = new Date(1980, 0, 1, 0, 0, 0);
const LEVEL = 6;

/** A ZIP being written to a new file. */
export interface ZipSink {
  /** Add one entry (its whole content); entries are stored in the order added. */
  add: (name: string, content: string) => Promise<void>;
  /** Finish the archive, fsync and close; the sha256 and size of the file. */
  close: () => Promise<{ sha256: string; bytes: number }>;
  /** Close the file unfinished (after a failure; the folder it is in is thrown away). */
  abort: () => Promise<void>;
}

/** Open `file` (it must not exist) as a new ZIP archive. */
export async function openZip(file: string): Promise<ZipSink> {
  const handle: FileHandle = await open(file, 'wx');
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
    add: async (name, content) => {
      const entry = new ZipDeflate(name, { level: LEVEL });
      entry.mtime = ZIP_EPOCH;
      zip.add(entry);
      entry.push(new TextEncoder().encode(content), true);
      await drain();
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
