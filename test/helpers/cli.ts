/** Run the stimkit CLI in-process or as a real child process, capturing stdout, stderr and exit code. */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (throws if it is not). */
  json: () => any;
}

/** Run `stimkit <args>` in this process (fast; same code path as the binary after argv). */
export async function runCli(args: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(['node', 'stimkit', ...args], {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
  });
  return { code, stdout, stderr, json: () => JSON.parse(stdout) };
}

/** Run the built binary `bin/stimkit.js` as a child process (needs dist/, built by global setup). */
export function spawnCli(args: string[], cwd = ROOT): CliRun {
  const r = spawnSync(process.execPath, [`${ROOT}bin/stimkit.js`, ...args], {
    cwd,
    encoding: 'utf8',
  });
  return {
    code: r.status ?? -1,
    stdout: r.stdout,
    stderr: r.stderr,
    json: () => JSON.parse(r.stdout),
  };
}
