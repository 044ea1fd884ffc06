/**
 * The one transport: POST a JSON body with node's fetch (undici) and return what came back,
 * without judging it (classify.ts does). No redirect is followed: a 3xx comes back as a
 * `redirect` value with its Location. A timeout, a dropped connection and a reply body over
 * the size cap come back as values, not exceptions, so that a failure becomes a ledger row.
 */

import { DEFAULT_MAX_RESPONSE_MIB } from '../models/schema.js';
import { routeHeaders } from './route.js';

/** What one HTTP exchange gave. */
export type RawReply =
  | {
      kind: 'http';
      status: number;
      text: string;
      retryAfterMs: number | null;
      latencyMs: number;
      /** The reply's route headers (route.ts `ROUTE_HEADERS`); absent for a batch line. */
      headers?: Record<string, string>;
    }
  | {
      kind: 'error';
      errorClass: 'timeout' | 'connection' | 'interrupted' | 'response_too_large';
      message: string;
      latencyMs: number;
    }
  | {
      /** A 3xx: not followed (the key and the request stay with the endpoint named). */
      kind: 'redirect';
      status: number;
      /** The `Location` header, whole (the ledger and the summary redact it), or null. */
      location: string | null;
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

/** A timer that fires this late was held up by a pause (SIGSTOP, Ctrl-Z, a suspended VM). */
const PAUSE_SLACK_MS = 1000;

/**
 * Call `onTimeout` after `ms`, unless the process was paused meanwhile: a timer that fires more
 * than a second late was held up (the event loop runs timers before it reads the sockets, so on
 * resuming a reply that came in during the pause is still unread), and is set again for the whole
 * `ms` instead of firing. How much of the timeout ran before the pause is not known, and a request
 * is never timed out, and so sent and paid a second time, for time the process did not run: the
 * request may have been on its way, or its server paused with it, and still answer. Only a timer
 * that fires on time times the request out.
 */
function pauseAwareTimer(ms: number, onTimeout: () => void): { clear: () => void } {
  let handle: NodeJS.Timeout;
  const arm = () => {
    const due = performance.now() + ms;
    handle = setTimeout(() => {
      if (performance.now() - due > PAUSE_SLACK_MS) arm();
      else onTimeout();
    }, ms);
  };
  arm();
  return { clear: () => clearTimeout(handle) };
}

/** Bytes of a reply body at most, from a model's `max_response_mib`. */
export const maxResponseBytes = (mib: number | undefined): number =>
  Math.round((mib ?? DEFAULT_MAX_RESPONSE_MIB) * 1024 * 1024);

/**
 * The body of a reply as text, or null when it is larger than `maxBytes` (the rest is not read:
 * a runaway or hostile server cannot make the run hold more than the cap per request).
 */
async function readCapped(res: Response, maxBytes: number): Promise<string | null> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    return null;
  }
  if (!res.body) return '';
  const reader: ReadableStreamDefaultReader<Uint8Array> = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The chat-completions URL of a base endpoint. */
export function chatUrl(endpoint: string): string {
  return `${endpoint.replace(/(?<!\/)\/+$/, '')}/chat/completions`;
}

/**
 * POST `bodyText` (JSON) to `target.url` with its headers and read the whole reply, at most
 * `maxBytes` of it. `timeoutMs` covers the reply body too; `signal` aborts on Ctrl-C (the reply
 * is then `interrupted`).
 */
export async function sendJson(
  target: { url: string; headers: Record<string, string> },
  bodyText: string,
  timeoutMs: number,
  signal?: AbortSignal,
  maxBytes = maxResponseBytes(undefined),
): Promise<RawReply> {
  const started = performance.now();
  // One controller per request, aborted by the timeout or by Ctrl-C (cheaper than AbortSignal.any).
  const ac = new AbortController();
  let timedOut = false;
  const timer = pauseAwareTimer(timeoutMs, () => {
    timedOut = true;
    ac.abort();
  });
  const onAbort = () => ac.abort();
  if (signal?.aborted) ac.abort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const res = await fetch(target.url, {
      method: 'POST',
      headers: target.headers,
      body: bodyText,
      signal: ac.signal,
      // Never follow: fetch re-sends x-api-key / x-goog-api-key (and the prompt) to any host.
      redirect: 'manual',
    });
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel().catch(() => undefined);
      return {
        kind: 'redirect',
        status: res.status,
        location: res.headers.get('location'),
        latencyMs: performance.now() - started,
      };
    }
    const text = await readCapped(res, maxBytes);
    if (text === null)
      return {
        kind: 'error',
        errorClass: 'response_too_large',
        message: `HTTP ${res.status} reply body larger than ${maxBytes} bytes (max_response_mib); not read further`,
        latencyMs: performance.now() - started,
      };
    return {
      kind: 'http',
      status: res.status,
      text,
      retryAfterMs: retryAfterMs(res.headers),
      latencyMs: performance.now() - started,
      headers: routeHeaders(res.headers),
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
    timer.clear();
    signal?.removeEventListener('abort', onAbort);
  }
}
