// "What each model saw": two models of one comparison behind a local OpenRouter-style stand-in,
// one sent the bundle's PNGs as they are, one re-encoded as JPEG by its image policy. The report
// section lists each model's policy, sizes, formats and bytes, the distinct sha256, and flags
// that the two were sent different bytes for the same trials; tables/sent-images.csv has one row
// per model × image with the sha256 the ledger recorded (the requests' own bytes).
import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../../src/label/bundle.js';
import { sentImagesSection } from '../../src/report/sections/sent-images.js';
import type { ReportContext } from '../../src/report/types.js';
import { runStudy } from '../../src/run/run.js';
import { tempDir } from '../helpers/tmp.js';
import { RUN_IMAGES, writeRunBag } from '../run/fixture.js';
import { FAST, writeModels } from '../run/helpers.js';
import { startOpenRouter, type OpenRouterServer } from '../run/vendor/openrouter.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('report: what each model saw', () => {
  let dir: string;
  let ledger: string;
  let or: OpenRouterServer;

  beforeAll(async () => {
    dir = await tempDir('stimkit-sent-images-');
    const bag = path.join(dir, 'bag');
    await writeRunBag(bag, 2);
    or = await startOpenRouter(['AnswerCo'], () => ({ kind: 'ok' }));
    const model = (name: string, image?: Record<string, unknown>) => ({
      name,
      endpoint: or.url,
      api_model: 'qwen/qwen2.5-vl-72b-instruct',
      routing: { only: ['AnswerCo'] },
      ...(image ? { image } : {}),
    });
    const models = await writeModels(dir, [
      model('as-bundled'),
      model('as-jpeg', { format: 'jpeg', quality: 80 }),
    ]);
    ledger = path.join(dir, 'ledger.sqlite');
    await runStudy({ bundle: bag, modelsFile: models, ledger, backoff: FAST });
  });
  afterAll(async () => {
    await or.close();
  });

  const ctx = (file: string | null): ReportContext =>
    ({
      scoresDir: dir,
      header: {
        inputs: file ? [{ role: 'ledger', file, sha256: '0'.repeat(64) }] : [],
        params: { run: null },
      },
      memo: (_k: string, make: () => unknown) => Promise.resolve(make()),
      bundle: async () => ({ bundle: await loadBundle(path.join(dir, 'bag')), note: null }),
    }) as unknown as ReportContext;

  it('lists policy, sizes, formats, bytes and distinct sha256 per model, and flags the difference', async () => {
    const c = ctx('ledger.sqlite');
    expect(await sentImagesSection.applies(c)).toBe(true);
    const content = await sentImagesSection.build(c);
    const [models, images] = content.tables;
    const sent = or.requests.filter((q) => q.k >= 2);
    expect(sent).toHaveLength(4);
    const jpegBytes = sent
      .filter((q) =>
        q.body.messages[0].content.some((p: any) => p.image_url?.url.startsWith('data:image/jpeg')),
      )
      .map((q) => {
        const url: string = q.body.messages[0].content.find((p: any) => p.type === 'image_url')
          .image_url.url;
        return Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
      });
    expect(jpegBytes).toHaveLength(2);
    const pngSizes = RUN_IMAGES.map((b) => b.length).sort((a, b) => a - b);
    const jpegSizes = jpegBytes.map((b) => b.length).sort((a, b) => a - b);
    expect(models!.rows).toEqual([
      [
        'as-bundled',
        'as the bundle holds them',
        2,
        2,
        'image/png 2',
        3,
        3.5,
        4,
        2,
        2.5,
        3,
        pngSizes[0],
        (pngSizes[0]! + pngSizes[1]!) / 2,
        pngSizes[1],
        2,
        'as-jpeg',
      ],
      [
        'as-jpeg',
        'jpeg, quality 80',
        2,
        2,
        'image/jpeg 2',
        3,
        3.5,
        4,
        2,
        2.5,
        3,
        jpegSizes[0],
        (jpegSizes[0]! + jpegSizes[1]!) / 2,
        jpegSizes[1],
        2,
        'as-bundled',
      ],
    ]);
    expect(images!.columns).toEqual([
      'model',
      'sha256',
      'source',
      'width',
      'height',
      'mime',
      'bytes',
      'trials',
    ]);
    const shas = new Set(images!.rows.map((r) => r[1]));
    for (const b of [...RUN_IMAGES, ...jpegBytes]) expect(shas.has(sha(b))).toBe(true);
    expect(images!.rows).toHaveLength(4);
    // the JPEG's pixels are not the PNG's: flagged, each image made again from the bundle and decoded
    expect(content.paragraphs[1]).toMatch(/^Models sent different pixels than another model/);
    expect(content.paragraphs[2]).toBe(
      'Images are compared by their decoded pixels, so two encodings of the same pixels count as the same image.',
    );
  });

  it('says why when the ledger is not where score.json says, and is left out for responses files', async () => {
    const gone = ctx('moved.sqlite');
    expect(await sentImagesSection.applies(gone)).toBe(true);
    const content = await sentImagesSection.build(gone);
    expect(content.tables).toEqual([]);
    expect(content.paragraphs[0]).toMatch(/moved\.sqlite\) is not where it was when scored/);
    expect(await sentImagesSection.applies(ctx(null))).toBe(false);
  });
});
