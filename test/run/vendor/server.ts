/**
 * Strict stand-ins for the Anthropic Messages API and the Gemini API on 127.0.0.1: every request
 * is checked against the vendor's documented shape (validate-*.ts) and rejected with the vendor's
 * 400 error when it deviates; a missing key header is refused (401 / 403). Each accepted request
 * is answered by `script(req)`: a normal reply (optionally with thinking), a refusal, a max-tokens
 * stop, a prompt block or a safety stop (Gemini), an overload (529 / 503), any status, or a
 * dropped connection. Replies follow the vendors' documented response shapes (reply-*.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerOrFail } from '../../helpers/http.js';
import { trialIndex } from '../fixture.js';
import { anthropicReply, geminiReply, type VendorAction } from './replies.js';
import { anthropicProblem } from './validate-anthropic.js';
import { geminiProblem } from './validate-gemini.js';

export type Vendor = 'anthropic' | 'gemini';

export interface VendorRequest {
  n: number;
  /** The trial index read from the prompt (-1 when there is none). */
  k: number;
  /** How many times this k was seen before. */
  seen: number;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface VendorServer {
  url: string;
  /** Requests that passed validation, in order. */
  requests: VendorRequest[];
  /** Requests rejected as malformed, with the reason. */
  rejected: Array<{ url: string; problem: string }>;
  close: () => Promise<void>;
}

function promptOf(vendor: Vendor, body: any): string {
  const parts: any[] =
    vendor === 'anthropic'
      ? (body?.messages?.[0]?.content ?? [])
      : (body?.contents?.[0]?.parts ?? []);
  return typeof parts === 'string' ? parts : parts.map((p) => p.text ?? '').join('');
}

function error(vendor: Vendor, status: number, message: string): string {
  return vendor === 'anthropic'
    ? JSON.stringify({
        type: 'error',
        error: { type: status === 401 ? 'authentication_error' : 'invalid_request_error', message },
      })
    : JSON.stringify({
        error: {
          code: status,
          message,
          status: status === 403 ? 'PERMISSION_DENIED' : 'INVALID_ARGUMENT',
        },
      });
}

/** Start a strict server for `vendor`; `key` is the API key every request must carry. */
export async function startVendorServer(
  vendor: Vendor,
  key: string | null,
  script: (r: VendorRequest) => VendorAction = () => ({ kind: 'ok' }),
  latencyMs = 0,
): Promise<VendorServer> {
  const requests: VendorRequest[] = [];
  const rejected: VendorServer['rejected'] = [];
  const seenByK = new Map<number, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () =>
      answerOrFail(res, async () => {
        // https://docs.anthropic.com/en/api/errors ("Request id"): every Anthropic response
        // carries a unique `request-id` header. The Gemini API documents none (its reply's
        // `responseId` names the response).
        const rid: Record<string, string> =
          vendor === 'anthropic'
            ? { 'request-id': `req_${requests.length + rejected.length}` }
            : {};
        const send = (status: number, text: string, headers: Record<string, string> = {}) => {
          res.writeHead(status, { 'content-type': 'application/json', ...rid, ...headers });
          res.end(text);
        };
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return send(400, error(vendor, 400, 'invalid JSON body'));
        }
        const url = req.url ?? '';
        const problem =
          req.method !== 'POST'
            ? `method ${req.method} not allowed`
            : vendor === 'anthropic'
              ? url !== '/v1/messages'
                ? `no such route ${url}`
                : anthropicProblem(req.headers, body)
              : geminiProblem(url, req.headers, body);
        if (problem) {
          rejected.push({ url, problem });
          return send(400, error(vendor, 400, problem));
        }
        const given =
          vendor === 'anthropic' ? req.headers['x-api-key'] : req.headers['x-goog-api-key'];
        if (key !== null && given !== key) {
          const status = vendor === 'anthropic' ? 401 : 403;
          return send(status, error(vendor, status, `invalid API key ${String(given)}`));
        }
        const k = trialIndex(promptOf(vendor, body));
        const seen = seenByK.get(k) ?? 0;
        seenByK.set(k, seen + 1);
        const r: VendorRequest = { n: requests.length, k, seen, url, headers: req.headers, body };
        requests.push(r);
        const a = script(r);
        if (latencyMs > 0) await new Promise((x) => setTimeout(x, latencyMs));
        if (a.kind === 'drop') return req.socket.destroy();
        if (a.kind === 'slow') await new Promise((x) => setTimeout(x, a.ms));
        if (res.destroyed) return;
        const model =
          vendor === 'anthropic'
            ? (body as any).model
            : decodeURIComponent(url.split('/models/')[1]!.split(':')[0]!);
        const out = vendor === 'anthropic' ? anthropicReply(a, model, k) : geminiReply(a, model, k);
        send(out.status, out.text, out.headers);
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    rejected,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
