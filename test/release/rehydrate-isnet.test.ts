/**
 * `stimkit rehydrate` of an A6 silhouette made by IS-Net (the network, not GrabCut) from a withheld
 * image: a study whose abstraction entry is "all rights reserved" is released (neither the image
 * nor its A6 ships), then rebuilt from the original file: the A6 is byte-identical to the sealed
 * bundle's, and release.json's file list names every image written, with its bytes and sha256.
 *
 * Both IS-Net runs (the variants stage inside `bundle`, then inside `rehydrate`) segment with the
 * worker's one loaded network (segment/shared-isnet.ts, `shareIsnetLoads`) rather than loading it
 * twice (about 8 CPU-s each time with its first inference). Each still gets it through the
 * variants stage's default factory with the parameters from its own recipe (the study's, then the
 * one release.json records), and the shared network is keyed by those parameters' description: a
 * rehydrate that lost or changed one would segment with another network and fail the byte check.
 * That separate loads (other processes, other thread counts) give the same masks is what
 * segment/isnet-processes.test.ts proves.
 */
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { bundleStudy } from '../../src/bundle/bundle.js';
import { sha256 } from '../../src/core/fsio.js';
import { listFiles } from '../../src/core/walk.js';
import { runCli } from '../helpers/cli.js';
import { heavyLimit } from '../helpers/limits.js';
import { tempDir } from '../helpers/tmp.js';
import { releaseArgs, writeSimModels } from './sim-models.js';
import { FIXTURE_STUDY, writeFixtureProject } from '../bundle/fixture.js';
import { shareIsnetLoads } from '../variants/segment/shared-isnet.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
let dir: string;
let bundle: string;
let a6: { sha256: string; bytes: Buffer; record: Record<string, unknown> };
let withheld: string[];
let restore: (() => void) | undefined;

afterAll(() => restore?.());

beforeAll(async () => {
  restore = shareIsnetLoads();
  dir = await tempDir('stimkit-rehydrate-isnet-');
  const study = await writeFixtureProject(dir, {
    ...FIXTURE_STUDY,
    variants: { lock: 'variants/variants.lock.json', silhouette: 'isnet' },
  });
  const entriesFile = path.join(dir, 'mini.entries.yaml');
  const m = parse(await readFile(entriesFile, 'utf8'));
  const entry = m.entries.find((e: { id: string }) => e.id === 'abstraction-01');
  entry.provenance = { ...entry.provenance, license: 'all rights reserved' };
  await writeFile(entriesFile, stringify(m));
  bundle = (await bundleStudy(study, { out: path.join(dir, 'bundle'), work: path.join(dir, 'w') }))
    .out!;
  const variants = JSON.parse(await readFile(path.join(bundle, 'data', 'variants.json'), 'utf8'));
  const mine = variants.records.filter((v: any) => v.entry === 'abstraction-01');
  withheld = mine.map((v: any) => v.sha256);
  const rec = mine.find((v: any) => v.code === 'A6');
  a6 = {
    sha256: rec.sha256,
    bytes: await readFile(path.join(bundle, 'data', 'images', `${rec.sha256}.png`)),
    record: rec,
  };
  const models = await writeSimModels(path.join(dir, 'models.yaml'));
  const ledger = path.join(dir, 'ledger.sqlite');
  expect((await runCli(['run', bundle, '--models', models, '--ledger', ledger])).code).toBe(0);
  const scores = path.join(dir, 'scores');
  const s = await runCli(['score', '--bundle', bundle, '--ledger', ledger, '--out', scores]);
  expect(s.code, s.stderr).toBe(0);
  await copyFile(path.join(FIXTURES, 'release.yaml'), path.join(dir, 'release.yaml'));
  const meta = path.join(dir, 'release.yaml');
  const r = await runCli(
    releaseArgs({ bundle, ledger, scores, meta, out: path.join(dir, 'release') }),
  );
  expect(r.code, r.stderr).toBe(0);
}, heavyLimit(40)); // variants with IS-Net, a bundle and a release (about 40 s on a quiet machine)

/** Every file of the release folder with its sha256. */
async function shas(folder: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const f of await listFiles(folder))
    if (f.regular) out.set(f.path, sha256(await readFile(path.join(folder, f.path))));
  return out;
}

describe('rehydrate an IS-Net silhouette', () => {
  it('the A6 was made by IS-Net, and the release ships neither it nor the source', async () => {
    expect(JSON.stringify(a6.record)).toContain('isnet');
    const files = await shas(path.join(dir, 'release'));
    for (const sha of withheld) expect([...files.values()]).not.toContain(sha);
    const header = JSON.parse(await readFile(path.join(dir, 'release', 'release.json'), 'utf8'));
    expect(header.withheld.map((w: any) => w.entry)).toEqual(['abstraction-01']);
    expect(header.withheld[0].images.map((i: any) => i.code)).toContain('A6');
  });

  it(
    'rebuilds the A6 byte-identical from the original, and lists every image in release.json',
    async () => {
      const release = path.join(dir, 'release');
      const run = await runCli([
        'rehydrate',
        release,
        '--images',
        path.join(dir, 'images'),
        '--json',
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(await readFile(path.join(release, 'images', `${a6.sha256}.png`))).toEqual(a6.bytes);
      const header = JSON.parse(await readFile(path.join(release, 'release.json'), 'utf8'));
      const listed = new Map<string, { bytes: number; sha256: string }>(
        header.files.map((f: any) => [f.file, f]),
      );
      for (const sha of withheld)
        expect(listed.get(`images/${sha}.png`), sha).toMatchObject({ sha256: sha });
      expect(listed.get(`images/${a6.sha256}.png`)!.bytes).toBe(a6.bytes.length);
      // the list is the folder: every file but release.json itself, each with its sha256
      const files = await shas(release);
      files.delete('release.json');
      expect(new Map([...listed].map(([f, x]) => [f, x.sha256]))).toEqual(files);
      expect(header.files.map((f: any) => f.file)).toEqual(
        [...header.files.map((f: any) => f.file)].sort(),
      );
    },
    heavyLimit(20),
  ); // IS-Net runs once more
});
