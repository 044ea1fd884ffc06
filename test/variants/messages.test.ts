/** Lock messages: absolute paths of this machine become paths relative to the output folder. */
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockMessage } from '../../src/variants/messages.js';

describe('lockMessage', () => {
  const tmp = os.tmpdir();
  const out = path.join(tmp, 'out', 'demo');

  it('rewrites quoted, bare and sentence-final paths relative to the output folder', () => {
    const img = path.join(tmp, 'corpus', 'horse.png');
    expect(lockMessage(`ENOENT: no such file or directory, open '${img}'`, out)).toBe(
      "ENOENT: no such file or directory, open '../../corpus/horse.png'",
    );
    expect(lockMessage(`${img}: entry horse: changed.`, out)).toBe(
      '../../corpus/horse.png: entry horse: changed.',
    );
    expect(lockMessage(`cannot read ${img}.`, out)).toBe('cannot read ../../corpus/horse.png.');
    expect(lockMessage(`inside (${path.join(out, 'horse', 'A0-original.png')})`, out)).toBe(
      'inside (horse/A0-original.png)',
    );
  });

  it('leaves ratios, URLs, flags and paths that do not exist here alone', () => {
    const text =
      'use --shard 1/2, see https://github.com/xuebinqin/DIS and (v-128)/256; no /models/medium model';
    expect(lockMessage(text, out)).toBe(text);
  });
});
