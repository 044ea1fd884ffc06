// A request whose reply arrived while the process was paused (SIGSTOP, Ctrl-Z) is read, not timed
// out: the timeout timer fires late on resuming, before the event loop reads the socket, and a
// timed-out request is sent (and paid) again. Nor is a request timed out for the pause itself: it
// gets its whole timeout again after one, since its reply may still be on its way. The pause is
// made here by blocking the event loop (without spinning a core), which holds timers and socket
// reads exactly as a stopped process does.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson } from '../../src/client/transport.js';

let server: http.Server;
let url = '';
let requests = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    requests++;
    req.resume();
    const delay = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('delay') ?? 0);
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    }, delay);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Hold the event loop for `ms`, as a stopped process is held (asleep: no CPU spent). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe('sendJson through a pause', () => {
  it('reads a reply that came in during a pause longer than the timeout', async () => {
    const before = requests;
    const sent = sendJson({ url: `${url}?delay=400`, headers: {} }, '{}', 1000);
    // Let the request go out, then pause past the timeout; the server answers during the pause.
    await new Promise((r) => setTimeout(r, 100));
    pause(2500);
    const reply = await sent;
    expect(reply).toMatchObject({ kind: 'http', status: 200, text: '{"ok":true}' });
    expect(requests - before).toBe(1);
  });

  it('still times out a server that does not answer in time', async () => {
    const reply = await sendJson({ url: `${url}?delay=3000`, headers: {} }, '{}', 500);
    expect(reply).toMatchObject({ kind: 'error', errorClass: 'timeout' });
  });

  it('times out a whole timeout after the pause when nothing came in during it either', async () => {
    const started = Date.now();
    const sent = sendJson({ url: `${url}?delay=60000`, headers: {} }, '{}', 1000);
    await new Promise((r) => setTimeout(r, 100));
    pause(2000);
    const reply = await sent;
    expect(reply).toMatchObject({ kind: 'error', errorClass: 'timeout' });
    // The timeout (1 s) came due during the pause; a whole timeout followed it.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
  });

  it('gives a request its whole timeout again after a pause: a reply that comes later is read', async () => {
    // A timeout of 8 s that comes due during a pause of 10 s; the server answers 6.5 s after the
    // pause ends (it was paused too, or the request still on its way): within a whole timeout
    // after the pause, so the reply is read and the request sent once. (A grace of 5 s after the
    // pause timed it out here, and the request was sent again.)
    const before = requests;
    const sent = sendJson({ url: `${url}?delay=${100 + 10000 + 6500}`, headers: {} }, '{}', 8000);
    await new Promise((r) => setTimeout(r, 100));
    pause(10000);
    const reply = await sent;
    expect(reply).toMatchObject({ kind: 'http', status: 200, text: '{"ok":true}' });
    expect(requests - before).toBe(1);
  });
});
