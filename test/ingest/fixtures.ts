/**
 * Fixtures for ingest tests, made in the tests: a small valid manifest, and broken images built
 * from the demo photos (provenance: corpora/demo/SOURCES.md) or from scratch.
 */
import { copyFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { stringify } from 'yaml';
import { PNG_SIGNATURE, pngChunk } from '../helpers/png.js';
import { tempDir } from '../helpers/tmp.js';

export const DEMO_DIR = new URL('../../corpora/demo/', import.meta.url).pathname;

/** A valid core entry with an image file name; override fields as needed. */
export function entry(
  id: string,
  file: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id,
    title: { en: `Title of ${id}`, zh: `${id} 的标题` },
    topic: 'test-topic',
    sensitivity: 'low',
    roles: ['core'],
    image: { file },
    provenance: { archive: 'test archive', credit: 'test credit', license: 'CC0-1.0' },
    expected_facts: [{ id: 'fact-1', en: 'An English fact.', zh: '一个中文事实。' }],
    ...extra,
  };
}

/** Write a manifest (as YAML) into `dir` and return its path. */
export async function writeManifest(
  dir: string,
  entries: unknown[],
  top: Record<string, unknown> = {},
): Promise<string> {
  const file = path.join(dir, 'test.entries.yaml');
  await writeFile(
    file,
    stringify({
      format: 'stimkit.entries',
      version: 1,
      corpus: 'test',
      languages: ['en', 'zh'],
      ...top,
      entries,
    }),
  );
  return file;
}

/** A temp corpus folder with copies of the named demo photos. */
export async function corpusWith(...photos: string[]): Promise<string> {
  const dir = await tempDir('stimkit-ingest-');
  for (const p of photos) await copyFile(path.join(DEMO_DIR, p), path.join(dir, p));
  return dir;
}

/** A small, valid-looking PNG whose header claims `width` × `height` RGB pixels (a decompression bomb). */
export function pngClaiming(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.alloc(1024))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
