/**
 * The browser helpers themselves, in Chromium: `axeAtWindows` checks a page at each window by
 * resizing it (not loading it again), so a violation that only a narrow or zoomed window shows is
 * found at that window and only there; `setWindow` gives the page the window and device scale asked
 * for, and they hold across a navigation.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  axeAtWindows,
  newContext,
  NO_FINDINGS,
  setWindow,
  sharedTab,
  skipBrowser,
  trackErrors,
} from './browser.js';
import { heavyLimit } from './limits.js';

// One small page in the worker's Chromium: a few seconds on a quiet machine.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(4) });

const SKIP = skipBrowser('test/helpers/browser.test.ts');

/** Grey text on white (2.3:1) in a window of 700 CSS px or less: 400 px and 200 % zoom show it. */
const PAGE = `data:text/html;charset=utf-8,${encodeURIComponent(`<!doctype html>
<html lang="en"><head><title>Narrow</title><style>@media (max-width: 700px) { p { color: #aaa } }</style></head>
<body><main><h1>Narrow</h1><p>Only a narrow window greys this text.</p></main></body></html>`)}`;

describe.skipIf(SKIP)('the browser helpers', () => {
  let ctx: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ctx = await newContext();
    page = await ctx.newPage();
    await page.goto(PAGE);
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('finds a violation at exactly the windows that show it, on one page load', async () => {
    const found = await axeAtWindows(page);
    expect(Object.keys(found)).toEqual(Object.keys(NO_FINDINGS));
    expect(found['1280 px']).toEqual([]);
    for (const w of ['400 px', '200 %'])
      expect(
        found[w]!.map((f) => [f.rule, f.targets]),
        w,
      ).toEqual([['color-contrast', ['p']]]);
  });

  it('gives the page the window and scale asked for, and they hold across a navigation', async () => {
    expect(await setWindow(page, 700, 900, 2)).toEqual({ width: 700, ratio: 2 });
    await page.goto(`${PAGE}%20`);
    expect(await page.evaluate('[window.innerWidth, window.devicePixelRatio]')).toEqual([700, 2]);
    expect(await setWindow(page, 1280, 900)).toEqual({ width: 1280, ratio: 1 });
  });

  it('hands each file the one shared tab as a new tab is: blank, 1,280 × 900 at scale 1, no listener', async () => {
    const first = await sharedTab();
    // a file that leaves a zoomed window, a route and an error listener behind
    const leftover = trackErrors(first);
    await first.route('http://127.0.0.1:9/routed', (r) => r.fulfill({ body: 'routed' }));
    expect(await setWindow(first, 400, 900, 2)).toEqual({ width: 400, ratio: 2 });
    await first.goto(PAGE);
    const next = await sharedTab();
    expect(next).toBe(first);
    expect(next.url()).toBe('about:blank');
    // the page the next file loads: the new tab's window, across the navigation; no route left
    await next.goto(PAGE);
    expect(
      await next.evaluate('[window.innerWidth, window.innerHeight, window.devicePixelRatio]'),
    ).toEqual([1280, 900, 1]);
    // nothing listens on port 9 (discard): only a route left behind would answer
    const probe =
      "fetch('http://127.0.0.1:9/routed', { mode: 'no-cors' }).then(() => 'answered', () => 'refused')";
    expect(await next.evaluate(probe)).toBe('refused');
    // the earlier file's listener hears nothing of the next file's page
    await next.evaluate('console.error("the next file")');
    expect(leftover).toEqual([]);
  });
});
