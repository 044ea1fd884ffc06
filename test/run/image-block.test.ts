// The image each model really saw, end to end against a local server: a model with an image
// block is sent the bytes stimkit made (JPEG, downscaled, with its detail), and the ledger
// records their sha256, size and pixel dimensions; a model without one is sent the bundle's PNG
// and its requests are as before. The block is part of the request profile.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/core/fsio.js';
import { runStudy, type RunResult } from '../../src/run/run.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { writeFixtureBag } from '../verify/fixture.js';
import { FAST, query, writeModels } from './helpers.js';
import { imageTrials, patternPng } from './pattern.js';
import { startServer, type TestServer } from './server.js';

let dir: string;
let bag: string;
let server: TestServer;
let pngs: Buffer[];
beforeAll(async () => {
  dir = await tempDir('stimkit-run-image-');
  bag = path.join(dir, 'bag');
  pngs = [await patternPng(640, 480), await patternPng(300, 500, 1)];
  await writeFixtureBag(bag, imageTrials(pngs), pngs);
  server = await startServer();
});
afterAll(() => server.close());

const small = { max_side: 128, format: 'jpeg', quality: 70, detail: 'low' };

/** The image bytes a request carried, decoded from its data URL, with the URL's MIME type. */
function sentBytes(body: any): { mime: string; bytes: Buffer; detail: unknown } {
  const part = body.messages[0].content.find((p: any) => p.type === 'image_url');
  const m = /^data:([^;]+);base64,(.*)$/.exec(part.image_url.url)!;
  return { mime: m[1]!, bytes: Buffer.from(m[2]!, 'base64'), detail: part.image_url.detail };
}

describe('image block', () => {
  it('sends the bytes it made, records their sha256 and size per result, and keeps plain models as before', async () => {
    const models = await writeModels(dir, [
      { name: 'small', endpoint: server.url, image: small },
      { name: 'plain', endpoint: server.url },
    ]);
    const ledger = path.join(dir, 'a.sqlite');
    const r = (await runStudy({
      bundle: bag,
      modelsFile: models,
      ledger,
      backoff: FAST,
    })) as RunResult;
    expect(r.models.map((m) => m.done)).toEqual([2, 2]);
    const rows = query(
      ledger,
      'SELECT model, trial_id, sent_images FROM results ORDER BY model, trial_id',
    );
    expect(rows).toHaveLength(4);
    const byModel = (name: string) => server.requests.filter((q) => q.body.model === name);
    for (const q of byModel('small')) {
      const { mime, bytes, detail } = sentBytes(q.body);
      expect(mime).toBe('image/jpeg');
      expect(detail).toBe('low');
      const source = pngs[q.k]!;
      const row = rows.find(
        (x: any) => x.model === 'small' && JSON.parse(x.sent_images)[0].source === sha256(source),
      );
      expect(JSON.parse(row.sent_images)).toEqual([
        {
          source: sha256(source),
          sha256: sha256(bytes),
          bytes: bytes.length,
          width: q.k === 0 ? 128 : 77,
          height: q.k === 0 ? 96 : 128,
          mime: 'image/jpeg',
        },
      ]);
    }
    for (const q of byModel('plain')) {
      const { mime, bytes, detail } = sentBytes(q.body);
      expect([mime, detail]).toEqual(['image/png', undefined]);
      expect(bytes.equals(pngs[q.k]!)).toBe(true);
    }
    const profiles = query(ledger, 'SELECT model, profile FROM models ORDER BY model');
    expect(JSON.parse(profiles[1].profile).image).toEqual({ ...small, format: 'jpeg' });
    expect(JSON.parse(profiles[0].profile)).not.toHaveProperty('image');

    const changed = await writeModels(
      dir,
      [{ name: 'small', endpoint: server.url, image: { ...small, max_side: 256 } }],
      'changed.yaml',
    );
    await expect(
      runStudy({ bundle: bag, modelsFile: changed, ledger, backoff: FAST }),
    ).rejects.toMatchObject({
      code: 'E_RUN_REQUEST_CHANGED',
      message: expect.stringContaining('image.max_side: 128 → 256'),
    });
  });

  it('--dry-run prints the image sizes each model will be sent', async () => {
    const models = await writeModels(
      dir,
      [
        { name: 'small', endpoint: server.url, image: small },
        { name: 'plain', endpoint: server.url },
      ],
      'dry.yaml',
    );
    const before = server.requests.length;
    const r = await runCli(['run', bag, '--models', models, '--dry-run', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const [s, p] = r.json().models;
    expect(s.estimate.images).toMatchObject({
      sent: 2,
      distinct: 2,
      format: 'jpeg q70',
      width: { min: 77, max: 128 },
      height: { min: 96, max: 128 },
    });
    expect(p.estimate.images).toMatchObject({
      format: 'png (the bundle bytes)',
      width: { min: 300, max: 640 },
      bytes: { total: pngs[0]!.length + pngs[1]!.length },
    });
    expect(r.stderr).toMatch(/images sent: 2 \(2 distinct\) as jpeg q70, 77–128 × 96–128 px/);
    expect(server.requests.length).toBe(before);
  });
});
