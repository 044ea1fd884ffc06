/** LongFirst: the longest files start first, also without the durations of an earlier run. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { ROOT } from './cli.js';
import { LONG_FILES, LongFirst } from './sequencer.js';

/** A sequencer over a cache that holds only file sizes (a fresh clone), `size` bytes per file. */
function freshClone(size: (file: string) => number) {
  const root = ROOT.replace(/\/$/, '');
  const ctx = {
    config: { root },
    cache: {
      getFileTestResults: () => undefined,
      getFileStats: (key: string) => ({ size: size(key.slice(key.indexOf(':') + 1)) }),
    },
  } as unknown as Vitest;
  const project = { name: 'suite', config: { root, isolate: true, sequence: { groupOrder: 0 } } };
  const spec = (file: string) =>
    ({ project, moduleId: path.join(root, file) }) as unknown as TestSpecification;
  const order = async (files: string[]) =>
    (await new LongFirst(ctx).sort(files.map(spec))).map((s) =>
      path.relative(root, s.moduleId).split(path.sep).join('/'),
    );
  return { order };
}

describe('LongFirst', () => {
  it('starts the listed long files first, longest first, then the others by size', async () => {
    const sizes: Record<string, number> = {
      'test/a.test.ts': 10,
      'test/b.test.ts': 30,
      [LONG_FILES[1]!]: 1,
      [LONG_FILES[0]!]: 2,
    };
    const { order } = freshClone((f) => sizes[f] ?? 0);
    expect(await order(Object.keys(sizes))).toEqual([
      LONG_FILES[0],
      LONG_FILES[1],
      'test/b.test.ts',
      'test/a.test.ts',
    ]);
  });

  it('names only files that exist', () => {
    expect(LONG_FILES.filter((f) => !existsSync(path.join(ROOT, f)))).toEqual([]);
  });
});
