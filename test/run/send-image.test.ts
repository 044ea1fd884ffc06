// The image bytes a model is sent: the bundle's PNG unchanged without an image block (and when
// a PNG needs no resizing), otherwise made by stimkit the same way every time. What is pinned is
// what stimkit itself decides: the decoded pixels of a PNG it sends (its own Lanczos-3 and PNG
// encoder; lossless, so independent of any library's version), and for a JPEG that its pixels are
// the resampled image within the quality's loss. The sent bytes' sha256 depend on the encoders
// (Node's zlib for PNG, sharp's libvips and libjpeg for JPEG): they are checked against goldens
// recorded with those library versions, and only where the versions are the same.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/core/fsio.js';
import { ImageBlock } from '../../src/models/image.js';
import { pngSize, prepareImage, type PreparedImage } from '../../src/client/send-image.js';
import { decodePng } from '../../src/variants/ops/png.js';
import { resample } from '../../src/variants/ops/resample.js';
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
    // The pixels are the Lanczos-3 downscale, within JPEG's loss (the pattern's XOR texture is
    // hard on 4:2:0: about 20 levels at quality 80 here), and lower quality loses more.
    const ref = await resampled(png, 256, 192);
    const mae80 = meanAbsDiff(await jpegPixels(a, 3), ref);
    expect(mae80).toBeLessThan(25);
    expect(meanAbsDiff(await jpegPixels(q30, 3), ref)).toBeGreaterThan(mae80);
    expectBytes(a, GOLDEN.jpeg256q80, JPEG_LIBS);
  });

  it('downscales a PNG losslessly and keeps a grey image grey', async () => {
    const rgb = await patternPng();
    const p = await prepareImage(rgb, sha256(rgb), block({ max_side: 200 }));
    expect(p).toMatchObject({ width: 200, height: 150, mime: 'image/png' });
    expect(pngSize(p.data)).toEqual({ width: 200, height: 150 });
    const px = await decodePng(p.data);
    expect(px.data).toEqual(await resampled(rgb, 200, 150));
    expect(sha256(Buffer.from(px.data))).toBe(GOLDEN.png200Pixels);
    expectBytes(p, GOLDEN.png200, PNG_LIBS);
    const grey = await patternPng(300, 500, 1);
    const g = await prepareImage(grey, sha256(grey), block({ max_side: 100, format: 'jpeg' }));
    expect(g).toMatchObject({ width: 60, height: 100 });
    expect((await sharp(g.data).metadata()).channels).toBe(1);
    expect(meanAbsDiff(await jpegPixels(g, 1), await resampled(grey, 60, 100))).toBeLessThan(25);
    expectBytes(g, GOLDEN.greyJpeg100, JPEG_LIBS);
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
  png200Pixels: '45431d8837cc8687b3cef5088e756235f7eced17279941502f15e2e495e5d100',
  greyJpeg100: '4e66428e673488bd59a4d80313759531b0716d42d00a7551fe7db6189f2b48f2',
};

/** The library versions the byte goldens were recorded with (sharp 0.35.5, Node 20.20). */
const JPEG_LIBS = { vips: '8.18.7', mozjpeg: '0826579' };
const PNG_LIBS = { zlib: '1.3.1-e00f703' };

/** The versions in use now, by the names above. */
function libsNow(): Record<string, string | undefined> {
  return { ...(sharp.versions as Record<string, string | undefined>), zlib: process.versions.zlib };
}

/** The bytes' golden sha256, where the encoders are the versions it was recorded with. */
function expectBytes(p: PreparedImage, golden: string, libs: Record<string, string>): void {
  const now = libsNow();
  const other = Object.entries(libs).filter(([k, v]) => now[k] !== v);
  if (other.length > 0) {
    console.warn(
      `send-image: byte golden not checked, encoder versions differ (${other.map(([k, v]) => `${k} ${now[k]} here, ${v} recorded`).join('; ')}); pixels were checked`,
    );
    return;
  }
  expect(p.sha256).toBe(golden);
}

/** The Lanczos-3 downscale of a PNG, as stimkit's resampler makes it. */
async function resampled(png: Buffer, width: number, height: number): Promise<Uint8Array> {
  const src = await decodePng(png);
  return resample(src.data, src.width, src.height, src.channels, width, height, 'lanczos3');
}

/** A sent JPEG's decoded pixels, `channels` per pixel. */
async function jpegPixels(p: PreparedImage, channels: 1 | 3): Promise<Uint8Array> {
  const img = sharp(p.data);
  const raw = channels === 1 ? img.extractChannel(0) : img.removeAlpha();
  return new Uint8Array(await raw.raw().toBuffer());
}

function meanAbsDiff(a: Uint8Array, b: Uint8Array): number {
  expect(a.length).toBe(b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}
