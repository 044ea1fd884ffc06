// `stimkit check` of an entries manifest decodes every image as ingest does: a truncated JPEG
// (the demo's rocket.jpg cut in half, its pin removed) is rejected by both with the same problem.
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkEntries } from '../../src/check/entries.js';
import { ingest } from '../../src/ingest/ingest.js';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const DEMO = path.join(ROOT, 'corpora', 'demo');
const IMAGES = ['astronaut.png', 'camera.png', 'chelsea.png', 'coffee.png', 'horse.png'];

async function corpus(truncate: boolean): Promise<string> {
  const dir = await tempDir('stimkit-check-decode-');
  const images = path.join(dir, 'images');
  await mkdir(images);
  for (const f of IMAGES) await copyFile(path.join(DEMO, f), path.join(images, f));
  const rocket = await readFile(path.join(DEMO, 'rocket.jpg'));
  await writeFile(
    path.join(images, 'rocket.jpg'),
    truncate ? rocket.subarray(0, rocket.length >> 1) : rocket,
  );
  const manifest = (await readFile(path.join(ROOT, 'manifests', 'demo.entries.yaml'), 'utf8'))
    .replace('images: ../corpora/demo', 'images: images')
    .replace(/\n {6}sha256: c2dd0de7[0-9a-f]+/, '');
  const file = path.join(dir, 'x.entries.yaml');
  await writeFile(file, manifest);
  return file;
}

const problemsOf = async (p: Promise<unknown>) => {
  const err = (await p.then(
    () => null,
    (e: unknown) => e,
  )) as { problems?: Array<{ code: string; entry?: string; severity: string }> } | null;
  return (err?.problems ?? []).filter((x) => x.severity === 'error');
};

describe('stimkit check of an entries manifest', () => {
  it('rejects a truncated JPEG that ingest rejects, with the same problem', async () => {
    const file = await corpus(true);
    const checked = await problemsOf(checkEntries(file));
    const result = await ingest(file, { out: path.dirname(file), jobs: 1 });
    const ingested = result.problems.filter((p) => p.severity === 'error');
    expect(result.lockWritten).toBe(false);
    expect(checked.length).toBe(1);
    expect(checked[0]).toMatchObject({ entry: 'dscovr-launch' });
    expect(checked[0]!.code).toBe('E_IMAGE_TRUNCATED');
    expect(ingested.map((p) => [p.code, p.entry])).toEqual([[checked[0]!.code, 'dscovr-launch']]);
  });

  it('accepts the same corpus whole', async () => {
    const r = await checkEntries(await corpus(false));
    expect(r.entries).toBe(6);
  });
});
