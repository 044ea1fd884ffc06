/**
 * A hostile HTTP server on 127.0.0.1 for tests of what stimkit does with a server's bytes: each
 * request (any method, path and body) is logged whole and answered by `answer` with any status,
 * headers and body (a redirect to another origin, a key echoed in a header…). A second instance
 * plays "another origin": its log must stay empty when nothing may follow a redirect.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerOrFail } from './http.js';

/** One request as it arrived. */
export interface HostileRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What to answer. */
export interface HostileReply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface HostileServer {
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Every request received, in order. */
  seen: HostileRequest[];
  close: () => Promise<void>;
}

/** Start a server answering each request with `answer(request, n)` (n: 0-based arrival). */
export async function startHostile(
  answer: (r: HostileRequest, n: number) => HostileReply = () => ({ status: 200, body: '{}' }),
): Promise<HostileServer> {
  const seen: HostileRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () =>
      answerOrFail(res, () => {
        const r: HostileRequest = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        seen.push(r);
        const a = answer(r, seen.length - 1);
        res.writeHead(a.status, { 'content-type': 'application/json', ...(a.headers ?? {}) });
        res.end(a.body ?? '');
        return Promise.resolve();
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A chat-completions reply body with `text` (and `finish_reason`). */
export function completion(text: string, finishReason = 'stop'): string {
  return JSON.stringify({
    id: 'cmpl-hostile',
    object: 'chat.completion',
    model: 'hostile',
    choices: [
      { index: 0, message: { role: 'assistant', content: text }, finish_reason: finishReason },
    ],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
}

/** Every 12-character piece of `s` (what no file or output may hold of a key). */
export function piecesOf(s: string): string[] {
  return Array.from({ length: Math.max(0, s.length - 11) }, (_, i) => s.slice(i, i + 12));
}

/** The key and the base64 forms a server may echo (of KEY and of `Bearer KEY`, standard and URL-safe). */
export function keyForms(key: string): string[] {
  const b64 = [key, `Bearer ${key}`].map((t) =>
    Buffer.from(t).toString('base64').replace(/=+$/, ''),
  );
  return [key, ...b64, ...b64.map((b) => b.replace(/\+/g, '-').replace(/\//g, '_'))];
}
