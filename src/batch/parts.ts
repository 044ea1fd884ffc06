/**
 * Batch files in parts a vendor accepts. A batch input file has limits, published by each vendor:
 *
 * | vendor | requests | bytes | source |
 * | --- | --- | --- | --- |
 * | OpenAI Batch | 50,000 per input file | 200 MB per input file | https://platform.openai.com/docs/api-reference/batch/create (`input_file_id`: "up to 50,000 requests, and can be up to 200 MB in size") |
 * | Anthropic Message Batches | 100,000 per batch | 256 MB per batch | https://docs.anthropic.com/en/docs/build-with-claude/batch-processing ("limited to either 100,000 Message requests or 256 MB in size, whichever is reached first") |
 * | Gemini Batch API | none published | 2 GB per input file | https://ai.google.dev/gemini-api/docs/rate-limits (Batch API: "Input file size limit: 2GB") |
 * | vLLM `run-batch` | none known | none known | takes OpenAI Batch files: OpenAI's limits apply |
 *
 * A megabyte is taken as 10^6 bytes (the smaller reading). `batch export` writes the lines into
 * numbered parts within these limits (or lower ones: `--part-requests N`, `--part-mib N`), the
 * bytes counted exactly as written (UTF-8, each line with its `\n`), and never cuts a line.
 */
import { randomBytes } from 'node:crypto';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { StimkitError } from '../core/errors.js';
import { ensureFolder, openSink, sha256File, syncDir, type FileSink } from '../core/fsio.js';
import { partName } from '../core/part-name.js';

type Vendor = 'openai' | 'anthropic' | 'gemini';

/**
 * The published limits of one batch input file (or batch), per vendor; `wrapper`: bytes the
 * vendor's request adds around the lines, kept free (an Anthropic batch is one JSON request,
 * `{"requests": [<line>,<line>…]}`: 14 bytes more than its lines with their newlines; 64 kept).
 */
export const VENDOR_LIMITS: Record<
  Vendor,
  { requests: number; bytes: number; wrapper: number; name: string }
> = {
  openai: {
    requests: 50_000,
    bytes: 200_000_000,
    wrapper: 0,
    name: 'OpenAI Batch (and vLLM run-batch)',
  },
  anthropic: {
    requests: 100_000,
    bytes: 256_000_000,
    wrapper: 64,
    name: 'Anthropic Message Batches',
  },
  // No request count is published for Gemini (`part_limits.requests` is null in --json).
  gemini: { requests: Infinity, bytes: 2_000_000_000, wrapper: 0, name: 'the Gemini Batch API' },
};

/** The limits of one part. */
export interface PartLimits {
  requests: number;
  bytes: number;
}

/** The user's lower limits (`--part-requests N`, `--part-mib N`). */
export interface PartOptions {
  partRequests?: number;
  partMib?: number;
}

const MIB = 1 << 20;

/** The limits of `vendor`'s parts, lowered by `o`; a value above the vendor's limit is a usage error. */
export function partLimits(vendor: Vendor, o: PartOptions = {}): PartLimits {
  const v = VENDOR_LIMITS[vendor];
  if (o.partRequests !== undefined && o.partRequests > v.requests)
    throw StimkitError.usage(
      'E_BATCH_PART_LIMIT',
      `--part-requests ${o.partRequests} is above the ${v.requests} requests ${v.name} accepts in one file`,
      `give --part-requests ${v.requests} or less (or leave it out: parts are cut at the vendor's limit)`,
    );
  const room = v.bytes - v.wrapper;
  const maxMib = Math.floor(room / MIB);
  if (o.partMib !== undefined && o.partMib > maxMib)
    throw StimkitError.usage(
      'E_BATCH_PART_LIMIT',
      `--part-mib ${o.partMib} is above the ${v.bytes} bytes ${v.name} accepts in one file (${maxMib} MiB)`,
      `give --part-mib ${maxMib} or less (or leave it out: parts are cut at the vendor's limit)`,
    );
  return {
    requests: o.partRequests ?? v.requests,
    bytes: o.partMib !== undefined ? o.partMib * MIB : room,
  };
}

/** One part written: its file, requests and bytes (as written), and its sha256. */
export interface PartFile {
  file: string;
  requests: number;
  bytes: number;
  sha256: string;
}

const PART_RE = /\.part-(\d{4,})-of-(\d{4,})(?:\.[^/\\]*)?$/;

/** The part a file's name declares (`….part-0002-of-0003….`), or null. */
export function partOf(file: string): { index: number; count: number } | null {
  const m = PART_RE.exec(path.basename(file));
  return m ? { index: Number(m[1]), count: Number(m[2]) } : null;
}

/**
 * Writes lines into parts within `limits`, each part to a temporary file as it comes (nothing
 * held whole); `finish` names them: one part is `out` itself, several are
 * `<out stem>.part-NNNN-of-MMMM<ext>` (sorting in order), and earlier parts of `out` are removed.
 */
class PartWriter {
  private readonly done: Array<{ tmp: string; requests: number; bytes: number; sha256: string }> =
    [];
  private sink: FileSink | null = null;
  private tmp = '';
  private requests = 0;
  private bytes = 0;
  private readonly tag = `${process.pid}-${randomBytes(4).toString('hex')}`;

  constructor(
    private readonly out: string,
    private readonly limits: PartLimits,
  ) {}

  /** Add one line (with its `\n`); a line alone above the byte limit is refused. */
  async add(line: string, id: string): Promise<void> {
    const size = Buffer.byteLength(line, 'utf8');
    if (size > this.limits.bytes)
      throw StimkitError.fromProblem({
        code: 'E_BATCH_PART_LINE',
        file: this.out,
        entry: id,
        message: `this request alone is ${size} bytes, above the ${this.limits.bytes} bytes a part may hold`,
        fix: 'raise --part-mib (up to the vendor’s limit), or send smaller images (the model’s image block: max_side, format, quality)',
      });
    if (
      this.sink &&
      (this.requests + 1 > this.limits.requests || this.bytes + size > this.limits.bytes)
    )
      await this.closePart();
    if (!this.sink) {
      await ensureFolder(path.dirname(this.out));
      this.tmp = path.join(
        path.dirname(this.out),
        `.${path.basename(this.out)}.part-${this.done.length + 1}.tmp-${this.tag}`,
      );
      this.sink = await openSink(this.tmp);
    }
    await this.sink.write(line);
    this.requests++;
    this.bytes += size;
  }

  private async closePart(): Promise<void> {
    const { sha256, bytes } = await this.sink!.close();
    this.done.push({ tmp: this.tmp, requests: this.requests, bytes, sha256 });
    this.sink = null;
    this.requests = 0;
    this.bytes = 0;
  }

  /**
   * Close the last part, call `commit` with the number of parts (before any is named: a throw
   * leaves no file), and give every part its name.
   */
  async finish(commit?: (parts: number) => void): Promise<PartFile[]> {
    if (this.sink) await this.closePart();
    const n = this.done.length;
    if (n === 0) return [];
    commit?.(n);
    try {
      await removeOldParts(this.out);
      const parts: PartFile[] = [];
      for (const [i, p] of this.done.entries()) {
        const file = n === 1 ? this.out : partName(this.out, i + 1, n);
        await rename(p.tmp, file);
        parts.push({ file, requests: p.requests, bytes: p.bytes, sha256: p.sha256 });
      }
      await syncDir(path.dirname(this.out));
      return parts;
    } catch (err) {
      if (!commit) throw err;
      // Recorded in the ledger, not written: its requests are held until written again.
      throw StimkitError.fromProblem(
        {
          code: 'E_BATCH_WRITE',
          file: this.out,
          message: `the export is recorded in the ledger but its file(s) could not be written (${(err as Error).message}): its requests are held, as if in a batch file`,
          fix: 'mend the cause (free space, permissions), then export again with --reexport',
        },
        err,
      );
    }
  }

  /** Remove the temporary files (after a failure). */
  async abort(): Promise<void> {
    if (this.sink) await this.sink.close().catch(() => undefined);
    await Promise.all(
      [...this.done.map((p) => p.tmp), this.tmp].filter(Boolean).map((f) => rm(f, { force: true })),
    );
  }
}

/** Remove the parts an earlier export wrote for `out` (and `out` itself), so none is left to upload twice. */
async function removeOldParts(out: string): Promise<void> {
  const dir = path.dirname(out);
  const names = await readdir(dir).catch(() => [] as string[]);
  const ext = path.extname(out);
  const stem = path.basename(out, ext);
  const old = names.filter((f) => {
    const p = partOf(f);
    return p !== null && f === path.basename(partName(`${stem}${ext}`, p.index, p.count));
  });
  await Promise.all([...old.map((f) => rm(path.join(dir, f), { force: true }))]);
  await rm(out, { force: true });
}

/** E_BATCH_OUT when `out` is a folder: the file to write cannot take its name. */
async function refuseFolder(out: string): Promise<void> {
  const st = await stat(out).catch(() => null);
  if (!st?.isDirectory()) return;
  throw StimkitError.fromProblem({
    code: 'E_BATCH_OUT',
    file: out,
    message: 'this is a folder: a batch file is written under this name',
    expected: 'a file name, e.g. requests.jsonl',
    got: 'a folder',
    fix: 'give --out a file name (its parts are numbered after it)',
  });
}

/**
 * Write `lines` (a source of `[id, line]`, async or not) into parts of `out`; nothing left behind
 * on failure. `commit` runs once every line is written and before the parts take their names (a
 * ledger records the export there: the files appear only once it is recorded).
 */
export async function writeParts(
  out: string,
  limits: PartLimits,
  lines: AsyncIterable<readonly [string, string]> | Iterable<readonly [string, string]>,
  commit?: (parts: number) => void,
): Promise<PartFile[]> {
  await refuseFolder(out);
  const w = new PartWriter(out, limits);
  try {
    for await (const [id, line] of lines) await w.add(line, id);
    return await w.finish(commit);
  } catch (err) {
    await w.abort();
    throw err;
  }
}

/**
 * Refuse (E_BATCH_PARTS) a set of output files that does not hold each part once: a file given
 * twice (the same path, or the same bytes under another name), two files of the same part, or —
 * when the names say which parts there are (`….part-0002-of-0003….`) — a missing part (unless
 * `partial`) or parts of two exports. Files whose names declare no part are taken as they are.
 */
export async function checkPartSet(
  files: readonly string[],
  /** `partial`: some parts only (the others' batches failed or are still running): a missing part is allowed. */
  o: { partial?: boolean } = {},
): Promise<void> {
  const fail = (file: string, message: string, fix: string) =>
    StimkitError.fromProblem({ code: 'E_BATCH_PARTS', file, message, fix });
  const seen = new Map<string, string>();
  for (const f of files) {
    const key = path.resolve(f);
    if (seen.has(key))
      throw fail(f, 'this file is given twice; nothing recorded', 'give each part once');
    seen.set(key, f);
  }
  const byPart = new Map<number, string>();
  let count: number | null = null;
  for (const f of files) {
    const p = partOf(f);
    if (!p) continue;
    if (count !== null && p.count !== count)
      throw fail(
        f,
        `this file is part ${p.index} of ${p.count}, the others are parts of ${count}: two exports are mixed; nothing recorded`,
        'import the outputs of one export’s parts together',
      );
    count = p.count;
    const other = byPart.get(p.index);
    if (other !== undefined)
      throw fail(
        f,
        `part ${p.index} of ${p.count} is given twice (also ${other}); nothing recorded`,
        'give each part once',
      );
    byPart.set(p.index, f);
  }
  if (count !== null && !o.partial) {
    const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byPart.has(i));
    if (missing.length > 0)
      throw fail(
        files[0]!,
        `part(s) ${missing.join(', ')} of ${count} are missing; nothing recorded`,
        `give the output of every part, 1 to ${count}, each once (in any order) once each part's batch has ended; or, to import some parts only (another part's batch failed or still runs), add --partial: that part's trials stay held until its output is imported, or are exported again with batch export --reexport`,
      );
  }
  await refuseSameBytes(files, fail);
}

async function refuseSameBytes(
  files: readonly string[],
  fail: (file: string, message: string, fix: string) => StimkitError,
): Promise<void> {
  if (files.length < 2) return;
  const bySha = new Map<string, string>();
  for (const f of files) {
    const sha = await sha256File(f).catch(() => null); // an unreadable file is reported when read
    if (sha === null) continue;
    const other = bySha.get(sha);
    if (other !== undefined)
      throw fail(
        f,
        `this file holds the same bytes as ${other}: one part given twice; nothing recorded`,
        'give each part once',
      );
    bySha.set(sha, f);
  }
}
