/**
 * Waiting between attempts: exponential backoff with full jitter (a uniform draw in
 * [0, min(cap, base · 2^(n−1)))), or the server's own Retry-After when it gives one.
 */

/** Backoff settings (milliseconds). */
export interface Backoff {
  baseMs: number;
  capMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: 1000, capMs: 60_000 };

/** The wait before retry number `n` (1 = after the first failure). */
export function backoffDelay(
  n: number,
  b: Backoff,
  retryAfterMs: number | null,
  random = Math.random,
): number {
  if (retryAfterMs !== null) return Math.min(retryAfterMs, 15 * 60_000);
  return random() * Math.min(b.capMs, b.baseMs * 2 ** Math.max(0, n - 1));
}

/** Sleep `ms`, waking early (false) when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      resolve(false);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
