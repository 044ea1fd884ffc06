/** GET a page of a local stimkit server (view, label serve) on 127.0.0.1, with its session cookie unless `token` is null. */
import { request, type ServerResponse } from 'node:http';

export function getPage(
  port: number,
  p: string,
  token: string | null,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Host: `127.0.0.1:${port}` };
    if (token !== null) headers.Cookie = `stimkit_token_${port}=${token}`;
    request({ host: '127.0.0.1', port, path: p, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

/**
 * Runs a test server's async request handler so that a rejection is not lost: a handler that
 * throws answers 500 with the error's message (or, if the reply had started, drops the
 * connection), and the client sees the failure instead of a hang.
 */
export function answerOrFail(res: ServerResponse, handler: () => Promise<unknown>): void {
  handler().catch((e: unknown) => {
    const message = e instanceof Error ? e.message : String(e);
    if (res.headersSent) return void res.destroy();
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(`test server handler failed: ${message}`);
  });
}
