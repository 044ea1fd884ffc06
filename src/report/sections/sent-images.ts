/**
 * What each model saw: per model of the scored run, its image policy (the models file's image
 * block as the ledger's request profile recorded it), the images it was sent (sizes, formats and
 * bytes, min/median/max), the distinct sha256 of the bytes, and a flag where models of one
 * comparison (the same trial's image) were sent different pixels (score/sent-pixels.ts). From the ledger's `sent_images`,
 * read with `run export`'s reader; `tables/sent-images.csv` lists every distinct image per model.
 * Shown when the scores come from a ledger; without a readable ledger it says why.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { sentImagesOf, type SentImageRow } from '../../run/export.js';
import {
  bundleSentBytes,
  pixelDifferences,
  type PixelDifferences,
} from '../../score/sent-pixels.js';
import type { Cell } from '../../score/types.js';
import type { ReportContext, ReportSection, ReportTable } from '../types.js';

type Sent = ReturnType<typeof sentImagesOf>;

/** The ledger score.json records (absolute path), or null for a responses file. */
function ledgerOf(ctx: ReportContext): string | null {
  const input = ctx.header.inputs.find((i) => i.role === 'ledger');
  return input ? path.resolve(ctx.scoresDir, input.file) : null;
}

async function sentOf(ctx: ReportContext): Promise<{ sent: Sent | null; note: string | null }> {
  return ctx.memo('sent-images', () => {
    const file = ledgerOf(ctx);
    if (file === null) return { sent: null, note: null };
    if (!existsSync(file))
      return {
        sent: null,
        note: `The ledger score.json records (${path.basename(file)}) is not where it was when scored, so the images each model was sent cannot be shown; \`npx stimkit run export\` of the ledger lists them (sent_images).`,
      };
    return { sent: sentImagesOf(file, ctx.header.params.run ?? undefined), note: null };
  });
}

/** Min, median and max of numbers (nulls when there are none). */
function spread(values: number[]): [number | null, number | null, number | null] {
  if (values.length === 0) return [null, null, null];
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  const median = s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
  return [s[0]!, median, s[s.length - 1]!];
}

/** The policy in words: `max_side 768, png` or `as the bundle holds them`. */
function policyText(p: Record<string, unknown> | null): string {
  if (!p) return 'as the bundle holds them';
  const named = (k: string, v: unknown) =>
    typeof v === 'number' || typeof v === 'string' ? `${k} ${v}` : null;
  const parts = [
    named('max_side', p.max_side),
    typeof p.format === 'string' ? p.format : null,
    named('quality', p.quality),
    named('detail', p.detail),
  ];
  return parts.filter((x) => x !== null).join(', ');
}

/** The per-model table. */
function modelTable(sent: Sent, diff: PixelDifferences['byModel']): ReportTable {
  const rows: Cell[][] = [...sent.policies.keys()].sort().map((model) => {
    const mine = sent.images.filter((i) => i.model === model);
    const formats = [...new Set(mine.map((i) => i.mime))].sort();
    const d = diff.get(model);
    return [
      model,
      policyText(sent.policies.get(model) ?? null),
      mine.length,
      new Set(mine.map((i) => i.sha256)).size,
      formats.map((f) => `${f} ${mine.filter((i) => i.mime === f).length}`).join('; '),
      ...spread(mine.flatMap((i) => (i.width === null ? [] : [i.width]))),
      ...spread(mine.flatMap((i) => (i.height === null ? [] : [i.height]))),
      ...spread(mine.map((i) => i.bytes)),
      d ? d.n : 0,
      d ? [...d.from].sort().join('; ') : '',
    ];
  });
  return {
    id: 'sent-images-models',
    title: 'What each model was sent: image policy, sizes, formats and bytes',
    columns: [
      'model',
      'image policy',
      'images sent',
      'distinct sha256',
      'formats',
      'width min',
      'width median',
      'width max',
      'height min',
      'height median',
      'height max',
      'bytes min',
      'bytes median',
      'bytes max',
      'images differing from another model',
      'differs from',
    ],
    rows,
    n: `n = ${sent.images.length} images sent in run ${sent.run}, over ${rows.length} models`,
    interval: 'none: counts and sizes as recorded, no sampling',
  };
}

/** Every distinct image per model: `tables/sent-images.csv`. */
function imageTable(sent: Sent): ReportTable {
  const by = new Map<string, { i: SentImageRow; trials: number }>();
  for (const i of sent.images) {
    const key = `${i.model}\u0000${i.sha256}`;
    const e = by.get(key) ?? { i, trials: 0 };
    e.trials += 1;
    by.set(key, e);
  }
  const rows: Cell[][] = [...by.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, { i, trials }]) => [
      i.model,
      i.sha256,
      i.source,
      i.width,
      i.height,
      i.mime,
      i.bytes,
      trials,
    ]);
  return {
    id: 'sent-images',
    title: 'Every distinct image each model was sent',
    columns: ['model', 'sha256', 'source', 'width', 'height', 'mime', 'bytes', 'trials'],
    rows,
    n: `n = ${rows.length} distinct model × image pairs (${sent.images.length} images sent)`,
    interval: 'none: as recorded in the ledger',
  };
}

export const sentImagesSection: ReportSection = {
  id: 'sent-images',
  title: 'What each model saw',
  applies: async (ctx) => {
    const { sent, note } = await sentOf(ctx);
    return note !== null || (sent?.images.length ?? 0) > 0;
  },
  build: async (ctx) => {
    const { sent, note } = await sentOf(ctx);
    if (!sent) return { paragraphs: [note!], charts: [], tables: [] };
    // different pixels, not different bytes: two encodings of one image are the same image
    const { bundle } = await ctx.bundle();
    const px = await pixelDifferences(
      sent.images,
      bundle ? bundleSentBytes(bundle.dir, sent.policies) : () => Promise.resolve(null),
    );
    const diff = px.byModel;
    const flagged = [...diff.keys()].sort();
    return {
      paragraphs: [
        'The image bytes each model was sent, as the run recorded them (each result’s sent_images): a model’s image policy (the models file’s image block) may downscale or re-encode the bundle’s images, so two models of one comparison can see different pixels.',
        flagged.length === 0
          ? 'Every model of a trial was sent the same pixels for its image.'
          : `Models sent different pixels than another model for the same trial’s image: ${flagged.map((m) => `${m} (${diff.get(m)!.n} images, vs ${[...diff.get(m)!.from].sort().join(', ')})`).join('; ')}. Differences between them may be the pixels, not the model.`,
        `Images are compared by their decoded pixels, so two encodings of the same pixels count as the same image${px.byBytes > 0 ? `; ${px.byBytes} distinct image(s) could not be made again from the bundle and were compared by their bytes` : ''}.`,
      ],
      charts: [],
      tables: [modelTable(sent, diff), imageTable(sent)],
    };
  },
};
