/**
 * writeIfChanged writes the caller's bytes without copying them first: what it writes and compares
 * must be exactly the view it was given, also a view into the middle of a larger buffer.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeIfChanged } from '../../src/core/fsio.js';
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
