/**
 * Error codes do not depend on `--jobs`. libvips keeps one error buffer for every thread, so when
 * two images fail at the same moment one can be given the other's message; a code read from the
 * message then depends on timing. Many damaged files at once (truncated and corrupt JPEGs and
 * PNGs, made from the demo photos, provenance in corpora/demo/SOURCES.md) must get the same code
 * at --jobs 8 as at --jobs 1, every time, and a truncated file is always E_IMAGE_TRUNCATED.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { DEMO_DIR, entry, writeManifest } from './fixtures.js';

// Limits that grow with the load (test/helpers/limits.ts): 306 s a test, 126 s a hook on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(17), hookTimeout: heavyLimit(7) });

const PHOTOS = ['astronaut.png', 'camera.png', 'chelsea.png', 'coffee.png', 'horse.png'];

let manifest: string;
/** Entries built to be truncated: their code is E_IMAGE_TRUNCATED whatever the decoder says. */
const truncated = new Set<string>();

/** Damaged versions of `bytes`: cut at three points, and overwritten with noise in two places. */
function damaged(bytes: Buffer): Array<[string, Buffer, boolean]> {
  const n = bytes.length;
  const noise = (from: number, len: number) =>
    Buffer.concat([bytes.subarray(0, from), Buffer.alloc(len, 0x55), bytes.subarray(from + len)]);
  return [
    ['cut30', bytes.subarray(0, Math.floor(n * 0.3)), true],
    ['cut55', bytes.subarray(0, Math.floor(n * 0.55)), true],
    ['cut85', bytes.subarray(0, Math.floor(n * 0.85)), true],
    ['noise-head', noise(Math.min(600, n >> 3), 400), false],
    ['noise-mid', noise(n >> 1, Math.min(4000, n >> 4)), false],
  ];
}

beforeAll(async () => {
  const dir = await tempDir('stimkit-ingest-jobs-');
  const entries: unknown[] = [];
  const sources: Array<[string, Buffer]> = [
    ['rocket.jpg', await readFile(path.join(DEMO_DIR, 'rocket.jpg'))],
  ];
  for (const p of PHOTOS) {
    const png = await readFile(path.join(DEMO_DIR, p));
    sources.push([p, png]);
    sources.push([p.replace('.png', '.jpg'), await sharp(png).jpeg({ quality: 85 }).toBuffer()]);
  }
  for (const [name, bytes] of sources) {
    for (const [kind, data, isCut] of damaged(bytes)) {
      const id = `${name.replace(/\./g, '-')}-${kind}`;
      const file = `${id}${path.extname(name)}`;
      await writeFile(path.join(dir, file), data);
      entries.push(entry(id, file));
      if (isCut) truncated.add(id);
    }
  }
  manifest = await writeManifest(dir, entries);
});

async function codes(jobs: number): Promise<Record<string, string>> {
  const r = await runCli(['ingest', manifest, '--jobs', String(jobs), '--json']);
  expect(r.code).toBe(1);
  const out: Record<string, string> = {};
  for (const p of r.json().problems as Array<{ entry?: string; code: string }>)
    if (p.entry) out[p.entry] = p.code;
  return out;
}

describe('ingest: the code of a damaged image does not depend on --jobs', () => {
  it('gives every damaged file the same code at --jobs 8 (three times) as at --jobs 1', async () => {
    const one = await codes(1);
    expect(Object.keys(one).length).toBeGreaterThanOrEqual(truncated.size);
    for (const id of truncated) expect(one[id], id).toBe('E_IMAGE_TRUNCATED');
    for (let i = 0; i < 3; i++) expect(await codes(8)).toEqual(one);
  });
});
