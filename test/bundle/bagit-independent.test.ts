/**
 * Opt-in: validate a bundle with an independent BagIt implementation. Runs when
 * STIMKIT_BAGIT_VALIDATOR names a command that accepts `--validate DIR` (e.g. `bagit.py` from
 * bagit-python), or when `bagit.py` is on the PATH; skipped otherwise (CI cannot rely on it).
 */
import { spawnSync } from 'node:child_process';
import { appendFile, cp } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleStudy } from '../../src/bundle/bundle.js';
import { tempDir } from '../helpers/tmp.js';
import { writeFixtureProject } from './fixture.js';

function validator(): string[] | null {
  const env = process.env.STIMKIT_BAGIT_VALIDATOR;
  if (env) return env.split(' ').filter(Boolean);
  return spawnSync('sh', ['-c', 'command -v bagit.py'], { encoding: 'utf8' }).status === 0 ? ['bagit.py'] : null;
}

const cmd = validator();

describe.skipIf(cmd === null)('an independent BagIt validator', () => {
  it('accepts a bundle and rejects it after one byte changes', { timeout: 120_000 }, async () => {
    const root = await tempDir('stimkit-bagit-');
    const study = await writeFixtureProject(path.join(root, 'project'));
    const r = await bundleStudy(study, { out: path.join(root, 'bag'), work: path.join(root, 'work') });
    const run = (dir: string) => spawnSync(cmd![0]!, [...cmd!.slice(1), '--validate', dir], { encoding: 'utf8' });
    const ok = run(r.out!);
    expect(ok.status, ok.stdout + ok.stderr).toBe(0);
    const bad = path.join(root, 'bad');
    await cp(r.out!, bad, { recursive: true });
    await appendFile(path.join(bad, 'data', 'trials.jsonl'), ' ');
    expect(run(bad).status).not.toBe(0);
  });
});
