/**
 * `stimkit review <entries.yaml | corpus lock | bundle> --out DIR`: write `DIR/index.html` (one
 * self-contained page) and `DIR/entries.csv` for reading a corpus before a study is sealed.
 */
import path from 'node:path';
import pMap from 'p-map';
import { writeFileAtomic } from '../core/fsio.js';
import { headeredFolder, writeOutFolder } from '../core/out-folder.js';
import { reviewCsv } from './csv.js';
import { REVIEW_FORMAT, REVIEW_HEADER, reviewHeader } from './header.js';
import { reviewHtml, type EntryPictures } from './html.js';
import { loadReviewSource, type ReviewData } from './source.js';
import { thumbnail } from './thumbs.js';

/** Options of `reviewCorpus`. */
export interface ReviewOptions {
  out: string;
  /** A variants lock for the A0–A6 ladder (entries manifest or corpus lock input). */
  variants?: string;
  /** Thumbnail size in pixels (default 320). */
  thumb?: number;
  jobs?: number;
  /** Write the CSV's cells as they are, without neutralising spreadsheet formulas. */
  csvRaw?: boolean;
}

/** What `stimkit review` may replace: a review folder (review.json, the page and the CSV). */
const REVIEW_FOLDER = headeredFolder({
  command: 'review',
  header: { file: REVIEW_HEADER, format: REVIEW_FORMAT },
  names: ['index.html', 'entries.csv'],
});

/** What `reviewCorpus` wrote. */
export interface ReviewResult {
  html: string;
  csv: string;
  data: ReviewData;
  /** Bytes of the page. */
  htmlBytes: number;
}

/**
 * Build the review page and CSV.
 *
 * @example
 * await reviewCorpus('manifests/demo.entries.yaml', { out: 'review', variants: 'variants/demo/variants.lock.json' });
 */
export async function reviewCorpus(input: string, options: ReviewOptions): Promise<ReviewResult> {
  const data = await loadReviewSource(input, { variantsLock: options.variants });
  const size = options.thumb ?? 320;
  const pictures: EntryPictures[] = await pMap(
    data.entries,
    async (e) => ({
      thumb: e.image ? await thumbnail(e.image, size) : null,
      ladder: await Promise.all(
        e.ladder.map((r) => (r.file ? thumbnail(r.file, 200) : Promise.resolve(null))),
      ),
    }),
    { concurrency: options.jobs ?? 2 },
  );
  const out = path.resolve(options.out);
  const html = reviewHtml(data, pictures);
  const files = { 'index.html': html, 'entries.csv': reviewCsv(data, { raw: options.csvRaw }) };
  const params = { variants: options.variants, thumb: size, csvRaw: options.csvRaw ?? false };
  const header = await reviewHeader(out, data, params, files);
  await writeOutFolder(out, REVIEW_FOLDER, async (tmp) => {
    for (const [name, text] of Object.entries(files))
      await writeFileAtomic(path.join(tmp, name), text);
    await writeFileAtomic(path.join(tmp, REVIEW_HEADER), header);
  });
  const htmlFile = path.join(out, 'index.html');
  const csvFile = path.join(out, 'entries.csv');
  return { html: htmlFile, csv: csvFile, data, htmlBytes: Buffer.byteLength(html) };
}
