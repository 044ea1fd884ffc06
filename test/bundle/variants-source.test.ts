// When may the bundle reuse a variants lock? Only when recipe, library versions and files agree.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { variantsStaleness } from '../../src/bundle/variants-source.js';
import { readCorpusLock } from '../../src/ingest/lock.js';
import { resolveRecipe } from '../../src/variants/recipe.js';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const DEMO_VARIANTS = path.join(ROOT, 'variants', 'demo', 'variants.lock.json');

async function originals(): Promise<Map<string, string | null>> {
  const lock = await readCorpusLock(path.join(ROOT, 'corpora', 'demo', 'corpus.lock.json'));
  return new Map(lock.entries.map((e) => [e.id, e.image.resolved.sha256]));
}

describe('variantsStaleness', () => {
  const keys = new Set(['chelsea-cat/A0', 'chelsea-cat/A3']);

  it('reuses the committed demo lock for the default recipe', async () => {
    const s = await variantsStaleness(
      DEMO_VARIANTS,
      await originals(),
      await resolveRecipe(undefined, {}),
      keys,
    );
    expect('lock' in s).toBe(true);
  });

  it('refuses a lock made with other image-library versions', async () => {
    const dir = await tempDir();
    const lock = JSON.parse(await readFile(DEMO_VARIANTS, 'utf8'));
    lock.libraries.sharp.vips = '0.0.1';
    // Point the copy's file paths back at the committed outputs, so only the libraries differ.
    for (const e of lock.entries)
      for (const v of e.variants)
        if (v.file) v.file = path.relative(dir, path.join(ROOT, 'variants', 'demo', v.file));
    const file = path.join(dir, 'variants.lock.json');
    await writeFile(file, JSON.stringify(lock));
    const s = await variantsStaleness(
      file,
      await originals(),
      await resolveRecipe(undefined, {}),
      keys,
    );
    expect(s).toEqual({
      reason: 'the image libraries (sharp/libvips, opencv-wasm) changed',
    });
  });
});
