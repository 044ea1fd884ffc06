import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { EntriesManifest } from '../../src/ingest/schema.js';
import {
  SYNTHETIC,
  SYNTHETIC_FILES,
  syntheticCorpus,
  syntheticManifestText,
  syntheticPixels,
} from '../../src/study/synthetic.js';

describe('the synthetic paper-shaped corpus', () => {
  it('has the audit paper’s shapes', () => {
    const m = EntriesManifest.parse(syntheticCorpus().manifest);
    const withRole = (r: string) => m.entries.filter((e) => e.roles.includes(r as never));
    expect(withRole('core')).toHaveLength(200);
    expect(withRole('anchor')).toHaveLength(52);
    expect(withRole('abstraction')).toHaveLength(14);
    expect(withRole('abstraction').filter((e) => e.roles.includes('control'))).toHaveLength(3);
    expect(withRole('core').filter((e) => e.sensitivity === 'low')).toHaveLength(
      SYNTHETIC.lowSensitivity,
    );
    expect(withRole('anchor').every((e) => e.anchor?.name.en && e.anchor.name.zh)).toBe(true);
  });

  it('is committed exactly as the generator writes it', async () => {
    expect(await readFile(SYNTHETIC_FILES.manifest, 'utf8')).toBe(syntheticManifestText());
    expect(EntriesManifest.parse(parse(syntheticManifestText())).entries).toHaveLength(214);
  });

  it('ships images whose pixels are the generator’s (and whose expected fact is true of them)', async () => {
    const { images } = syntheticCorpus();
    for (const img of images) {
      const { data, info } = await sharp(path.join(SYNTHETIC_FILES.images, img.file))
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect([info.width, info.height, info.channels]).toEqual([
        img.spec.width,
        img.spec.height,
        3,
      ]);
      expect(Buffer.compare(data, syntheticPixels(img.spec))).toBe(0);
    }
    // The shape's colour is at the centre of the image.
    const first = images[0]!;
    const px = syntheticPixels(first.spec);
    const centre = ((first.spec.height / 2) * first.spec.width + first.spec.width / 2) * 3;
    expect([...px.subarray(centre, centre + 3)]).toEqual([...first.spec.colour.rgb]);
  });
});
