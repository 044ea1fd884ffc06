/**
 * Keeping every variants lock in the output folder true: outputs are rewritten in place at fixed
 * paths and a run writes its lock only at the end, so before the first file a lock vouches for is
 * rewritten, that lock is renamed to `<name>.stale` (an atomic rename, then the folder is synced).
 * A run killed half-way thus leaves no lock whose sha256s mismatch its files, only `.stale` ones,
 * which `stimkit variants` reads as reuse candidates (each re-verified) and readers must ignore.
 */
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { syncDir } from '../../core/fsio.js';
import { STALE_SUFFIX, type FoundLock, type VariantsLock } from '../lock.js';

/** The files a lock vouches for (relative to its folder) and their recorded sha256. */
function vouchedFiles(lock: VariantsLock): Map<string, string> {
  const files = new Map<string, string>();
  for (const e of lock.entries)
    for (const v of e.variants)
      if (v.status === 'ok' && v.file && v.sha256) files.set(v.file, v.sha256);
  for (const c of lock.contact_sheets) files.set(c.file, c.sha256);
  return files;
}

/**
 * The live (not stale) locks of one output folder, and the one place that moves them aside.
 * Calls are serialised, so concurrent writers of one run cannot race each other.
 */
export class LockGuard {
  private readonly live = new Map<string, Map<string, string> | null>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Names of the locks this run moved aside, in order. */
  readonly retired: string[] = [];

  /**
   * @param outDir the output folder
   * @param found the locks read at the start of the run (stale ones are ignored)
   * @param unreadable names of live locks that could not be read: they cannot be checked, so they
   *   are moved aside before anything is rewritten
   */
  constructor(
    private readonly outDir: string,
    found: FoundLock[],
    unreadable: string[] = [],
  ) {
    for (const f of found) if (!f.stale) this.live.set(f.name, vouchedFiles(f.lock));
    for (const name of unreadable) this.live.set(name, null);
  }

  /**
   * Before `files` (relative path → the sha256 about to be written, or null when not known yet)
   * are written: move aside every live lock that vouches for one of them with another sha256,
   * and every unreadable one.
   */
  beforeWrite(files: Map<string, string | null>): Promise<void> {
    const next = this.queue.then(async () => {
      if (files.size === 0) return;
      const doomed = [...this.live].filter(
        ([, vouched]) =>
          vouched === null ||
          [...files].some(([f, sha]) => vouched.has(f) && (sha === null || vouched.get(f) !== sha)),
      );
      for (const [name] of doomed) {
        await rename(
          path.join(this.outDir, name),
          path.join(this.outDir, name + STALE_SUFFIX),
        ).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'ENOENT') throw err;
        });
        this.live.delete(name);
        this.retired.push(name);
      }
      if (doomed.length > 0) await syncDir(this.outDir);
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** After `name` was written: its stale predecessor is superseded, delete it. */
  async written(name: string): Promise<void> {
    await rm(path.join(this.outDir, name + STALE_SUFFIX), { force: true });
  }
}
