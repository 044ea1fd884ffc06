/**
 * Debian's Chromium for the browser tests, driven by playwright-core: one Chromium per test worker,
 * launched on first use and shared by every browser test file of that worker (the files of a worker
 * share their modules). A file whose pages keep nothing between files (a file:// report, a server
 * of its own on a port of its own) takes the worker's one tab (`sharedTab`), handed over reset;
 * a file that needs storage, cookies or several tabs of its own takes a context (`newContext`),
 * which it closes. Without /usr/bin/chromium the tests FAIL with the install command,
 * unless STIMKIT_SKIP_BROWSER_TESTS=1 is set, which skips them with a printed message.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type CDPSession,
  type Page,
} from 'playwright-core';
import { inject } from 'vitest';
import { assertChromium, CHROMIUM, CHROMIUM_ARGS, skipBrowserTests } from './chromium.js';

/** True when the browser tests are switched off (a warning names the file). */
export const skipBrowser = skipBrowserTests;

/** The worker's Chromium, once launched (cleared when it goes away, so the next use relaunches). */
let shared: Promise<Browser> | undefined;

/**
 * Launch the worker's Chromium, its profile in the suite's shared folder (which the suite removes
 * after the run). vitest stops a worker with SIGTERM, whose default would end the process without
 * its exit handlers: the worker exits instead, and playwright's exit handler kills Chromium (its
 * whole process group), so no Chromium outlives the run.
 */
async function launchShared(): Promise<Browser> {
  assertChromium();
  const profile = path.join(inject('sharedDir'), `chromium-${process.pid}`);
  const home = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    handleSIGTERM: false,
  });
  const browser = home.browser()!;
  const stop = () => process.exit(143);
  process.once('SIGTERM', stop);
  browser.once('disconnected', () => {
    shared = undefined;
    process.off('SIGTERM', stop);
  });
  return browser;
}

/** The worker's one Chromium (launched on first use); throws with the install command when missing. */
function sharedBrowser(): Promise<Browser> {
  shared ??= launchShared().catch((e: unknown) => {
    shared = undefined;
    throw e;
  });
  return shared;
}

/**
 * A fresh browser context on the worker's Chromium, as a fresh profile was: its own storage,
 * cookies and window. A reload within it keeps its storage. Close it when the file is done.
 */
export async function newContext(viewport = NEW_TAB_WINDOW): Promise<BrowserContext> {
  return (await sharedBrowser()).newContext({ viewport });
}

/** The worker's one shared tab (see `sharedTab`), once opened. */
let tab: Promise<Page> | undefined;

/** The window a new tab has (newContext's default viewport). */
const NEW_TAB_WINDOW = { width: 1280, height: 900 };

/**
 * The worker's one tab, handed to each test file that asks as a new tab would be: on about:blank,
 * in a 1,280 × 900 window at scale 1, without the listeners, routes or window (`setWindow`) a file
 * before it left. A new tab costs its own renderer's set-up (its fonts among them: about 1.5 CPU-s
 * here); the files of a worker run one after another, so one tab serves them all. Its context is
 * shared: a file whose pages keep cookies or storage it depends on takes `newContext()` instead.
 * Do not close it.
 */
export async function sharedTab(): Promise<Page> {
  let page = await tab?.catch(() => undefined);
  if (!page || page.isClosed()) page = await (tab = newContext().then((c) => c.newPage()));
  page.removeAllListeners('console').removeAllListeners('pageerror');
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.goto('about:blank');
  const session = windows.get(page);
  if (session) {
    // The window a file set through DevTools would outlast its navigations: it goes with its session.
    windows.delete(page);
    await (await session).detach();
  }
  await page.setViewportSize(NEW_TAB_WINDOW);
  return page;
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

/** The DevTools session that sets each page's window (one per page, kept: its setting lasts as long). */
const windows = new WeakMap<Page, Promise<CDPSession>>();

/**
 * Set the window of `page` to `width` × `height` CSS px drawn at device scale `scale`, as a user
 * resizes or zooms a window: the page is not loaded again (its stylesheets and scripts answer the
 * resize). Set through the DevTools protocol, so it holds across navigations. Returns the window's
 * CSS width and device pixel ratio as the page sees them (a test checks they took).
 */
export async function setWindow(
  page: Page,
  width: number,
  height: number,
  scale = 1,
): Promise<{ width: number; ratio: number }> {
  let session = windows.get(page);
  if (!session) windows.set(page, (session = page.context().newCDPSession(page)));
  await (
    await session
  ).send('Emulation.setDeviceMetricsOverride', {
    width,
    height,
    deviceScaleFactor: scale,
    mobile: false,
  });
  // Two frames later: what the page computes after layout (a scroll-state container query, which
  // shows a box's scroll hint) has caught up with the new window; read at once, on a busy machine
  // it could still be the old window's.
  return page.evaluate<{ width: number; ratio: number }>(
    `new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() =>
      done({ width: window.innerWidth, ratio: window.devicePixelRatio }))))`,
  );
}

/** One axe-core finding: the rule, its impact and where it was found (CSS selectors). */
export interface AxeFinding {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** axe-core's minified build (the same engine as `axe.source`, less than half its size to parse). */
let minified: string | undefined;
const require = createRequire(import.meta.url);
const axeSource = () => (minified ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));

/**
 * The serious and critical accessibility violations axe-core (the WCAG 2.x A/AA rules and its best
 * practices) finds on `page` as it is now. The engine is evaluated through the DevTools protocol,
 * which the page's Content-Security-Policy does not govern, so the page runs as a user's would. The
 * engine is injected once per page load: check the same page at several window sizes by resizing it
 * (`setWindow`), not by loading it again.
 */
export async function axeViolations(page: Page): Promise<AxeFinding[]> {
  const loaded = await page.evaluate<boolean>("typeof window.axe === 'object'");
  if (!loaded) await page.evaluate(`${axeSource()};0`);
  const found = await page.evaluate<AxeFinding[]>(`window.axe
    .run(document, { resultTypes: ['violations'] })
    .then((r) => r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ rule: v.id, impact: v.impact, help: v.help,
        targets: v.nodes.map((n) => n.target.join(' ')) })))`);
  return found;
}

/** The windows the accessibility checks use: wide, a phone, and 200 % zoom of 1,280 × 900. */
const WINDOWS = [
  { name: '1280 px', width: 1280, height: 900, scale: 1 },
  { name: '400 px', width: 400, height: 900, scale: 1 },
  { name: '200 %', width: 640, height: 450, scale: 2 },
] as const;

/** What `axeAtWindows` returns for a page without a finding. */
export const NO_FINDINGS = Object.fromEntries(WINDOWS.map((w) => [w.name, []]));

/**
 * axe-core's serious and critical findings on `page` as it is loaded, at each window of WINDOWS in
 * turn (resized, not loaded again: the engine is injected once). Throws when the page does not see
 * the window it was given.
 */
export async function axeAtWindows(page: Page): Promise<Record<string, AxeFinding[]>> {
  const found: Record<string, AxeFinding[]> = {};
  for (const w of WINDOWS) {
    const seen = await setWindow(page, w.width, w.height, w.scale);
    if (seen.width !== w.width || seen.ratio !== w.scale)
      throw new Error(
        `the page did not take the window ${w.name}: it sees ${JSON.stringify(seen)}`,
      );
    found[w.name] = await axeViolations(page);
  }
  return found;
}
