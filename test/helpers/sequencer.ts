/**
 * The order test files start in. vitest starts the files it has durations for longest first, but a
 * fresh clone (CI after `npm ci`) has none, and vitest then starts the largest files first, which
 * are not the longest: a minute-long file that starts last keeps one core busy while the other
 * waits. The files below, the longest on a quiet 2-core machine (longest first), start first
 * either way; the others keep vitest's order.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The longest files (paths from the repository root), longest first. */
export const LONG_FILES = [
  'test/demo/demo.test.ts',
  'test/audit/audit-outputs.test.ts',
  'test/variants/run.test.ts',
  'test/view/pages-browser.test.ts',
  'test/label/rater-pages-browser.test.ts',
  'test/release/rehydrate-isnet.test.ts',
  'test/label/browser.test.ts',
  'test/variants/segment/isnet.test.ts',
  'test/variants/segment/isnet-processes.test.ts',
  'test/bundle/paper.test.ts',
  'test/label/rater-browser.test.ts',
  'test/audit/hostile-replies.test.ts',
];

/** BaseSequencer's order with the files of LONG_FILES moved to the front, in that list's order. */
export class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONG_FILES.indexOf(
        path.relative(f.project.config.root, f.moduleId).split(path.sep).join('/'),
      );
      return i < 0 ? LONG_FILES.length : i;
    };
    // Array.prototype.sort is stable: files outside the list keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
