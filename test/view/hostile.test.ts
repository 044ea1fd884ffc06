/**
 * Untrusted text stays text in `stimkit view`: a bundle, scores and responses whose every shown
 * field carries markup, `</script>`, a formula and an RTL override (test/label/hostile-fixture.ts)
 * go through every page; each shows the payloads escaped and isolated, links only http(s) URLs
 * (a `javascript:` source_url is shown as text), and serves no inline script or style.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { serveView, type ViewServer } from '../../src/view/serve.js';
import { getPage } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';
import {
  escaped,
  inertProblems,
  short,
  writeHostileFixture,
  type HostileFixture,
} from '../label/hostile-fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(7) });

const TOKEN = 'f'.repeat(48);
let fx: HostileFixture;
let view: ViewServer;
const get = (p: string) => getPage(view.running.port, p, TOKEN);

beforeAll(async () => {
  fx = await writeHostileFixture(await tempDir('stimkit-view-hostile-'));
  view = await serveView({ bundle: fx.bundle, scores: fx.scores, port: 0, token: TOKEN });
});
afterAll(async () => {
  await view?.close();
});

const ENTRY = ['study', 'title-en', 'title-zh', 'topic', 'role'];

describe('stimkit view with hostile inputs', () => {
  it('every page shows every field as inert text', async () => {
    const pages: Array<[string, string[]]> = [
      ['/', [...ENTRY, 'entry-id']],
      [
        `/entry/${fx.entry}`,
        [
          ...ENTRY,
          'notes',
          'archive',
          'credit',
          'date',
          'license',
          'prov-notes',
          'fact-en',
          'fact-zh',
          'fact-key',
          'variant-name',
        ],
      ],
      ['/ladders', ['study', 'title-en', 'variant-name']],
      ['/trials', ['study', 'model', 'view-response', 'judge', 'strategy']],
      [`/trials?label=d4_state_aligned`, ['model', 'view-response']],
      [`/trials?model=${encodeURIComponent(short('model'))}`, ['model', 'view-response']],
      [
        `/trial/${fx.trial}`,
        [
          'study',
          'prompt',
          'model',
          'view-response',
          'judge',
          'strategy',
          'label-key',
          'label-value',
        ],
      ],
    ];
    for (const [p, fields] of pages) {
      const page = await get(p);
      expect(page.status, p).toBe(200);
      expect(inertProblems(page.body, fields), p).toEqual([]);
    }
  });

  it('links a source_url only when it is http(s): javascript: is shown as text', async () => {
    const { body } = await get(`/entry/${fx.entry}`);
    expect(body).toContain('javascript:alert(&quot;source_url&quot;)');
    expect(body).not.toMatch(/href="[^"]*javascript/i);
    const plain = await get('/entry/eileen-collins-portrait');
    expect(plain.body).toContain(
      '<a href="https://flic.kr/p/r9qvLn" rel="noopener noreferrer" target="_blank">',
    );
  });

  it('serves no inline script, style or event handler', async () => {
    for (const p of ['/', `/entry/${fx.entry}`, '/ladders', '/trials', `/trial/${fx.trial}`]) {
      const { body } = await get(p);
      for (const tag of body.match(/<script\b[^>]*>/g) ?? [])
        expect(tag).toBe('<script src="/static/view.js">');
      expect(body).not.toMatch(/<style\b/);
      expect(body).not.toMatch(/<[a-z]+(\s+[a-z-]+(="[^"]*")?)*\s+(style|on[a-z]+)=/i);
      expect(body).not.toContain(escaped('never')); // the helper itself is sound
    }
  });
});
