// A request whose reply arrived while the process was paused (SIGSTOP, Ctrl-Z) is read, not timed
// out: the timeout timer fires late on resuming, before the event loop reads the socket, and a
// timed-out request is sent (and paid) again. The pause is made here by blocking the event loop,
// which holds timers and socket reads exactly as a stopped process does.
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

/** Hold the event loop for `ms`, as a stopped process is held. */
function pause(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    /* paused */
  }
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

  it('times out after the grace period when nothing came in during the pause either', async () => {
    const started = Date.now();
    const sent = sendJson({ url: `${url}?delay=60000`, headers: {} }, '{}', 1000);
    await new Promise((r) => setTimeout(r, 100));
    pause(2000);
    const reply = await sent;
    expect(reply).toMatchObject({ kind: 'error', errorClass: 'timeout' });
    // The timeout (1 s) came due during the pause; the grace (min(timeout, 5 s)) followed it.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
  });
});
