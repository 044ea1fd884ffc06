/** manifests/demo.study.yaml: its counts, and sealing it from the committed demo variants. */
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { bundleStudy } from '../../src/bundle/bundle.js';
import { verifyBundle } from '../../src/verify/verify.js';
import { ROOT } from '../helpers/cli.js';
import { DEMO_VARIANTS_LOCK, requireCommitted } from '../helpers/committed.js';
import { tempDir } from '../helpers/tmp.js';

// Limits that grow with the load (test/helpers/limits.ts): 306 s a test on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(17) });

const DEMO = path.join(ROOT, 'manifests', 'demo.study.yaml');

describe('the demo study', () => {
  it('plans every paradigm the demo corpus supports and the instrument in en and zh', async () => {
    const r = await bundleStudy(DEMO, { dryRun: true });
    const count = (block: string) => r.plan.filter((t) => t.block === block).length;
    // 4 core entries, 2 anchors, 4 abstraction entries × 7 variants; 2 languages × 3 seeds;
    // narrative (4 core entries) twice, with thinking on and off.
    expect([
      count('describe'),
      count('comment-image'),
      count('comment-text'),
      count('abstraction'),
      count('narrative'),
    ]).toEqual([24, 12, 12, 168, 48]);
    // only the narrative trials carry the thinking factor, each on and off in turn
    const paired = r.plan.filter((t) => t.thinking !== undefined);
    expect(paired.every((t) => t.block === 'narrative')).toBe(true);
    expect(paired.map((t) => t.thinking)).toEqual(
      Array.from({ length: 24 }, () => ['on', 'off']).flat(),
    );
    expect(count('instrument/main')).toBe(7 * 2 * 2 * 4);
    // pressure: each instrument cell's first iteration starts a conversation of 4 turns
    expect(count('pressure/main')).toBe(7 * 2 * 2 * 1 * 4);
    expect(r.images).toBe(4 + 4 * 7 - 2); // two entries are both core and abstraction: their A0 is shared
    // The one warning: the zh-Hans follow-ups are drafts awaiting a translator's review.
    expect(r.warnings.map((w) => [w.code, w.message])).toEqual([
      [
        'W_BUNDLE_DRAFT_TEXT',
        expect.stringMatching(/zh-Hans.*are_you_sure, authority, switch_language/),
      ],
    ]);
  });

  it(
    'seals from the committed demo variants without image work',
    { timeout: heavyLimit(17) },
    async () => {
      requireCommitted(DEMO_VARIANTS_LOCK);
      const root = await tempDir('stimkit-demo-study-');
      const r = await bundleStudy(DEMO, {
        out: path.join(root, 'bag'),
        work: path.join(root, 'work'),
      });
      expect(r.reused).toEqual({ corpus: true, variants: true });
      expect((await verifyBundle(r.out!)).problems).toEqual([]);
    },
  );
});
