/**
 * The one transport: POST a body to `<endpoint>/chat/completions` with node's fetch (undici) and
 * return what came back, without judging it (classify.ts does). A timeout and a dropped
 * connection come back as values, not exceptions, so that a failure becomes a ledger row.
 */

/** What one HTTP exchange gave. */
export type RawReply =
  | { kind: 'http'; status: number; text: string; retryAfterMs: number | null; latencyMs: number }
  | {
      kind: 'error';
      errorClass: 'timeout' | 'connection' | 'interrupted';
      message: string;
      latencyMs: number;
    };

/** Parse `retry-after-ms` (milliseconds) or `Retry-After` (seconds or an HTTP date) into milliseconds. */
export function retryAfterMs(
  headers: { get: (name: string) => string | null },
  now = Date.now(),
): number | null {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Number(ms);
  const ra = headers.get('retry-after');
  if (ra === null) return null;
  if (/^\d+(\.\d+)?$/.test(ra.trim())) return Number(ra) * 1000;
  const at = Date.parse(ra);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The chat-completions URL of a base endpoint. */
export function chatUrl(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, '')}/chat/completions`;
}

/**
 * Send `body` (already JSON text) and read the whole reply. `timeoutMs` covers the reply body too;
 * `signal` aborts on Ctrl-C (the reply is then `interrupted`).
 */
export async function sendChat(
  endpoint: string,
  bodyText: string,
  apiKey: string | null,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<RawReply> {
  const started = performance.now();
  // One controller per request, aborted by the timeout or by Ctrl-C (cheaper than AbortSignal.any).
  const ac = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ac.abort();
  }, timeoutMs);
  const onAbort = () => ac.abort();
  if (signal?.aborted) ac.abort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  try {
    const res = await fetch(chatUrl(endpoint), {
      method: 'POST',
      headers,
      body: bodyText,
      signal: ac.signal,
    });
    const text = await res.text();
    return {
      kind: 'http',
      status: res.status,
      text,
      retryAfterMs: retryAfterMs(res.headers),
      latencyMs: performance.now() - started,
    };
  } catch (err) {
    const latencyMs = performance.now() - started;
    if (signal?.aborted)
      return { kind: 'error', errorClass: 'interrupted', message: 'stopped (Ctrl-C)', latencyMs };
    if (timedOut)
      return {
        kind: 'error',
        errorClass: 'timeout',
        message: `no complete reply within ${timeoutMs} ms`,
        latencyMs,
      };
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const code = e.cause?.code ?? (e as NodeJS.ErrnoException).code;
    return {
      kind: 'error',
      errorClass: 'connection',
      message: `${e.message}${code ? ` (${code})` : e.cause?.message ? ` (${e.cause.message})` : ''}`,
      latencyMs,
    };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
