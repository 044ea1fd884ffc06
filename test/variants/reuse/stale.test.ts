/** The lock guard: which locks it moves aside before a write, and which it leaves alone. */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readPriorLocks } from '../../../src/variants/lock.js';
import { runVariants } from '../../../src/variants/run.js';
import { LockGuard } from '../../../src/variants/reuse/stale.js';
import { tempDir } from '../../helpers/tmp.js';
import { tinyCorpus } from '../helpers.js';

let out: string;
let lockText: string;

beforeAll(async () => {
  const corpus = await tinyCorpus([['horse', 'horse.png']], 48);
  out = path.join(await tempDir('stimkit-stale-'), 'out');
  const r = await runVariants(corpus.manifest, { out, only: ['A2'], jobs: 1 });
  lockText = await readFile(r.lockFile, 'utf8');
});

async function guard(): Promise<LockGuard> {
  await writeFile(path.join(out, 'variants.lock.json'), lockText);
  const priors = await readPriorLocks(out);
  return new LockGuard(
    out,
    priors.locks,
    priors.unreadable.map((u) => u.file),
  );
}

describe('LockGuard', () => {
  it('leaves a lock alone for files it does not vouch for, or for the very bytes it records', async () => {
    const g = await guard();
    const sheet = JSON.parse(lockText).contact_sheets[0] as { file: string; sha256: string };
    await g.beforeWrite(new Map([['cat/A2-grayscale.png', null]]));
    await g.beforeWrite(new Map([[sheet.file, sheet.sha256]]));
    await g.beforeWrite(new Map());
    expect(g.retired).toEqual([]);
    expect(await readdir(out)).toContain('variants.lock.json');
  });

  it('moves a lock aside before a file it vouches for gets other (or not yet known) bytes', async () => {
    const g = await guard();
    await g.beforeWrite(new Map([['contact-sheet.png', '0'.repeat(64)]]));
    expect(g.retired).toEqual(['variants.lock.json']);
    const names = await readdir(out);
    expect(names).not.toContain('variants.lock.json');
    expect(await readFile(path.join(out, 'variants.lock.json.stale'), 'utf8')).toBe(lockText);
    const again = await guard();
    await again.beforeWrite(new Map([['horse/A2-grayscale.png', null]]));
    expect(again.retired).toEqual(['variants.lock.json']);
    // a stale lock is still read, as a source of reuse candidates only
    expect((await readPriorLocks(out)).locks.map((l) => [l.name, l.stale])).toEqual([
      ['variants.lock.json.stale', true],
    ]);
    await again.written('variants.lock.json');
    expect(await readdir(out)).not.toContain('variants.lock.json.stale');
  });
});
