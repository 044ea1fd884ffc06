/**
 * The review page in Chromium at phone width (400 px) and 200 % zoom (700 CSS px at device
 * scale 2): it never scrolls sideways (entries stack; the overview table scrolls in its own box,
 * and says so only when it does); each entry's name heading comes before its provenance; images
 * are described by their titles; the header names files, not local paths; axe-core finds no
 * serious or critical violation at 1,280 and 400 px.
 *
 * Needs /usr/bin/chromium; without it this file FAILS, unless STIMKIT_SKIP_BROWSER_TESTS=1 is
 * set, which skips it with a printed message.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { axeViolations, setWindow, sharedTab } from '../helpers/browser.js';
import { skipBrowserTests } from '../helpers/chromium.js';
import { tempDir } from '../helpers/tmp.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(7) });

const SKIP = skipBrowserTests('test/review/browser.test.ts');

// The page is loaded once and each test sets the window it reads the page at (as a user resizes
// or zooms a window): the page's layout, the overview's hint included, is its stylesheet's alone.
describe.skipIf(SKIP)('the review page in Chromium', () => {
  let page: Page;
  let url: string;

  beforeAll(async () => {
    const out = await tempDir('stimkit-review-browser-');
    const r = await runCli([
      'review',
      path.join(ROOT, 'manifests', 'demo.entries.yaml'),
      '--out',
      out,
      '--variants',
      path.join(ROOT, 'variants', 'demo', 'variants.lock.json'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    url = pathToFileURL(path.join(out, 'index.html')).href;
    page = await sharedTab(); // a file:// page: nothing kept between files
    await page.goto(url);
  });

  for (const [name, width, scale] of [
    ['a 400 px phone', 400, 1],
    ['200 % zoom', 700, 2],
  ] as const)
    it(`does not scroll sideways at ${name}`, async () => {
      expect(await setWindow(page, width, 900, scale)).toEqual({ width, ratio: scale });
      const [scroll, client] = await page.evaluate<[number, number]>(
        '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
      );
      expect(scroll).toBeLessThanOrEqual(client);
    });

  it('names each entry before its provenance, and describes images by their titles', async () => {
    expect(await setWindow(page, 1280, 900)).toEqual({ width: 1280, ratio: 1 });
    const order = await page.evaluate<string[][]>(
      "[...document.querySelectorAll('section.entry')].map((s) => [...s.querySelectorAll('h2, h3')].slice(0, 2).map((h) => h.tagName + ' ' + h.textContent))",
    );
    expect(order.length).toBe(6);
    for (const [first, second] of order) {
      expect(first).toMatch(/^H2 /);
      expect(second).toBe('H3 Provenance');
    }
    expect(await page.locator('#dscovr-launch img.thumb').getAttribute('alt')).toBe(
      'Launch of the DSCOVR satellite on a SpaceX Falcon 9',
    );
    expect(await page.locator('#dscovr-launch .ladder img').first().getAttribute('alt')).toBe(
      'Launch of the DSCOVR satellite on a SpaceX Falcon 9: A0 original',
    );
  });

  it('shows no local path in the header', async () => {
    const header = (await page.locator('header').textContent()) ?? '';
    expect(header).toContain('from the entries demo.entries.yaml');
    expect(header).toContain('variants ../variants/demo/variants.lock.json');
    expect(header).not.toContain(ROOT);
    expect(header).not.toContain(path.dirname(fileURLToPath(url)));
  });

  // 200 %: a 1,280 × 900 window zoomed is 640 × 450 CSS px at device scale 2
  for (const [name, width, height, scale] of [
    ['1280 px', 1280, 900, 1],
    ['400 px', 400, 900, 1],
    ['200 %', 640, 450, 2],
  ] as const)
    it(`says the overview scrolls sideways exactly when it does, and passes axe-core, at ${name}`, async () => {
      expect(await setWindow(page, width, height, scale)).toEqual({ width, ratio: scale });
      const wider = await page.evaluate<boolean>(
        "(() => { const s = document.querySelector('.ov .scroll'); return s.scrollWidth > s.clientWidth; })()",
      );
      if (width === 400) expect(wider).toBe(true);
      expect(await page.locator('#ov-hint').isVisible()).toBe(wider);
      // the hint names no column that is already in view
      const inView = await page.evaluate<string[]>(
        "(() => { const s = document.querySelector('.ov .scroll'); const right = s.getBoundingClientRect().right; return [...s.querySelectorAll('th')].filter((h) => h.getBoundingClientRect().right <= right).map((h) => h.textContent); })()",
      );
      const hint = (await page.locator('#ov-hint').textContent()) ?? '';
      const words = hint.split(/[\s,]+/);
      for (const column of inView) expect(words, column).not.toContain(column);
      expect(await axeViolations(page)).toEqual([]);
    });
});
