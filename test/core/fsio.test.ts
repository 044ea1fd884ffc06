/**
 * writeIfChanged writes the caller's bytes without copying them first: what it writes and compares
 * must be exactly the view it was given, also a view into the middle of a larger buffer.
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256File, writeIfChanged } from '../../src/core/fsio.js';
import { tempDir } from '../helpers/tmp.js';

describe('core/fsio writeIfChanged', () => {
  it('writes exactly a view with an offset, then finds the same bytes unchanged', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'out.bin');
    const whole = Uint8Array.from({ length: 64 }, (_, i) => i);
    const view = whole.subarray(10, 20);
    expect(await writeIfChanged(file, view)).toBe(true);
    expect([...(await readFile(file))]).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    expect(await writeIfChanged(file, whole.slice(10, 20))).toBe(false);
    expect(await writeIfChanged(file, whole.subarray(11, 21))).toBe(true);
    expect([...(await readFile(file))]).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(await writeIfChanged(file, 'text')).toBe(true);
    expect(await readFile(file, 'utf8')).toBe('text');
  });
});

describe('core/fsio sha256File', () => {
  it('gives the sha256 of the bytes, for a file read whole and for one streamed (over 8 MiB)', async () => {
    const dir = await tempDir('stimkit-fsio-hash-');
    for (const size of [0, 1000, (8 << 20) + 1]) {
      const bytes = Buffer.alloc(size);
      for (let i = 0; i < size; i++) bytes[i] = (i * 7919) & 0xff;
      const file = path.join(dir, `f-${size}`);
      await writeFile(file, bytes);
      expect(await sha256File(file), `${size} bytes`).toBe(
        createHash('sha256').update(bytes).digest('hex'),
      );
    }
    await expect(sha256File(path.join(dir, 'missing'))).rejects.toThrow(/ENOENT/);
  });
});
