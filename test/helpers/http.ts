/** GET a page of a local stimkit server (view, label serve) on 127.0.0.1, with its session cookie unless `token` is null. */
import { request } from 'node:http';

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
