/**
 * The one reader of sealed bundles, through each command's entry point (label and view, score,
 * the simulator, run and batch): a payload file changed after sealing, a trial line that is not a
 * trial, a header of another format version, a manifest line that cannot be read, and a missing
 * payload file are each a StimkitError with the command's code naming the file (and the line);
 * payload files are read only when asked for.
 */
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { openBundle } from '../../src/bundle/reader.js';
import { sha256 } from '../../src/core/fsio.js';
import { loadBundle } from '../../src/label/bundle.js';
import { readRunBundle } from '../../src/run/select.js';
import { loadScoreBundle } from '../../src/score/bundle.js';
import { loadSimBundle } from '../../src/sim/index.js';
import { instrumentBundle, type InstrumentFixture } from '../score/fixture.js';
import { stimkitRejection } from '../helpers/errors.js';
import { tempDir } from '../helpers/tmp.js';

// Limits that grow with the load (test/helpers/limits.ts): 72 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(4), hookTimeout: heavyLimit(7) });

let fx: InstrumentFixture;
let root: string;
let copies = 0;

beforeAll(async () => {
  root = await tempDir('stimkit-reader-');
  fx = await instrumentBundle(root, { iterations: 1, ptIterations: 0 });
});

/** A copy of the fixture bundle with `edit` applied to payload file `rel` (under `data/`). */
async function altered(
  rel: string,
  edit: (text: string) => string,
  reseal: boolean,
): Promise<string> {
  const dir = path.join(root, `copy-${++copies}`);
  await cp(fx.bundle, dir, { recursive: true });
  const file = path.join(dir, 'data', rel);
  const text = edit(await readFile(file, 'utf8'));
  await writeFile(file, text);
  if (reseal) {
    const manifest = path.join(dir, 'manifest-sha256.txt');
    const lines = (await readFile(manifest, 'utf8'))
      .split('\n')
      .map((l) => (l.endsWith(`  data/${rel}`) ? `${sha256(text)}  data/${rel}` : l));
    await writeFile(manifest, lines.join('\n'));
  }
  return dir;
}

/** The second trial line with its messages removed: JSON, but not a trial. */
const breakSecondTrial = (text: string) =>
  text
    .split('\n')
    .map((l, i) => {
      if (i !== 1) return l;
      const { messages: _gone, ...rest } = JSON.parse(l) as Record<string, unknown>;
      return JSON.stringify(rest);
    })
    .join('\n');

describe('the bundle reader', () => {
  it('reads the header at once and the trials, items and pools when asked', async () => {
    const b = await openBundle(fx.bundle, 'E_TEST');
    expect(b.digest).toBe(fx.digest);
    expect(b.header.study.id).toBe('instrument-fixture');
    expect((await b.trials()).length).toBeGreaterThan(0);
    expect((await b.items())!.items.length).toBeGreaterThan(0);
    expect(Object.keys((await b.wrappers())!.pools).sort()).toEqual(['en', 'zh']);
    expect(await b.entries()).toBeNull();
  });

  it('reads no payload file a command does not ask for', async () => {
    const dir = await altered('wrappers.json', () => 'not json', false);
    const b = await openBundle(dir, 'E_TEST');
    expect((await b.trials()).length).toBeGreaterThan(0);
    const err = await stimkitRejection(b.wrappers());
    expect(err.code).toBe('E_TEST');
    expect(err.problems[0]!.message).toMatch(/changed after sealing/);
  });

  it('refuses a trials file changed after sealing, for label, score and run', async () => {
    const dir = await altered(
      'trials.jsonl',
      (t) => t.replace('"lang":"zh"', '"lang":"en"'),
      false,
    );
    for (const [load, code] of [
      [() => loadBundle(dir), 'E_LABEL_BUNDLE'],
      [() => loadScoreBundle(dir), 'E_SCORE_BUNDLE'],
      [() => readRunBundle(dir, fx.digest), 'E_RUN_BUNDLE_INVALID'],
    ] as const) {
      const err = await stimkitRejection(load());
      expect(err.code).toBe(code);
      expect(err.problems[0]!.file).toMatch(/trials\.jsonl$/);
      expect(err.problems[0]!.message).toMatch(/changed after sealing/);
    }
  });

  it('refuses an items file changed after sealing in the simulator (E_SIM_BUNDLE)', async () => {
    const dir = await altered(
      'items.json',
      (t) => t.replace('"polarity_key":1', '"polarity_key":-1'),
      false,
    );
    const err = await stimkitRejection(loadSimBundle(dir));
    expect(err.code).toBe('E_SIM_BUNDLE');
    expect(err.problems[0]!.file).toMatch(/items\.json$/);
  });

  it('refuses a trial line that is JSON but not a trial, naming file, line and field', async () => {
    const dir = await altered('trials.jsonl', breakSecondTrial, true);
    for (const [load, code] of [
      [() => loadBundle(dir), 'E_LABEL_BUNDLE'],
      [() => loadScoreBundle(dir), 'E_SCORE_BUNDLE'],
    ] as const) {
      const err = await stimkitRejection(load());
      expect(err.code).toBe(code);
      expect(err.problems[0]).toMatchObject({ line: 2, field: 'messages' });
      expect(err.problems[0]!.file).toMatch(/trials\.jsonl$/);
    }
  });

  it('refuses a header of another format version', async () => {
    const dir = await altered('bundle.json', (t) => t.replace('"version":1', '"version":2'), true);
    const err = await stimkitRejection(loadScoreBundle(dir));
    expect(err.code).toBe('E_SCORE_BUNDLE');
    expect(err.problems[0]).toMatchObject({ field: 'version' });
    expect(err.problems[0]!.file).toMatch(/bundle\.json$/);
  });

  it('refuses a manifest line it cannot read', async () => {
    const dir = path.join(root, `copy-${++copies}`);
    await cp(fx.bundle, dir, { recursive: true });
    await writeFile(path.join(dir, 'manifest-sha256.txt'), 'not a manifest line\n', { flag: 'a' });
    const err = await stimkitRejection(loadBundle(dir));
    expect(err.code).toBe('E_LABEL_BUNDLE');
    expect(err.problems[0]!.file).toMatch(/manifest-sha256\.txt$/);
  });

  it('refuses a missing trials file with the command code (run gave a bare ENOENT)', async () => {
    const dir = path.join(root, `copy-${++copies}`);
    await cp(fx.bundle, dir, { recursive: true });
    await rm(path.join(dir, 'data', 'trials.jsonl'));
    const err = await stimkitRejection(readRunBundle(dir, fx.digest));
    expect(err.code).toBe('E_RUN_BUNDLE_INVALID');
    expect(err.problems[0]!.file).toMatch(/trials\.jsonl$/);
    expect(err.problems[0]!.message).toMatch(/missing/);
  });

  it('refuses a folder that is not a bundle', async () => {
    const err = await stimkitRejection(loadSimBundle(root));
    expect(err.code).toBe('E_SIM_BUNDLE');
    expect(err.problems[0]!.message).toMatch(/not a sealed bundle/);
  });
});
