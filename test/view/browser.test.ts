/**
 * `stimkit view` in Chromium, under its Content-Security-Policy (no violation is logged): no page
 * scrolls sideways at 400 px or at 200 % zoom; the ladder shows A0–A6 on one row at 1,400 px;
 * Enter in a filter applies it; no table header is a snake_case field name.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { serveView, type ViewServer } from '../../src/view/serve.js';
import { sharedTab, sidewaysOverflow, skipBrowser, trackErrors } from '../helpers/browser.js';
import { tempDir } from '../helpers/tmp.js';
import { writeAuditScores, writeLabelFixture } from '../label/fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(7) });

const SKIP = skipBrowser('test/view/browser.test.ts');

describe.skipIf(SKIP)('stimkit view in Chromium', () => {
  let view: ViewServer;
  let page: Page;
  let errors: string[];
  let pages: string[];
  /**
   * Each page as loaded once at 1,400 px: its table headers, then how far it scrolls sideways when
   * the window is resized to 400 and to 700 px (as a user resizes a window: the pages' layout is
   * their stylesheets' alone).
   */
  const seen: Array<{ url: string; heads: string; sideways: Record<number, number> }> = [];

  beforeAll(async () => {
    const dir = await tempDir('stimkit-view-browser-');
    const fx = await writeLabelFixture(dir);
    const scores = path.join(dir, 'scores.jsonl');
    await writeAuditScores(fx.responses, scores);
    view = await serveView({ bundle: fx.bundle, scores, port: 0 });
    page = await sharedTab(); // the server's origin is this file's (a port of its own)
    errors = trackErrors(page);
    await page.goto(view.running.url); // sets the session cookie
    const trial = view.data.scores!.find((s) => s.response !== null)!.trial_id;
    pages = [
      '/',
      '/entry/dscovr-launch',
      '/ladders',
      '/trials',
      '/trials?label=d4_state_aligned&lang=zh',
      '/trials?model=nobody',
      `/trial/${trial}`,
    ].map((p) => new URL(p, view.running.url).toString());
    for (const url of pages) {
      await page.setViewportSize({ width: 1400, height: 900 });
      await page.goto(url);
      const heads = (await page.locator('th').allTextContents()).join(' | ');
      const sideways: Record<number, number> = {};
      for (const width of [400, 700]) {
        await page.setViewportSize({ width, height: 900 });
        sideways[width] = await sidewaysOverflow(page);
      }
      seen.push({ url, heads, sideways });
    }
  });

  afterAll(async () => {
    await view?.close();
  });

  it('no page scrolls sideways at 400 px or at 200 % zoom (700 px)', () => {
    expect(seen.map((s) => s.url)).toEqual(pages);
    for (const { url, sideways } of seen)
      for (const width of [400, 700]) expect(sideways[width], `${url} at ${width} px`).toBe(0);
    expect(errors).toEqual([]);
  });

  it('headers are words, not snake_case field names', () => {
    expect(seen.map((s) => s.url)).toEqual(pages);
    for (const { url, heads } of seen) expect(heads, url).not.toMatch(/[a-z0-9]_[a-z0-9]/i);
  });

  it('shows the ladder A0–A6 on one row at 1,400 px, with image sizes known before loading', async () => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(new URL('/entry/dscovr-launch', view.running.url).toString());
    const figures = page.locator('.ladder figure');
    expect(await figures.count()).toBe(7);
    const tops = new Set<number>();
    for (const box of await figures.evaluateAll((fs) =>
      fs.map((f) => Math.round((f as unknown as { offsetTop: number }).offsetTop)),
    ))
      tops.add(box);
    expect(tops.size).toBe(1);
    const sized = await page
      .locator('.ladder img')
      .evaluateAll((imgs) =>
        imgs.every(
          (i) =>
            (i as unknown as { getAttribute: (n: string) => string | null }).getAttribute(
              'width',
            ) !== null,
        ),
      );
    expect(sized).toBe(true);
    expect(await page.locator('.ladder figcaption').first().textContent()).toContain('A0 original');
  });

  it('Enter in a filter applies it', async () => {
    await page.goto(new URL('/trials', view.running.url).toString());
    await page.locator('#f-lang').focus();
    await page.keyboard.press('ArrowDown'); // en
    await page.keyboard.press('Enter');
    await page.waitForURL(/lang=en/);
    expect(await page.locator('#f-lang').inputValue()).toBe('en');
    expect(errors).toEqual([]);
  });
});
