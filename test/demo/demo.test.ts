// `stimkit demo`, the main job: the whole pipeline on the demo corpus, offline, ending with a
// sealed and verified bundle whose digest it prints. (About half a minute: A6 runs the network.)
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

describe('stimkit demo', () => {
  it('runs ingest, variants, bundle and verify, and prints the digest', async () => {
    const out = path.join(await tempDir('stimkit-demo-'), 'demo');
    const run = await runCli(['demo', '--out', out, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const j = run.json();
    expect(j.steps.map((s: { step: string; ok: boolean }) => `${s.step}:${s.ok}`)).toEqual(['ingest:true', 'variants:true', 'bundle:true', 'verify:true']);
    expect(j.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(run.stderr).toContain(`bundle digest: ${j.digest}`);
    expect(await readdir(path.join(out, 'variants'))).toContain('contact-sheet.png');
    expect(await readdir(path.join(out, 'bundle'))).toEqual(expect.arrayContaining(['bagit.txt', 'manifest-sha256.txt', 'data']));
    // The bundle step reports the same digest the demo prints.
    expect(j.steps[2].summary.digest).toBe(j.digest);
  }, 240_000);
});
