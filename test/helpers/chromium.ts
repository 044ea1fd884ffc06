/**
 * Debian's Chromium for the browser tests and the screenshot script (driven by playwright-core;
 * no test framework imported here). Without it a browser test FAILS, unless
 * STIMKIT_SKIP_BROWSER_TESTS=1 is set, which skips it with a printed message.
 */
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** True (after printing why) when the browser tests of `file` are to be skipped. */
export function skipBrowserTests(file: string): boolean {
  const skip = process.env.STIMKIT_SKIP_BROWSER_TESTS === '1';
  if (skip) console.warn(`${file}: browser tests SKIPPED because STIMKIT_SKIP_BROWSER_TESTS=1`);
  return skip;
}

/** Throw saying how to install Chromium when it is missing (a browser test then FAILS). */
export function assertChromium(): void {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}: the browser tests need it. Install it with \`sudo apt-get update && sudo apt-get install -y chromium fonts-noto-cjk fonts-noto-core\` (Debian/Ubuntu; .ci/run does this), or set STIMKIT_SKIP_BROWSER_TESTS=1 to skip these tests.`,
    );
}
