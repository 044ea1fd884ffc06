/** Long-running commands (`label serve`, `view`): wait for Ctrl-C or SIGTERM, then return. */

/** Resolves at the first SIGINT or SIGTERM. */
export function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** Where a server listens, as `view` and `label serve` announce it. */
export interface Listening {
  url: string;
  port: number;
  token: string;
}

/**
 * With `--json`, print one JSON line on stdout as soon as the server listens: `event:
 * "listening"`, the URL (token included), host, port and token (give it as `?token=…` once, which
 * sets a cookie, or send the cookie `stimkit_token_<port>`), and `extra` (rater, store, …). The
 * summary follows when the server stops.
 */
export function announceListening(
  io: { stdout: (t: string) => void },
  json: boolean,
  command: string,
  running: Listening,
  extra: Record<string, unknown> = {},
): void {
  if (!json) return;
  const host = new URL(running.url).hostname;
  const line = {
    ok: true,
    event: 'listening',
    command,
    url: running.url,
    host,
    port: running.port,
    token: running.token,
    auth: `?token=<token> in the URL (sets a cookie) or the cookie stimkit_token_${running.port}=<token>`,
    ...extra,
  };
  io.stdout(`${JSON.stringify(line)}\n`);
}
