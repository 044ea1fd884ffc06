// The image bytes a model is sent: the bundle's PNG unchanged without an image block (and when
// a PNG needs no resizing), otherwise made by stimkit the same way every time. The golden
// sha256 values below were recorded once from this code; a machine whose libvips, zlib or JPEG
// encoder produced other bytes from the same pixels would fail here, which is the point.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/core/fsio.js';
import { ImageBlock } from '../../src/models/image.js';
import { pngSize, prepareImage } from '../../src/run/send-image.js';
import { patternPng } from './pattern.js';

const block = (b: unknown) => ImageBlock.parse(b);

describe('prepareImage', () => {
  it('sends the bundle bytes unchanged without a block, and for a PNG that needs no resizing', async () => {
    const png = await patternPng();
    const digest = sha256(png);
    const none = await prepareImage(png, digest);
    expect(none.data.equals(png)).toBe(true);
    expect(none).toMatchObject({ sha256: digest, bytes: png.length, width: 640, height: 480 });
    const big = await prepareImage(png, digest, block({ max_side: 1024, format: 'png' }));
    expect(big.sha256).toBe(digest);
    const detailOnly = await prepareImage(png, digest, block({ detail: 'low' }));
    expect(detailOnly.sha256).toBe(digest);
  });

  it('downscales to max_side (aspect kept) and encodes JPEG at the quality asked, the same bytes every time', async () => {
    const png = await patternPng();
    const b = block({ max_side: 256, format: 'jpeg', quality: 80 });
    const a = await prepareImage(png, sha256(png), b);
    const again = await prepareImage(Buffer.from(png), sha256(png), b);
    expect(again.data.equals(a.data)).toBe(true);
    expect(a).toMatchObject({ width: 256, height: 192, mime: 'image/jpeg', bytes: a.data.length });
    expect(a.sha256).toBe(sha256(a.data));
    const meta = await sharp(a.data).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 256, height: 192, channels: 3 });
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    const q30 = await prepareImage(
      png,
      sha256(png),
      block({ max_side: 256, format: 'jpeg', quality: 30 }),
    );
    expect(q30.bytes).toBeLessThan(a.bytes);
    // Golden: the bytes on the machine that recorded them (any machine must give the same).
    expect(a.sha256).toBe(GOLDEN.jpeg256q80);
  });

  it('downscales a PNG losslessly and keeps a grey image grey', async () => {
    const rgb = await patternPng();
    const p = await prepareImage(rgb, sha256(rgb), block({ max_side: 200 }));
    expect(p).toMatchObject({ width: 200, height: 150, mime: 'image/png' });
    expect(pngSize(p.data)).toEqual({ width: 200, height: 150 });
    expect(p.sha256).toBe(GOLDEN.png200);
    const grey = await patternPng(300, 500, 1);
    const g = await prepareImage(grey, sha256(grey), block({ max_side: 100, format: 'jpeg' }));
    expect(g).toMatchObject({ width: 60, height: 100 });
    expect((await sharp(g.data).metadata()).channels).toBe(1);
    expect(g.sha256).toBe(GOLDEN.greyJpeg100);
  });

  it('refuses quality with a PNG, and converting a bundle file that is not a PNG', async () => {
    expect(ImageBlock.safeParse({ format: 'png', quality: 80 }).success).toBe(false);
    expect(ImageBlock.safeParse({ max_side: 8 }).success).toBe(false);
    const fake = Buffer.from('\x89PNG but not really');
    expect((await prepareImage(fake, sha256(fake))).width).toBeNull();
    await expect(prepareImage(fake, sha256(fake), block({ format: 'jpeg' }))).rejects.toMatchObject(
      {
        code: 'E_RUN_IMAGE',
      },
    );
  });
});

const GOLDEN = {
  jpeg256q80: 'ced986f81ed992bf578e62ac79deb617a83a9fd7edea71222c94bb216a981ae5',
  png200: 'e477c5e5958fb477ce81e55fa341bd1d028ba60be865cdd654385e4a8ae3c507',
  greyJpeg100: '4e66428e673488bd59a4d80313759531b0716d42d00a7551fe7db6189f2b48f2',
};
