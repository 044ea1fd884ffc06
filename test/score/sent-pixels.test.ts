// "Were two models sent different pixels?" compares decoded pixels, not bytes: a PNG and the same
// pixels written again as another PNG (other zlib level and filters, a grey image stored as RGB)
// are the same image; one changed pixel is not. An image whose bytes cannot be had is compared
// by its bytes, and counted.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/core/fsio.js';
import { pixelDifferences, pixelDigest, type SentImageKey } from '../../src/score/sent-pixels.js';

const W = 7;
const H = 5;
/** A grey gradient, as 8-bit grey samples. */
const grey = Buffer.from(Array.from({ length: W * H }, (_, i) => (i * 37) % 256));

type PngOptions = NonNullable<Parameters<ReturnType<typeof sharp>['png']>[0]>;

const png = (data: Buffer, channels: 1 | 3, options: PngOptions) =>
  sharp(data, { raw: { width: W, height: H, channels } })
    .png(options)
    .toBuffer();

describe('sent images: different pixels, not different bytes', async () => {
  const a = await png(grey, 1, { compressionLevel: 9, adaptiveFiltering: false });
  // the same pixels re-encoded: as RGB, another zlib level, adaptive filtering
  const rgb = Buffer.from([...grey].flatMap((v) => [v, v, v]));
  const b = await png(rgb, 3, { compressionLevel: 1, adaptiveFiltering: true });
  // one pixel changed
  const changed = Buffer.from(grey);
  changed[12] = (changed[12]! + 1) % 256;
  const c = await png(changed, 1, { compressionLevel: 9, adaptiveFiltering: false });
  const bySha = new Map([a, b, c].map((x) => [sha256(x), x]));
  const sent = (model: string, bytes: Buffer, trial = 't1'): SentImageKey => ({
    model,
    trial_id: trial,
    source: 'f'.repeat(64),
    sha256: sha256(bytes),
  });
  const bytesOf = (i: SentImageKey) => Promise.resolve(bySha.get(i.sha256) ?? null);

  it('the fixture: a and b differ in bytes, not in pixels; c differs in one pixel', async () => {
    expect(sha256(a)).not.toBe(sha256(b));
    expect(await pixelDigest(a)).toBe(await pixelDigest(b));
    expect(await pixelDigest(a)).not.toBe(await pixelDigest(c));
  });

  it('does not flag two encodings of the same pixels', async () => {
    const d = await pixelDifferences([sent('m1', a), sent('m2', b)], bytesOf);
    expect([...d.byModel.keys()]).toEqual([]);
    expect(d.byBytes).toBe(0);
  });

  it('flags the model sent other pixels, against each model it differs from', async () => {
    const d = await pixelDifferences(
      [sent('m1', a), sent('m2', b), sent('m3', c), sent('m1', a, 't2'), sent('m3', a, 't2')],
      bytesOf,
    );
    const got = Object.fromEntries(
      [...d.byModel].map(([m, x]) => [m, { n: x.n, from: [...x.from].sort() }]),
    );
    expect(got).toEqual({
      m1: { n: 1, from: ['m3'] },
      m2: { n: 1, from: ['m3'] },
      m3: { n: 1, from: ['m1', 'm2'] },
    });
  });

  it('compares by bytes, and counts them, what it cannot have or decode', async () => {
    const none = () => Promise.resolve(null);
    const d = await pixelDifferences([sent('m1', a), sent('m2', b)], none);
    expect([...d.byModel.keys()].sort()).toEqual(['m1', 'm2']);
    expect(d.byBytes).toBe(2);
    // bytes that are not those recorded (another sha256) are not trusted either
    const wrong = () => Promise.resolve(c);
    expect((await pixelDifferences([sent('m1', a), sent('m2', b)], wrong)).byBytes).toBe(2);
  });
});
