/**
 * File input and output: atomic writes, hashing, and reading files with clear errors.
 *
 * Atomic write: the bytes go to a temporary file in the same folder, are fsynced, and the file is
 * renamed over the target, so a reader sees either the old file or the whole new one, never half.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { StimkitError } from './errors.js';
import { ioProblem } from './io-errors.js';

/**
 * Write `data` to `file` atomically (temp file + fsync + rename), creating folders as needed. A
 * full disk is E_DISK_FULL naming `file` (the file it would replace is untouched).
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  try {
    await replaceFile(file, data);
  } catch (err) {
    throw ioProblem(err, { file, writing: 'this file' }) ?? err;
  }
}

async function replaceFile(file: string, data: string | Uint8Array): Promise<void> {
  const dir = path.dirname(file);
  await ensureFolder(dir);
  const tmp = path.join(
    dir,
    `.${path.basename(file)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
  const handle = await open(tmp, 'w');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  await syncDir(dir);
}

/** A new file written in pieces as they come (nothing held whole), hashed as it is written. */
export interface FileSink {
  write: (text: string) => Promise<void>;
  /** Flush, fsync and close; the sha256 and size of everything written. */
  close: () => Promise<{ sha256: string; bytes: number }>;
}

/**
 * Open a new file (it must not exist) for writing in pieces. For files inside a folder swapped in
 * whole (core/out-folder.ts): a failure leaves a partial file there, which the swap never publishes.
 */
export async function openSink(file: string): Promise<FileSink> {
  const hash = createHash('sha256');
  const handle = await open(file, 'wx');
  let bytes = 0;
  let pending: Buffer[] = [];
  let size = 0;
  const flush = async () => {
    if (size === 0) return;
    const buf = Buffer.concat(pending, size);
    pending = [];
    size = 0;
    // All of it, from the current position; a full disk is E_DISK_FULL naming the file.
    await handle.writeFile(buf).catch((err: unknown) => {
      throw ioProblem(err, { file, writing: 'this file' }) ?? err;
    });
  };
  return {
    write: async (text) => {
      const buf = Buffer.from(text, 'utf8');
      hash.update(buf);
      bytes += buf.length;
      pending.push(buf);
      size += buf.length;
      if (size >= 1 << 20) await flush();
    },
    close: async () => {
      try {
        await flush();
        await handle.sync().catch((err: unknown) => {
          throw ioProblem(err, { file, writing: 'this file' }) ?? err;
        });
      } finally {
        await handle.close();
      }
      return { sha256: hash.digest('hex'), bytes };
    },
  };
}

/** Create `dir` (and its parents) or explain why it cannot be: a file is in the way, no permission. */
export async function ensureFolder(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const inTheWay = e.code === 'EEXIST' || e.code === 'ENOTDIR';
    throw StimkitError.fromProblem(
      {
        code: inTheWay ? 'E_OUT_NOT_A_FOLDER' : 'E_OUT_UNWRITABLE',
        file: dir,
        message: inTheWay
          ? 'cannot create this output folder: a file of that name is in the way'
          : `cannot create this output folder (${e.code ?? e.message})`,
        fix: inTheWay
          ? 'choose another --out, or move the file away'
          : 'choose a folder you can write to with --out',
      },
      err,
    );
  }
}

/** fsync a directory so that a rename in it survives a crash (best effort; not all systems allow it). */
export async function syncDir(dir: string): Promise<void> {
  try {
    const h = await open(dir, 'r');
    try {
      await h.sync();
    } finally {
      await h.close();
    }
  } catch {
    // Some file systems refuse fsync on directories; the rename is still atomic.
  }
}

/** Write bytes only if the file does not already hold exactly them. Returns true if written. */
export async function writeIfChanged(file: string, data: string | Uint8Array): Promise<boolean> {
  // A view of the caller's bytes, not a copy: Buffer.from(Uint8Array) copies byte by byte into
  // fresh memory, and a variant run writes tens of megabytes of PNGs through here.
  const bytes =
    typeof data === 'string'
      ? Buffer.from(data, 'utf8')
      : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  try {
    const old = await readFile(file);
    if (old.equals(bytes)) return false;
  } catch {
    // missing: write it
  }
  await writeFileAtomic(file, bytes);
  return true;
}

/** Hex sha256 of a buffer or string. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Files up to this size are hashed from one read (one buffer of their size); larger ones streamed. */
const WHOLE_FILE_LIMIT = 8 << 20;

/**
 * Hex digest of one file with a node crypto algorithm (`sha256`, `sha512`, …). A file of known
 * `size` up to WHOLE_FILE_LIMIT is read whole: a stream reads it in fresh 1 MiB buffers, which
 * cost more than the hashing for the small files (PNGs, manifests) most calls are for.
 */
export async function hashFile(file: string, algorithm: string, size?: number): Promise<string> {
  if (size !== undefined && size <= WHOLE_FILE_LIMIT) {
    return createHash(algorithm)
      .update(await readFile(file))
      .digest('hex');
  }
  const hash = createHash(algorithm);
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }))
    hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Hex sha256 of a file's bytes (read whole when small, else streamed). */
export async function sha256File(file: string): Promise<string> {
  return hashFile(file, 'sha256', (await stat(file)).size);
}

/** Magic numbers of files people pass by mistake where a text file is expected. */
const BINARY_KINDS: Array<[string, number[]]> = [
  ['a PNG image', [0x89, 0x50, 0x4e, 0x47]],
  ['a JPEG image', [0xff, 0xd8, 0xff]],
  ['a GIF image', [0x47, 0x49, 0x46, 0x38]],
  ['a ZIP archive', [0x50, 0x4b, 0x03, 0x04]],
  ['a PDF document', [0x25, 0x50, 0x44, 0x46]],
];

function readProblem(file: string, code: string, err: unknown): StimkitError {
  const e = err as NodeJS.ErrnoException;
  const [message, fix] =
    e.code === 'ENOENT'
      ? ['file not found', 'check the path']
      : e.code === 'EISDIR'
        ? ['this is a folder, not a file', 'give the path of the file itself']
        : [`cannot read file (${e.code ?? e.message})`, 'check the permissions'];
  return StimkitError.fromProblem({ code, file, message, fix }, err);
}

function notText(file: string, code: string, kind: string | undefined): StimkitError {
  return StimkitError.fromProblem({
    code,
    file,
    message: `not a text file (it looks like ${kind ?? 'binary data, or text that is not UTF-8'})`,
    fix: 'pass the YAML or JSON file this command expects (see its --help)',
  });
}

const binaryKind = (bytes: Uint8Array): string | undefined =>
  BINARY_KINDS.find(([, magic]) => magic.every((m, i) => bytes[i] === m))?.[0];

/**
 * Read a UTF-8 text file or throw a StimkitError naming it: missing, unreadable, a folder, or not
 * text at all (an image passed where a manifest belongs) — said in one line, not as a flood of
 * syntax errors.
 */
export async function readTextFile(file: string, code = 'E_READ'): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    throw readProblem(file, code, err);
  }
  const kind = binaryKind(bytes);
  let text: string | null = null;
  if (!kind) {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      text = null;
    }
  }
  if (text === null || text.slice(0, 8192).includes('\u0000')) throw notText(file, code, kind);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * The lines of a UTF-8 text file, streamed (the file is never held whole), with the errors of
 * `readTextFile`; lines lose their `\n` (and a `\r` before it) and the BOM is dropped.
 */
export async function* readTextLines(file: string, code = 'E_READ'): AsyncGenerator<string> {
  let handle;
  try {
    handle = await open(file, 'r');
    if ((await handle.stat()).isDirectory())
      throw Object.assign(new Error('EISDIR'), { code: 'EISDIR' });
  } catch (err) {
    await handle?.close();
    throw readProblem(file, code, err);
  }
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  let rest = '';
  let first = true;
  try {
    for await (const chunk of handle.createReadStream({ highWaterMark: 1 << 20 })) {
      const bytes = chunk as Buffer;
      if (first && binaryKind(bytes)) throw notText(file, code, binaryKind(bytes));
      let text: string;
      try {
        text = decoder.decode(bytes, { stream: true });
      } catch {
        throw notText(file, code, undefined);
      }
      if (first && text.slice(0, 8192).includes('\u0000')) throw notText(file, code, undefined);
      first = false;
      const lines = (rest + text).split('\n');
      rest = lines.pop()!;
      for (const line of lines) yield line.endsWith('\r') ? line.slice(0, -1) : line;
    }
    try {
      rest += decoder.decode();
    } catch {
      throw notText(file, code, undefined);
    }
    if (rest !== '') yield rest.endsWith('\r') ? rest.slice(0, -1) : rest;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** True if the path exists. */
export async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

/** A path relative to `from`, with forward slashes, for recording in artifacts. */
export function relPosix(from: string, to: string): string {
  const r = path.relative(from, to) || '.';
  return r.split(path.sep).join('/');
}
