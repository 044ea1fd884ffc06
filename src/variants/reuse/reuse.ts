/**
 * Deciding reuse before any work: for every entry and variant, its inputs hash and whether an
 * earlier record stands for it (same `inputs_sha256`, and its file still has the recorded sha256).
 * This runs before the segmenter is loaded — A6's hash uses the segmenter's description, which is
 * known without the model — so a run with nothing to compute never loads IS-Net; and before any
 * file is rewritten, so the lock guard (stale.ts) knows which files the run will touch.
 */
import path from 'node:path';
import pMap from 'p-map';
import { sha256File } from '../../core/fsio.js';
import { inputsHash, type EntryJob, type HashContext } from '../entry.js';
import type { VariantRecord } from '../lock.js';
import { variantByCode, variantFileName } from '../ops/registry.js';
import type { SegmenterIdentity } from '../segment/segmenter.js';

/** An entry to process, before reuse is decided. */
export type EntryTask = Omit<EntryJob, 'hashes' | 'reuse'>;

/** The decisions of one planning pass. */
export interface ReusePlan {
  /** One job per task, with its hashes and the records it reuses. */
  jobs: EntryJob[];
  /** Output files (relative to the output folder) the run computes, hence may rewrite. */
  toCompute: Set<string>;
  /** True when some A6 output must be computed (the segmenter must be loaded). */
  needsA6: boolean;
}

/** Plans reuse against the records of earlier locks; file digests are computed once per run. */
export class ReusePlanner {
  private readonly digests = new Map<string, Promise<string | null>>();

  /**
   * @param outDir the output folder (record files are relative to it)
   * @param prior earlier records by `entry/code`, best candidates first (live locks before stale ones)
   * @param concurrency entries checked at once
   */
  constructor(
    private readonly outDir: string,
    private readonly prior: Map<string, VariantRecord[]>,
    private readonly concurrency: number,
  ) {}

  private digest(file: string): Promise<string | null> {
    let d = this.digests.get(file);
    if (!d) {
      d = sha256File(path.join(this.outDir, file)).catch(() => null);
      this.digests.set(file, d);
    }
    return d;
  }

  private async candidate(key: string, hash: string): Promise<VariantRecord | null> {
    for (const r of this.prior.get(key) ?? []) {
      if (r.status !== 'ok' || r.inputs_sha256 !== hash || !r.file || !r.sha256) continue;
      if ((await this.digest(r.file)) === r.sha256) return r;
    }
    return null;
  }

  /** Decide, for every task and code, its inputs hash and whether an earlier record stands for it. */
  async plan(
    tasks: EntryTask[],
    base: Omit<HashContext, 'segmenter' | 'segmenterError'>,
    segmenter: SegmenterIdentity,
  ): Promise<ReusePlan> {
    const ctx: HashContext = {
      ...base,
      segmenter: segmenter.description ? { description: segmenter.description } : undefined,
      segmenterError: segmenter.error,
    };
    const toCompute = new Set<string>();
    let needsA6 = false;
    const jobs = await pMap(
      tasks,
      async (task): Promise<EntryJob> => {
        const defs = task.codes.map(variantByCode);
        const hashes = defs.map((v) => inputsHash(v, task, ctx));
        const reuse: Array<VariantRecord | null> = [];
        for (const [i, v] of defs.entries()) {
          const kept = await this.candidate(`${task.id}/${v.code}`, hashes[i]!);
          reuse.push(kept);
          if (kept) continue;
          toCompute.add(`${task.id}/${variantFileName(v)}`);
          if (v.code === 'A6') needsA6 = true;
        }
        return { ...task, hashes, reuse };
      },
      { concurrency: this.concurrency },
    );
    return { jobs, toCompute, needsA6 };
  }
}
