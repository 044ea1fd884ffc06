/**
 * The review page in Chromium at phone width (400 px) and 200 % zoom (700 CSS px at device
 * scale 2): it never scrolls sideways (entries stack; the overview table scrolls in its own box).
 *
 * Needs /usr/bin/chromium; without it this file FAILS, unless STIMKIT_SKIP_BROWSER_TESTS=1 is
 * set, which skips it with a printed message.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { launchChromium, skipBrowserTests } from '../helpers/chromium.js';
import { tempDir } from '../helpers/tmp.js';

const SKIP = skipBrowserTests('test/review/browser.test.ts');

describe.skipIf(SKIP)('the review page in Chromium', () => {
  let browser: Browser;
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
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  for (const [name, width, scale] of [
    ['a 400 px phone', 400, 1],
    ['200 % zoom', 700, 2],
  ] as const)
    it(`does not scroll sideways at ${name}`, async () => {
      const page = await browser.newPage({
        viewport: { width, height: 900 },
        deviceScaleFactor: scale,
      });
      try {
        await page.goto(url);
        const [scroll, client] = await page.evaluate<[number, number]>(
          '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
        );
        expect(scroll).toBeLessThanOrEqual(client);
      } finally {
        await page.close();
      }
    }, 60_000);
});
