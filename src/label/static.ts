/**
 * The files the rater app's and the viewer's pages load besides themselves: the style sheet, the
 * icon and each app's script. They are served as files because the pages' Content-Security-Policy
 * allows no inline script or style (`/static/…`, `/favicon.svg`; same guards as every route).
 */
import { CSS } from './assets.js';
import type { Reply } from './http.js';

/** The pages' icon: a check mark on the header's colour. */
const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#20303f"/><path d="M8 17l5 5 11-12" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/></svg>`;

const SHARED: Record<string, { type: string; body: string }> = {
  '/static/app.css': { type: 'text/css; charset=utf-8', body: CSS },
  '/favicon.svg': { type: 'image/svg+xml', body: FAVICON },
};

/**
 * The reply for the style sheet, the icon or one of `scripts` (path → source), or null when
 * `pathname` is none of them.
 */
export function staticReply(pathname: string, scripts: Record<string, string> = {}): Reply | null {
  if (Object.hasOwn(SHARED, pathname)) return { status: 200, ...SHARED[pathname]! };
  if (Object.hasOwn(scripts, pathname))
    return { status: 200, type: 'text/javascript; charset=utf-8', body: scripts[pathname]! };
  return null;
}
