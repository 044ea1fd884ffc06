/**
 * The live test judge: a chat-completions server on 127.0.0.1 answering every request with
 * judgeCompletion (judge-answer.ts), or, `refuse`, counting each request and answering 500 (a
 * stand-in for "the network": a score that must send nothing asserts its count stays 0).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { judgeCompletion } from './judge-answer.js';

export interface JudgeServer {
  url: string;
  requests: number;
  close: () => Promise<void>;
}

/** Start the test judge server. */
export async function startJudgeServer(refuse = false): Promise<JudgeServer> {
  const state = { requests: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.requests++;
      if (refuse) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'this test sends nothing' } }));
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(judgeCompletion(body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
