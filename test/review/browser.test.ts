/**
 * The review page in Chromium at phone width (400 px) and 200 % zoom (700 CSS px at device
 * scale 2): it never scrolls sideways (entries stack; the overview table scrolls in its own box).
 *
 * Needs /usr/bin/chromium; without it this file FAILS, unless STIMKIT_SKIP_BROWSER_TESTS=1 is
 * set, which skips it with a printed message.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const CHROMIUM = '/usr/bin/chromium';
const SKIP = process.env.STIMKIT_SKIP_BROWSER_TESTS === '1';
if (SKIP)
  console.warn(
    'test/review/browser.test.ts: browser tests SKIPPED because STIMKIT_SKIP_BROWSER_TESTS=1',
  );

describe.skipIf(SKIP)('the review page in Chromium', () => {
  let browser: Browser;
  let url: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(
        `Chromium is not installed at ${CHROMIUM}: the browser tests need it. Install it with \`sudo apt-get install -y chromium fonts-noto-cjk\`, or set STIMKIT_SKIP_BROWSER_TESTS=1 to skip these tests.`,
      );
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
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
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
        const [scroll, client] = (await page.evaluate(
          '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
        )) as [number, number];
        expect(scroll).toBeLessThanOrEqual(client);
      } finally {
        await page.close();
      }
    }, 60_000);
});
