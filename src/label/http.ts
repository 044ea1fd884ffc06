/**
 * The guarded local HTTP server behind `stimkit label serve` and `stimkit view`, on node:http.
 *
 * - Bound to 127.0.0.1 unless `--host` says otherwise; without `--host`, requests whose peer is
 *   not a loopback address are refused.
 * - The Host header must name this server (127.0.0.1, localhost or [::1] with the port, or the
 *   `--host` value; with `--host`, also any IP address), which defeats DNS rebinding.
 * - A random per-session token, printed in the URL (as Jupyter does), is required: in the query
 *   (`?token=…`, which also sets a SameSite=Strict cookie) or the cookie. Requests that change
 *   anything must also carry it in the `X-Stimkit-Token` header (no cross-site form posts).
 * - Routes are exact; files are served only by content digest, never by a path from the request.
 * - Every reply carries a strict Content-Security-Policy: scripts and styles only from this server
 *   (the pages' script and style sheet are files of their own, never inline), no inline event
 *   handlers, no framing, no requests elsewhere.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isIP, type AddressInfo } from 'node:net';
import { StimkitError } from '../core/errors.js';
import type { Html } from '../core/html.js';

export interface ServeOptions {
  /** Interface to bind; default 127.0.0.1. Giving it also admits non-loopback peers. */
  host?: string;
  /** Port; 0 picks a free one. */
  port: number;
  /** Fixed token (tests); default 24 random bytes, hex. */
  token?: string;
}

export interface Request {
  method: string;
  path: string;
  query: URLSearchParams;
  body: () => Promise<unknown>;
  raw: IncomingMessage;
}

export interface Reply {
  status: number;
  type: string;
  body: string | Buffer;
  headers?: Record<string, string>;
}

export type Handler = (req: Request) => Promise<Reply | null>;

export interface Running {
  server: Server;
  url: string;
  port: number;
  token: string;
  close: () => Promise<void>;
}

/**
 * The pages' Content-Security-Policy: nothing inline (no `'unsafe-inline'` for scripts or styles,
 * so markup that slipped through escaping could not run), everything else from this server only.
 */
const CSP =
  "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** An HTML reply (a page made with core/html.ts's `html` template). */
export const htmlReply = (body: Html, status = 200): Reply => ({
  status,
  type: 'text/html; charset=utf-8',
  body: body.toString(),
});
/** A JSON reply. */
export const json = (value: unknown, status = 200): Reply => ({
  status,
  type: 'application/json; charset=utf-8',
  body: JSON.stringify(value),
});
/** A plain-text reply. */
export const text = (body: string, status = 200): Reply => ({
  status,
  type: 'text/plain; charset=utf-8',
  body,
});

function sameToken(a: string | undefined, b: string): boolean {
  if (!a) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

/** Start serving `handler` behind the guards; resolves once listening. */
export async function startServer(handler: Handler, options: ServeOptions): Promise<Running> {
  const host = options.host ?? '127.0.0.1';
  const guard: Guard = {
    host,
    explicitHost: options.host !== undefined,
    token: options.token ?? randomBytes(24).toString('hex'),
    port: options.port,
  };
  const server = createServer((req, res) => {
    void respond(guard, handler, req, res).catch((err: unknown) => {
      if (!res.headersSent) send(res, text(`internal error: ${(err as Error).message}`, 500));
      else res.end();
    });
  });
  await listen(server, host, options.port);
  guard.port = (server.address() as AddressInfo).port;
  const shownHost =
    host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    server,
    url: `http://${shownHost}:${guard.port}/?token=${guard.token}`,
    port: guard.port,
    token: guard.token,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** What the guards check a request against; `port` is the bound one once listening. */
interface Guard {
  host: string;
  explicitHost: boolean;
  token: string;
  port: number;
}

const cookieName = (g: Guard) => `stimkit_token_${g.port}`;

// Names other than the loopback names and --host are refused (DNS rebinding needs a name).
// With --host, any IP literal is also accepted: clients on the network reach us by address.
function hostAllowed(g: Guard, header: string): boolean {
  const names = ['127.0.0.1', 'localhost', '[::1]'];
  if (g.explicitHost) names.push(g.host.includes(':') ? `[${g.host}]` : g.host);
  const h = header.toLowerCase();
  if (names.some((n) => `${n}:${g.port}`.toLowerCase() === h)) return true;
  if (!g.explicitHost || !h.endsWith(`:${g.port}`)) return false;
  const name = h.slice(0, -`:${g.port}`.length).replace(/^\[(.*)\]$/, '$1');
  return isIP(name) !== 0;
}

/** The refusal of a request the guards stop (peer, Host, token), or null to let it through. */
function refusal(g: Guard, req: IncomingMessage, viaQuery: boolean): Reply | null {
  if (!viaQuery && !sameToken(cookie(req, cookieName(g)), g.token))
    return text(
      'forbidden: open the URL with the token that `stimkit` printed when it started',
      403,
    );
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') {
    const header = req.headers['x-stimkit-token'];
    if (!sameToken(typeof header === 'string' ? header : undefined, g.token))
      return text('forbidden: missing X-Stimkit-Token', 403);
  }
  return null;
}

async function respond(
  g: Guard,
  handler: Handler,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (!g.explicitHost && !LOOPBACK.has(req.socket.remoteAddress ?? ''))
    return send(res, text('forbidden: not from this machine', 403));
  if (!hostAllowed(g, req.headers.host ?? ''))
    return send(res, text('forbidden: unexpected Host header', 403));
  const url = new URL(req.url ?? '/', 'http://localhost');
  const viaQuery = sameToken(url.searchParams.get('token') ?? undefined, g.token);
  const refused = refusal(g, req, viaQuery);
  if (refused) return send(res, refused);
  const method = req.method ?? 'GET';
  if (viaQuery) {
    // Set the cookie and drop the token from the address bar.
    url.searchParams.delete('token');
    const location = `${url.pathname}${url.search}`;
    res.setHeader('Set-Cookie', `${cookieName(g)}=${g.token}; Path=/; HttpOnly; SameSite=Strict`);
    if (method === 'GET')
      return send(res, {
        status: 303,
        type: 'text/plain',
        body: '',
        headers: { Location: location },
      });
  }
  const reply = await handler({
    method,
    path: url.pathname,
    query: url.searchParams,
    raw: req,
    body: () => readBody(req),
  });
  send(res, reply ?? text('not found', 404));
}

/** Listen on `host:port`; a port in use or a bad host is a StimkitError. */
async function listen(server: Server, host: string, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? StimkitError.fromProblem(
              {
                code: 'E_SERVE_PORT',
                message: `port ${port} is in use`,
                fix: 'choose another --port (0 picks a free one)',
              },
              err,
            )
          : StimkitError.fromProblem(
              {
                code: 'E_SERVE',
                message: `cannot listen on ${host}:${port} (${err.code ?? err.message})`,
                fix: 'check --host and --port',
              },
              err,
            ),
      ),
    );
    server.listen(port, host, () => resolve());
  });
}

function send(res: ServerResponse, reply: Reply): void {
  res.writeHead(reply.status, {
    'Content-Type': reply.type,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Content-Security-Policy': CSP,
    ...(reply.headers ?? {}),
  });
  res.end(reply.body);
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 1_000_000) throw new Error('request body too large');
    chunks.push(chunk as Buffer);
  }
  const body = Buffer.concat(chunks).toString('utf8');
  return body === '' ? null : (JSON.parse(body) as unknown);
}
