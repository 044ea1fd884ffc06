/**
 * Locks as stimkit writes them are read without the YAML reader (a quarter of a second in a
 * fresh process), to the same value; any other text (hand-edited, reformatted, a duplicate key)
 * still goes through the YAML reader and its line-numbered problems.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { loadDataFile, yaml } from '../../src/core/datafile.js';
import { CorpusLock, readCorpusLock } from '../../src/ingest/lock.js';
import { resolveInput } from '../../src/variants/input.js';
import { readVariantsLock, VariantsLock } from '../../src/variants/lock.js';
import { tempDir } from '../helpers/tmp.js';
import { DEMO_LOCK } from './helpers.js';

const VARIANTS_LOCK = new URL('../../variants/demo/variants.lock.json', import.meta.url).pathname;
// The YAML reader stimkit loads on first use (core/datafile.ts `yaml`), watched.
const parses = vi.spyOn(yaml(), 'parseDocument');

beforeEach(() => {
  parses.mockClear();
});

describe('reading a lock stimkit wrote', () => {
  it('a corpus lock: no YAML pass, the value of the YAML reader', async () => {
    const input = await resolveInput(DEMO_LOCK, '/tmp/unused-out');
    expect(parses).not.toHaveBeenCalled();
    expect(input.corpusLock).toEqual(await readCorpusLock(DEMO_LOCK));
    expect(parses).toHaveBeenCalled();
  });

  it('a variants lock: no YAML pass, the value of the YAML reader', async () => {
    const lock = await readVariantsLock(VARIANTS_LOCK);
    expect(parses).not.toHaveBeenCalled();
    const slow = await loadDataFile(VARIANTS_LOCK, VariantsLock, 'E_VARIANTS_LOCK_INVALID');
    expect(lock).toEqual(slow.data);
  });
});

describe('any other text goes through the YAML reader', () => {
  it('reformatted: the same value', async () => {
    const dir = await tempDir('stimkit-lock-read-');
    const file = path.join(dir, 'corpus.lock.json');
    const text = await readFile(DEMO_LOCK, 'utf8');
    await writeFile(file, JSON.stringify(JSON.parse(text)));
    const input = await resolveInput(file, path.join(dir, 'out'));
    expect(parses).toHaveBeenCalled();
    expect(input.corpusLock).toEqual(CorpusLock.parse(JSON.parse(text)));
  });

  it('a duplicate key (which JSON.parse would take silently) is still rejected with its line', async () => {
    const dir = await tempDir('stimkit-lock-read-');
    const file = path.join(dir, 'variants.lock.json');
    const text = await readFile(VARIANTS_LOCK, 'utf8');
    await writeFile(
      file,
      text.replace('\n  "corpus": "demo",', '\n  "corpus": "demo",\n  "corpus": "demo",'),
    );
    const err = await readVariantsLock(file).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_VARIANTS_LOCK_INVALID' });
    expect((err as { problems: Array<{ line?: number }> }).problems[0]!.line).toBe(9);
  });
});
