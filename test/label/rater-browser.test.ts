/**
 * The rater app in Chromium, under its Content-Security-Policy (no violation is logged): no
 * documented key changes an answer the rater did not aim at (a clicked radio keeps focus; → then
 * goes to the next trial and leaves the answer as it was, read back from the rater's SQLite
 * file); Caps Lock letters work; single-key shortcuts can be turned off and that is remembered;
 * `?` and the footer button open the shortcut list in view; A on a question without N/A says why
 * nothing happened; the interface-language switch changes the whole interface and is remembered;
 * the image and the response stay in view while D5 is answered; no page scrolls sideways at 400 px;
 * a clicked answer moves the highlight on as a key answer does; a held answer key answers once; a
 * strategy ticked while its D4 = TRUE is retried is saved after it.
 */
import Database from 'better-sqlite3';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import type { LabelSample } from '../../src/label/sample-schema.js';
import { serveLabels, type LabelServeOptions, type LabelServer } from '../../src/label/serve.js';
import {
  sharedTab,
  sidewaysOverflow,
  skipBrowser,
  trackErrors,
  waitSaved,
} from '../helpers/browser.js';
import { tempDir } from '../helpers/tmp.js';
import { LabelStore } from '../../src/label/store.js';
import { syntheticJudges, writeLabelSample } from './fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(7) });

const SKIP = skipBrowser('test/label/rater-browser.test.ts');

/** The answers of one item as the rater file holds them (a separate read-only connection). */
function savedRow(file: string, item: string): Record<string, unknown> | undefined {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT * FROM answers WHERE item_id = ?').get(item) as
      Record<string, unknown> | undefined;
  } finally {
    db.close();
  }
}

describe.skipIf(SKIP)('rater app in Chromium', () => {
  let dir: string;
  let sample: LabelSample;
  let sampleFile: string;
  let judges: string;
  /**
   * The worker's one tab (its pages keep nothing between files): each test opens a server of its
   * own in it (a port of its own, so an origin, cookie and storage of its own).
   */
  let tab: Page;
  const servers: LabelServer[] = [];
  let errors: string[] = [];

  beforeAll(async () => {
    dir = await tempDir('stimkit-label-keys-');
    ({ sampleFile, sample } = await writeLabelSample(dir, 6, 3));
    judges = path.join(dir, 'judges.jsonl');
    await writeFile(judges, syntheticJudges(sample.items));
    tab = await sharedTab();
  });

  afterEach(async () => {
    // The tab leaves the test's pages before their servers close (as closing it did): nothing of
    // them runs on to log an error into the next test. A test's routes and window go with it.
    await sharedTab();
    while (servers.length) await servers.pop()!.close();
    // Every page ran under the Content-Security-Policy without a violation or a script error.
    expect(errors).toEqual([]);
    errors = [];
  });

  /** Serve `rater` and open the first screen in a new page. */
  async function open(rater: string, extra: Partial<LabelServeOptions> = {}) {
    const server = await serveLabels({ sample: sampleFile, rater, port: 0, ...extra });
    servers.push(server);
    // One tab (a new tab costs its own renderer set-up): the errors are counted anew.
    const page = tab;
    page.removeAllListeners('console').removeAllListeners('pageerror');
    errors = trackErrors(page);
    await page.goto(server.running.url);
    await page.waitForURL(/\/item\/\d+$/);
    return { server, page };
  }
  const row = (server: LabelServer, i: number) => savedRow(server.store.file, sample.items[i]!.id);

  it('a clicked answer stays as chosen when → goes to the next trial', async () => {
    const { server, page } = await open('arrows', { lang: 'en' });
    await page.locator('input[name=d1][value=true]').click();
    await waitSaved(page);
    expect(row(server, 0)?.d1).toBe('true');
    // Focus is on the radio button just clicked; → is documented as "next trial".
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(/\/item\/2$/);
    expect(row(server, 0)?.d1).toBe('true');
    // ↓ / ↑ on a focused radio only move the highlight, never the answer; ← goes back.
    await page.locator('input[name=d2][value=false]').click();
    await waitSaved(page);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowLeft');
    await page.waitForURL(/\/item\/1$/);
    expect(row(server, 1)?.d2).toBe('false');
    expect(await page.locator('input[name=d1]:checked').getAttribute('value')).toBe('true');
  });

  it('a clicked answer moves the highlight on as a key does, and a held key answers one question', async () => {
    const { server, page } = await open('clickthenkey', { lang: 'en' });
    await page.locator('input[name=d1][value=false]').click();
    await page.keyboard.press('t'); // meant for D2, the next question
    await waitSaved(page);
    expect([row(server, 0)?.d1, row(server, 0)?.d2]).toEqual(['false', 'true']);
    // T held down: the browser repeats keydown (repeat: true); only the first press answers (D3)
    for (let i = 0; i < 4; i++) await page.keyboard.down('t');
    await page.keyboard.up('t');
    await waitSaved(page);
    const r = row(server, 0);
    expect([r?.d1, r?.d2, r?.d3, r?.d4, r?.d5]).toEqual(['false', 'true', 'true', null, null]);
  });

  it('a strategy ticked while its D4 = TRUE is still being retried is saved after it', async () => {
    const { server, page } = await open('dtretry', { lang: 'en' });
    // the first D4 save fails (as with a server that was briefly down); the page retries it
    let failed = false;
    await page.route('**/api/answer', async (route) => {
      const field = (route.request().postDataJSON() as { field: string }).field;
      if (field === 'd4' && !failed) {
        failed = true;
        return route.abort();
      }
      return route.continue();
    });
    await page.locator('input[name=d4][value=true]').click();
    await page.locator('input[name=dt1]').click();
    await expect.poll(() => row(server, 0)?.dt1, { timeout: 15_000 }).toBe(1);
    await waitSaved(page);
    expect([row(server, 0)?.d4, row(server, 0)?.dt1]).toEqual(['true', 1]);
    // the failed D4, then the strategy refused while D4 was not saved (409), both resent
    expect(errors.splice(0)).toEqual([
      'Failed to load resource: net::ERR_FAILED',
      'Failed to load resource: the server responded with a status of 409 (Conflict)',
    ]);
  });

  it('Caps Lock letters work like lower-case ones (T F J K N P)', async () => {
    const { server, page } = await open('capslock', { lang: 'en' });
    await page.keyboard.press('Shift+T'); // D1 TRUE, highlight moves to D2
    await page.keyboard.press('Shift+K'); // back to D1
    await page.keyboard.press('Shift+F'); // D1 FALSE
    await page.keyboard.press('Shift+J'); // D3
    await page.keyboard.press('Shift+T'); // D3 TRUE
    await waitSaved(page);
    const r = row(server, 0);
    expect([r?.d1, r?.d2, r?.d3]).toEqual(['false', null, 'true']);
    await page.keyboard.press('Shift+N');
    await page.waitForURL(/\/item\/2$/);
    await page.keyboard.press('Shift+P');
    await page.waitForURL(/\/item\/1$/);
  });

  it('single-key shortcuts can be turned off, and that is remembered', async () => {
    const { server, page } = await open('nokeys', { lang: 'en' });
    const toggle = page.locator('footer input.keys-toggle');
    expect(await toggle.isChecked()).toBe(true);
    await toggle.uncheck();
    expect(await page.locator('#keys-off').isVisible()).toBe(true);
    await expect.poll(() => LabelStore.peekMeta(server.store.file).shortcuts).toBe('off');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    for (const k of ['t', 'f', 'n', 'z']) await page.keyboard.press(k);
    expect(new URL(page.url()).pathname).toBe('/item/1');
    expect(await page.locator('#answers input:checked').count()).toBe(0);
    expect(row(server, 0)).toBeUndefined();
    // Remembered: after a reload and after a restart of the server.
    await page.reload();
    expect(await page.locator('footer input.keys-toggle').isChecked()).toBe(false);
    await page.keyboard.press('t');
    expect(await page.locator('#answers input:checked').count()).toBe(0);
    await servers.pop()!.close();
    const again = await open('nokeys', { lang: 'en' });
    expect(await again.page.locator('footer input.keys-toggle').isChecked()).toBe(false);
    // Turned on again, the keys answer.
    await again.page.locator('footer input.keys-toggle').check();
    await again.page.locator('body').click({ position: { x: 5, y: 5 } });
    await again.page.keyboard.press('t');
    await waitSaved(again.page);
    expect(row(again.server, 0)?.d1).toBe('true');
  });

  it('? and the footer button open the shortcut list where it can be seen', async () => {
    const { page } = await open('help', { lang: 'en' });
    const inView = async () => {
      const box = (await page.locator('#help').boundingBox())!;
      const vp = page.viewportSize()!;
      return box.y >= 0 && box.y + box.height <= vp.height && box.x >= 0 && box.width > 0;
    };
    await page.keyboard.press('?');
    expect(await page.locator('#help').isVisible()).toBe(true);
    expect(await inView()).toBe(true);
    expect(await page.locator('#help').textContent()).toContain('next unfinished trial');
    await page.keyboard.press('Escape');
    expect(await page.locator('#help').isVisible()).toBe(false);
    await page.mouse.wheel(0, 2000); // at the bottom of the page
    await page.locator('#help-open').click();
    expect(await inView()).toBe(true);
    await page.locator('#help-close').click();
    expect(await page.locator('#help').isVisible()).toBe(false);
  });

  it('A on a question without N/A says why nothing happened', async () => {
    const { server, page } = await open('na', { lang: 'en' });
    await page.keyboard.press('a'); // D1 is highlighted: it has no N/A
    const hint = page.locator('#hint');
    await expect.poll(() => hint.textContent()).toContain('D1');
    expect(await hint.textContent()).toContain('N/A');
    expect(await hint.isVisible()).toBe(true);
    expect(await page.locator('#answers input:checked').count()).toBe(0);
    expect(row(server, 0)).toBeUndefined();
  });

  it('the language switch changes the whole interface and is remembered', async () => {
    const { server, page } = await open('lang'); // no --lang: zh
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-Hans');
    expect(await page.locator('#q-d1 legend').textContent()).toContain('明确拒答');
    await page.getByRole('button', { name: 'English' }).click();
    await page.waitForFunction(
      () =>
        (globalThis as unknown as { document: { documentElement: { lang: string } } }).document
          .documentElement.lang === 'en',
    );
    expect(await page.locator('#q-d1 legend').textContent()).toContain('Explicit refusal');
    expect(await page.getByRole('button', { name: 'English' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    // Nothing of the interface is left in Chinese (the corpus texts and the prompt may be).
    const chrome = await page.evaluate<string>(
      "[...document.querySelectorAll('header, legend, .guide, label, h2, footer, nav, dialog')].map((e) => e.textContent).join(' ')",
    );
    expect(chrome.replace(/中文/g, '')).not.toMatch(/\p{Script=Han}/u);
    await page.reload();
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    await page.goto(new URL('/guide', page.url()).toString());
    expect(await page.locator('h1').textContent()).toContain('Coding guide');
    expect(LabelStore.peekMeta(server.store.file).lang).toBe('en');
    // A restart without --lang keeps the rater's choice; --lang given wins.
    await servers.pop()!.close();
    const again = await open('lang');
    expect(await again.page.locator('html').getAttribute('lang')).toBe('en');
    await servers.pop()!.close();
    const zh = await open('lang', { lang: 'zh' });
    expect(await zh.page.locator('html').getAttribute('lang')).toBe('zh-Hans');
  });

  it('keeps the image and the response in view while D5 is answered', async () => {
    const { page } = await open('sticky', { lang: 'en' });
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.locator('#q-d5').scrollIntoViewIfNeeded();
    await page.locator('#note').scrollIntoViewIfNeeded();
    const visible = async (sel: string) => {
      const b = (await page.locator(sel).boundingBox())!;
      return b.y >= 0 && b.y + b.height <= 900;
    };
    expect(await page.evaluate('window.scrollY')).toBeGreaterThan(0);
    expect(await visible('#q-d5')).toBe(true);
    expect(await visible('#response')).toBe(true);
    if (sample.items[0]!.images.length) expect(await visible('#imgbox img')).toBe(true);
  });

  it('no page scrolls sideways at 400 px, and headers are words (label, guide, review)', async () => {
    const { page } = await open('narrow', { lang: 'zh' });
    const review = await serveLabels({ sample: sampleFile, rater: 'narrow', port: 0, judges });
    servers.push(review);
    await page.setViewportSize({ width: 400, height: 800 });
    for (const url of [
      new URL('/item/1', page.url()).toString(),
      new URL('/guide', page.url()).toString(),
      review.running.url,
    ]) {
      await page.goto(url);
      expect(await sidewaysOverflow(page), url).toBe(0);
      const heads = (await page.locator('th').allTextContents()).join(' | ');
      expect(heads, url).not.toMatch(/[a-z0-9]_[a-z0-9]/i);
    }
  });
});
