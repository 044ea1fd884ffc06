// The command line's contract: exit codes 0 / 1 / 2, --json on every command, help and version.
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/index.js';
import { runCli } from '../helpers/cli.js';

describe('usage errors', () => {
  it('exit 2, and with --json say why on stdout too', async () => {
    const run = await runCli(['ingest', '--json']);
    expect(run.code).toBe(2);
    expect(run.json()).toMatchObject({
      ok: false,
      error: {
        code: 'E_USAGE',
        message: expect.stringContaining("missing required argument 'entries'"),
      },
    });
    const bad = await runCli(['ingest', 'x.yaml', '--jobs', '0', '--json']);
    expect(bad.code).toBe(2);
    expect(bad.json().error.message).toContain('Expected a positive integer');
    expect((await runCli(['--version'])).code).toBe(0);
    expect((await runCli(['no-such-command'])).code).toBe(2);
  });
});

describe('every command', () => {
  it('accepts --json and documents it', async () => {
    for (const spec of COMMANDS) {
      const help = await runCli([spec.name, '--help']);
      expect(help.code, spec.name).toBe(0);
      expect(help.stdout, spec.name).toContain('--json');
    }
  });
});
