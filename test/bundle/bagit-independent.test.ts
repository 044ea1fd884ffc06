/**
 * Bundles checked by BagIt code that shares nothing with stimkit's reader or writer:
 *
 * - `bagit_validate.py` (next to this file): a Python-standard-library BagIt 1.0 validator written
 *   from RFC 8493 (provenance in its header). Runs with /usr/bin/python3, else `python3` on the
 *   PATH; skipped only when there is no python3 at all (the test title then says so).
 * - Opt-in: `bagit.py` from bagit-python, when STIMKIT_BAGIT_VALIDATOR names a command that
 *   accepts `--validate DIR`, or when `bagit.py` is on the PATH.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, cp, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { bundleStudy } from '../../src/bundle/bundle.js';
import { sha256 } from '../../src/core/fsio.js';
import { requirePresent, skippedOnRequest } from '../helpers/committed.js';
import { tempDir } from '../helpers/tmp.js';
import { writeFixtureBag } from '../verify/fixture.js';
import { writeFixtureProject } from './fixture.js';

// Limits that grow with the load (test/helpers/limits.ts): 126 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(7), hookTimeout: heavyLimit(7) });

const VALIDATOR = fileURLToPath(new URL('./bagit_validate.py', import.meta.url));

function findPython(): string | null {
  for (const cmd of ['/usr/bin/python3', 'python3']) {
    if (cmd.startsWith('/') && !existsSync(cmd)) continue;
    if (spawnSync(cmd, ['-c', 'import hashlib, codecs'], { encoding: 'utf8' }).status === 0)
      return cmd;
  }
  return null;
}

function bagitPy(): string[] | null {
  const env = process.env.STIMKIT_BAGIT_VALIDATOR;
  if (env) return env.split(' ').filter(Boolean);
  return spawnSync('sh', ['-c', 'command -v bagit.py'], { encoding: 'utf8' }).status === 0
    ? ['bagit.py']
    : null;
}

const python = findPython();
const opt = bagitPy();

let root: string;
let bundle: string;

async function sealed(): Promise<string> {
  if (!bundle) {
    root = await tempDir('stimkit-bagit-');
    const study = await writeFixtureProject(path.join(root, 'project'));
    bundle = (
      await bundleStudy(study, { out: path.join(root, 'bag'), work: path.join(root, 'work') })
    ).out!;
  }
  return bundle;
}

describe.skipIf(skippedOnRequest(python !== null, 'STIMKIT_NO_PYTHON', 'bagit-independent'))(
  `the stdlib BagIt validator (test/bundle/bagit_validate.py, run with ${python ?? 'python3: NOT FOUND'})`,
  () => {
    const validate = (dir: string, profile = true) => {
      const r = spawnSync(python!, [VALIDATOR, ...(profile ? ['--profile', 'stimkit'] : []), dir], {
        encoding: 'utf8',
      });
      return { status: r.status, out: `${r.stdout}${r.stderr}` };
    };

    beforeAll(async () => {
      requirePresent(
        python !== null,
        'python3 (neither /usr/bin/python3 nor python3 on the PATH)',
        'STIMKIT_NO_PYTHON',
      );
      await sealed();
    });

    it('accepts a sealed bundle and the verify fixture bag', async () => {
      const ok = validate(bundle);
      expect(ok.status, ok.out).toBe(0);
      expect(ok.out.trim().split('\n').at(-1)).toBe('VALID');
      const small = path.join(root, 'small');
      await writeFixtureBag(small);
      expect(validate(small).status).toBe(0);
    });

    it('rejects every kind of damage, naming the file', async () => {
      const cases: Array<[string, (dir: string) => Promise<void>, RegExp]> = [
        [
          'one byte appended to a payload file',
          (d) => appendFile(path.join(d, 'data', 'trials.jsonl'), ' '),
          /checksum mismatch for data\/trials\.jsonl/,
        ],
        [
          'a payload file deleted',
          (d) => rm(path.join(d, 'data', 'counts.json')),
          /lists data\/counts\.json, which is not in the bag/,
        ],
        [
          'a payload file added',
          (d) => writeFile(path.join(d, 'data', 'notes.txt'), 'x'),
          /payload file data\/notes\.txt is not listed/,
        ],
        [
          'bag-info.txt edited',
          (d) => appendFile(path.join(d, 'bag-info.txt'), 'Contact-Name: someone\n'),
          /checksum mismatch for bag-info\.txt/,
        ],
        [
          'the tag manifest deleted',
          (d) => rm(path.join(d, 'tagmanifest-sha256.txt')),
          /tagmanifest-sha256\.txt is missing/,
        ],
        [
          'bagit.txt rewritten',
          (d) => writeFile(path.join(d, 'bagit.txt'), 'BagIt-Version: 1.0\n'),
          /bagit\.txt must have exactly two lines/,
        ],
      ];
      for (const [label, damage, expected] of cases) {
        const dir = path.join(root, `damaged-${label.replace(/\W+/g, '-')}`);
        await cp(bundle, dir, { recursive: true });
        await damage(dir);
        const r = validate(dir);
        expect(r.status, `${label}: ${r.out}`).toBe(1);
        expect(r.out, label).toMatch(expected);
      }
    });

    it('is not a mirror of the stimkit writer: accepts RFC forms stimkit never writes, rejects paths leaving the bag', async () => {
      const dir = path.join(root, 'handmade');
      await mkdir(path.join(dir, 'data'), { recursive: true });
      const body = Buffer.from('hello');
      await writeFile(path.join(dir, 'data', 'a%b.txt'), body);
      await writeFile(
        path.join(dir, 'bagit.txt'),
        'BagIt-Version: 1.0\r\nTag-File-Character-Encoding: UTF-8\r\n',
      );
      await writeFile(
        path.join(dir, 'manifest-sha256.txt'),
        `${sha256(body).toUpperCase()}\tdata/a%25b.txt\r\n`,
      );
      await writeFile(
        path.join(dir, 'bag-info.txt'),
        'Payload-Oxum: 5.1\r\nExternal-Description: a value\r\n  continued\r\n',
      );
      const ok = validate(dir, false);
      expect(ok.status, ok.out).toBe(0);
      await appendFile(
        path.join(dir, 'manifest-sha256.txt'),
        `${'0'.repeat(64)}  data/../../etc/passwd\n`,
      );
      const bad = validate(dir, false);
      expect(bad.status).toBe(1);
      expect(bad.out).toContain("'data/../../etc/passwd'");
    });

    it('exits 2 without a bag folder', () => {
      expect(validate(path.join(root, 'no-such-folder')).status).toBe(2);
    });
  },
);

describe.skipIf(opt === null)(
  'bagit.py (opt-in: STIMKIT_BAGIT_VALIDATOR or bagit.py on the PATH)',
  () => {
    it('accepts a bundle and rejects it after one byte changes', async () => {
      const dir = await sealed();
      const run = (d: string) =>
        spawnSync(opt![0]!, [...opt!.slice(1), '--validate', d], { encoding: 'utf8' });
      const ok = run(dir);
      expect(ok.status, ok.stdout + ok.stderr).toBe(0);
      const bad = path.join(root, 'bad');
      await cp(dir, bad, { recursive: true });
      await appendFile(path.join(bad, 'data', 'trials.jsonl'), ' ');
      expect(run(bad).status).not.toBe(0);
    });
  },
);
