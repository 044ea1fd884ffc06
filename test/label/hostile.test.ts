/**
 * Untrusted text stays text in the rater app: a sample, bundle and judges file whose every shown
 * field carries markup, `</script>`, a formula and an RTL override (hostile-fixture.ts) go through
 * the label screen (both languages), the review screen and the guide; each page shows every
 * payload escaped and isolated, and serves no inline script or style.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { serveLabels, type LabelServer } from '../../src/label/serve.js';
import { getPage } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';
import { inertProblems, writeHostileFixture, type HostileFixture } from './hostile-fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(7) });

const TOKEN = 'e'.repeat(48);
let fx: HostileFixture;
let dir: string;
const servers: LabelServer[] = [];

beforeAll(async () => {
  dir = await tempDir('stimkit-label-hostile-');
  fx = await writeHostileFixture(dir);
});
afterAll(async () => {
  for (const s of servers) await s.close();
});

async function serve(rater: string, extra: { lang?: 'en' | 'zh'; judges?: string } = {}) {
  const s = await serveLabels({
    sample: fx.sampleFile,
    rater,
    port: 0,
    token: TOKEN,
    labels: path.join(dir, `${rater}.sqlite`),
    ...extra,
  });
  servers.push(s);
  return (p: string) => getPage(s.running.port, p, TOKEN);
}

/** Every field of the label screen's first item (the hostile entry) in interface language en. */
const LABEL_FIELDS = [
  'response',
  'item-prompt',
  'paradigm',
  'item-lang',
  'item-variant',
  'title-en',
  'notes',
  'credit',
  'archive',
  'date',
  'fact-en',
];

describe('rater app with hostile inputs', () => {
  it('the label screen shows every field as inert text, in English and in Chinese', async () => {
    const en = await serve('hostile-en', { lang: 'en' });
    const page = await en('/item/1');
    expect(page.status).toBe(200);
    expect(inertProblems(page.body, LABEL_FIELDS)).toEqual([]);
    const zh = await serve('hostile-zh', { lang: 'zh' });
    const zhPage = await zh('/item/1');
    expect(inertProblems(zhPage.body, ['response', 'item-prompt', 'title-zh', 'fact-zh'])).toEqual(
      [],
    );
    expect(inertProblems((await zh('/guide')).body, [])).toEqual([]);
  });

  it('the review screen shows hostile judge names and rationales as inert text', async () => {
    const review = await serve('hostile-review', { lang: 'en', judges: fx.judges });
    const page = await review('/item/1');
    expect(page.status).toBe(200);
    expect(inertProblems(page.body, [...LABEL_FIELDS, 'judge-a', 'rationale'])).toEqual([]);
  });

  it('serves no inline script, style or event handler', async () => {
    const get = await serve('hostile-inline', { lang: 'en' });
    for (const p of ['/item/1', '/guide']) {
      const { body } = await get(p);
      for (const tag of body.match(/<script\b[^>]*>/g) ?? [])
        expect(tag).toMatch(/ src="\/static\/label\.js"| type="application\/json"/);
      // Attributes are name or name="value" (values escaped): none is style or on….
      expect(body).not.toMatch(/<style\b/);
      expect(body).not.toMatch(/<[a-z]+(\s+[a-z-]+(="[^"]*")?)*\s+(style|on[a-z]+)=/i);
    }
  });
});
