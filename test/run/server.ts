/**
 * A chat-completions server on 127.0.0.1 for run tests (node:http). Each request is answered by
 * `script(req)`: a normal reply by default, or a scripted fault (500, 429 with Retry-After, a
 * reply slower than the timeout, a dropped connection, invalid JSON, empty choices,
 * content_filter, length, empty output, 400/401/404...). Every request is logged.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerOrFail } from '../helpers/http.js';
import { trialIndex } from './fixture.js';

export interface SeenRequest {
  /** 0-based arrival number. */
  n: number;
  /** The trial index k read from the prompt (-1 when there is none). */
  k: number;
  /** How many times this k was seen before (0 on the first). */
  seen: number;
  body: any;
  authorization: string | undefined;
  at: number;
}

export type Action =
  | { kind: 'ok'; text?: string; finish_reason?: string; reasoning?: string }
  | { kind: 'status'; status: number; body?: string; headers?: Record<string, string> }
  | { kind: 'slow'; ms: number }
  | { kind: 'drop' }
  | { kind: 'invalid_json' }
  | { kind: 'no_choices' };

export interface TestServer {
  url: string;
  requests: SeenRequest[];
  close: () => Promise<void>;
}

function promptText(body: any): string {
  const c = body?.messages?.[0]?.content;
  if (typeof c === 'string') return c;
  return (c ?? [])
    .filter((p: any) => p.type === 'text')
    .map((p: any) => p.text)
    .join('');
}

/** Start a server; `script` decides each reply; `latencyMs` delays every reply. */
export async function startServer(
  script: (r: SeenRequest) => Action = () => ({ kind: 'ok' }),
  latencyMs = 0,
): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const seenByK = new Map<number, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () =>
      answerOrFail(res, async () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const k = trialIndex(promptText(body));
        const seen = seenByK.get(k) ?? 0;
        seenByK.set(k, seen + 1);
        const r: SeenRequest = {
          n: requests.length,
          k,
          seen,
          body,
          authorization: req.headers.authorization,
          at: Date.now(),
        };
        requests.push(r);
        const a = script(r);
        if (latencyMs > 0) await new Promise((x) => setTimeout(x, latencyMs));
        const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
          res.writeHead(status, { 'content-type': 'application/json', ...headers });
          res.end(JSON.stringify(value));
        };
        switch (a.kind) {
          case 'ok':
            return json(200, {
              id: `cmpl-${r.n}`,
              object: 'chat.completion',
              model: body.model,
              system_fingerprint: 'fp_test',
              choices: [
                {
                  index: 0,
                  message: {
                    role: 'assistant',
                    content: a.text ?? `answer to trial ${k}`,
                    ...(a.reasoning ? { reasoning_content: a.reasoning } : {}),
                  },
                  finish_reason: a.finish_reason ?? 'stop',
                },
              ],
              usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
            });
          case 'status':
            res.writeHead(a.status, { 'content-type': 'application/json', ...(a.headers ?? {}) });
            return res.end(a.body ?? JSON.stringify({ error: { message: `status ${a.status}` } }));
          case 'slow':
            await new Promise((x) => setTimeout(x, a.ms));
            if (!res.destroyed)
              json(200, { choices: [{ message: { content: 'too late' }, finish_reason: 'stop' }] });
            return;
          case 'drop':
            return req.socket.destroy();
          case 'invalid_json':
            res.writeHead(200, { 'content-type': 'application/json' });
            return res.end('{"choices": [ {"message": ');
          case 'no_choices':
            return json(200, { id: 'x', object: 'chat.completion', choices: [] });
        }
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
