/**
 * Debian's Chromium for the browser tests, driven by playwright-core. Without /usr/bin/chromium
 * the tests FAIL with the install command, unless STIMKIT_SKIP_BROWSER_TESTS=1 is set, which skips
 * them with a printed message.
 */
import { existsSync } from 'node:fs';
import axe from 'axe-core';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, skipBrowserTests } from './chromium.js';
import { tempDir } from './tmp.js';

/** True when the browser tests are switched off (a warning names the file). */
export const skipBrowser = skipBrowserTests;

/** A fresh Chromium profile; throws with the install command when Chromium is missing. */
export async function launchBrowser(
  viewport = { width: 1280, height: 900 },
): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}: the browser tests need it. Install it with \`sudo apt-get update && sudo apt-get install -y chromium fonts-noto-cjk fonts-noto-core\` (Debian/Ubuntu; .ci/run does this), or set STIMKIT_SKIP_BROWSER_TESTS=1 to skip these tests.`,
    );
  }
  const profile = await tempDir('stimkit-chromium-profile-');
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
  });
}

/** How far the page scrolls sideways: the document's width beyond the window (0 when it fits). */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate<number>(
    'document.documentElement.scrollWidth - document.documentElement.clientWidth',
  );
}

/**
 * Console errors and page errors of `page` from now on (a Content-Security-Policy violation is a
 * console error): the list fills as they come.
 */
export function trackErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/** Wait until the rater app says every answer is saved (its status reads "Saved …" / "已保存 …"). */
export async function waitSaved(page: Page): Promise<void> {
  // A function, not a string: the page's Content-Security-Policy forbids eval.
  await page.waitForFunction(() => {
    const d = (
      globalThis as unknown as {
        document: { getElementById: (id: string) => { textContent: string | null } | null };
      }
    ).document;
    return /^(Saved|已保存) /.test(d.getElementById('status')?.textContent ?? '');
  });
}

/**
 * 200 % browser zoom of a 1,280 × 900 window: a 640 × 450 CSS px viewport drawn at device scale
 * 2 (set through the DevTools protocol, so it holds for a persistent context's page too, across
 * navigations). Returns the window's CSS width and device pixel ratio as the page sees them.
 */
export async function zoom200(page: Page): Promise<{ width: number; ratio: number }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setDeviceMetricsOverride', {
    width: 640,
    height: 450,
    deviceScaleFactor: 2,
    mobile: false,
  });
  return page.evaluate<{ width: number; ratio: number }>(
    '({ width: window.innerWidth, ratio: window.devicePixelRatio })',
  );
}

/** One axe-core finding: the rule, its impact and where it was found (CSS selectors). */
export interface AxeFinding {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * The serious and critical accessibility violations axe-core (the WCAG 2.x A/AA rules and its best
 * practices) finds on `page` as it is now. The engine is evaluated through the DevTools protocol,
 * which the page's Content-Security-Policy does not govern, so the page runs as a user's would.
 */
export async function axeViolations(page: Page): Promise<AxeFinding[]> {
  const loaded = await page.evaluate<boolean>("typeof window.axe === 'object'");
  if (!loaded) await page.evaluate(`${axe.source};0`);
  const found = await page.evaluate<AxeFinding[]>(`window.axe
    .run(document, { resultTypes: ['violations'] })
    .then((r) => r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ rule: v.id, impact: v.impact, help: v.help,
        targets: v.nodes.map((n) => n.target.join(' ')) })))`);
  return found;
}
