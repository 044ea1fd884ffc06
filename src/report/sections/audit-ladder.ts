/**
 * The abstraction ladder (the audit paper's abstraction results): D4 and D1 rates by variant
 * A0–A6 with Wilson intervals, and a strip of thumbnails of the variants of the abstraction
 * entries (up to `MAX_EXAMPLES`), each captioned with that entry × variant's framing count. The
 * thumbnails are small PNGs written to `thumbs/` beside index.html and referenced relatively (the
 * page stays one folder, readable from disk); their provenance (entry, variant, sha256 of the
 * source image, thumbnail file and sha256) is `tables/audit-ladder-thumbs.csv`. Without the
 * bundle the section says why in a sentence.
 */
import { sha256 } from '../../core/fsio.js';
import type { ReportContext, ReportFigure, ReportSection } from '../types.js';
import { bundleThumbnail, THUMB_PX } from '../thumbs.js';
import { auditRows, groupBy, hasJudge, judgeNote, rate, type AuditRow } from './audit-data.js';
import { fullNumber } from '../format.js';

/** The seven variants, A0 original → A6 silhouette. */
const LADDER = ['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6'] as const;
/** The two lines' colours (Okabe–Ito vermillion and blue), in the legend as drawn, not as the pale bands. */
const DIMENSION_COLOUR = {
  field: 'dimension',
  type: 'nominal',
  scale: { domain: ['D4 framing', 'D1 refusal'], range: ['#D55E00', '#0072B2'] },
} as const;

/** How many entries get a thumbnail strip. */
const MAX_EXAMPLES = 4;

const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_');

/** The scored bundle, when the report has it (see `ReportContext.bundle`). */
type Bundle = NonNullable<Awaited<ReturnType<ReportContext['bundle']>>['bundle']>;

/**
 * One entry's strip: a thumbnail per ladder variant, captioned with that entry × variant's D4
 * count, its provenance rows, and the variants whose thumbnail failed.
 */
async function entryStrip(bundle: Bundle, entry: string, rows: AuditRow[]) {
  const title = bundle.entries.get(entry)?.title.en ?? entry;
  const images: ReportFigure['rows'][number]['images'] = [];
  const provenance: ReportFigure['data']['rows'] = [];
  const problems: string[] = [];
  const records = bundle.variants
    .filter((v) => v.entry === entry && (LADDER as readonly string[]).includes(v.code))
    .sort((a, b) => (a.code < b.code ? -1 : 1));
  for (const v of records) {
    const thumb = await bundleThumbnail(bundle, v.sha256);
    if ('error' in thumb) {
      problems.push(`${entry} ${v.code}: ${thumb.error}`);
      continue;
    }
    const file = `thumbs/${safe(entry)}-${safe(v.code)}.png`;
    const r = rate(
      rows.filter((x) => x.entry === entry && x.variant === v.code),
      'd4_state_aligned',
    );
    images.push({
      file,
      data: thumb.data,
      width: thumb.width,
      height: thumb.height,
      alt: `${title}, variant ${v.code} (${v.name})`,
      label: `${v.code} ${v.name} · D4 ${r.x}/${r.n}`,
    });
    provenance.push([
      entry,
      v.code,
      v.name,
      v.sha256,
      v.width,
      v.height,
      file,
      thumb.width,
      thumb.height,
      sha256(thumb.data),
      r.x,
      r.n,
    ]);
  }
  const strip = images.length > 0 ? { label: `${title} (${entry})`, images } : null;
  return { strip, provenance, problems };
}

/** The figure of the thumbnail strips, with its provenance table. */
function thumbsFigure(
  strips: ReportFigure['rows'],
  provenance: ReportFigure['data']['rows'],
): ReportFigure {
  return {
    id: 'audit-ladder-thumbs',
    title: 'The variants A0–A6 of the abstraction entries',
    rows: strips,
    data: {
      id: 'audit-ladder-thumbs',
      title: 'Thumbnail provenance',
      columns: [
        'entry',
        'variant',
        'variant_name',
        'source_sha256',
        'source_width',
        'source_height',
        'thumb_file',
        'thumb_width',
        'thumb_height',
        'thumb_sha256',
        'd4_x',
        'd4_n',
      ],
      rows: provenance,
      n: `n = ${provenance.length} thumbnails (at most ${THUMB_PX} px), d4_n = judged abstraction responses per entry × variant`,
      interval: 'counts (no interval)',
    },
  };
}

/** The thumbnail strips of the abstraction entries, or the sentence that says why there are none. */
async function ladderThumbnails(
  ctx: ReportContext,
  rows: AuditRow[],
): Promise<{ figure: ReportFigure | null; note: string }> {
  const { bundle, note } = await ctx.bundle();
  if (!bundle) return { figure: null, note: `Variant thumbnails are not shown: ${note}.` };
  const entries = [...new Set(rows.map((r) => r.entry ?? ''))]
    .filter((e) => e !== '' && bundle.variants.some((v) => v.entry === e))
    .sort();
  if (entries.length === 0)
    return {
      figure: null,
      note: 'Variant thumbnails are not shown: the bundle holds no variant images of the abstraction entries.',
    };
  const provenance: ReportFigure['data']['rows'] = [];
  const strips: ReportFigure['rows'] = [];
  const problems: string[] = [];
  for (const entry of entries.slice(0, MAX_EXAMPLES)) {
    const one = await entryStrip(bundle, entry, rows);
    provenance.push(...one.provenance);
    problems.push(...one.problems);
    if (one.strip) strips.push(one.strip);
  }
  const shown = strips.length;
  const more =
    entries.length > shown ? ` (${shown} of the ${entries.length} abstraction entries)` : '';
  const lines = [
    `Variant thumbnails of ${shown} abstraction ${shown === 1 ? 'entry' : 'entries'}${more}, from the scored bundle ${bundle.digest.slice(0, 12)}…; under each, D4 framing responses / judged responses of that entry × variant.`,
  ];
  if (problems.length > 0) lines.push(`Not shown: ${problems.join('; ')}.`);
  if (shown === 0)
    return { figure: null, note: lines.slice(1).join(' ') || 'Variant thumbnails are not shown.' };
  return { note: lines.join(' '), figure: thumbsFigure(strips, provenance) };
}

/** The ladder without a judge: why it is empty and what to run. */
const NO_JUDGE = {
  paragraphs: [
    'No judge labelled these scores, so the ladder is empty: its D4 framing and D1 refusal rates per variant (A0–A6) are the judge’s labels, and the lexical baselines are no substitute for them.',
    'To fill it, score again with a judge: name one in the models file (role: judge) and run `npx stimkit score --bundle BUNDLE --ledger LEDGER --models MODELS --judge NAME --out SCORES`, then `npx stimkit report SCORES`.',
  ],
  charts: [],
  tables: [],
};

export const auditLadderSection: ReportSection = {
  id: 'audit-ladder',
  title: 'The abstraction ladder (A0–A6)',
  applies: async (ctx) => (await auditRows(ctx)).some((r) => r.paradigm === 'abstraction'),
  build: async (ctx) => {
    if (!(await hasJudge(ctx))) return NO_JUDGE;
    const rows = (await auditRows(ctx)).filter((r) => r.paradigm === 'abstraction');
    const table = groupBy(rows, ['variant']).flatMap(({ key: [variant], rows: rs }) =>
      (['d4_state_aligned', 'd1_refusal'] as const).map((col) => {
        const r = rate(rs, col);
        return [
          variant!,
          col === 'd4_state_aligned' ? 'D4 framing' : 'D1 refusal',
          r.x,
          r.n,
          fullNumber(r.rate),
          fullNumber(r.lower),
          fullNumber(r.upper),
        ];
      }),
    );
    const n = `n = abstraction responses per variant (${rows.length} in all)`;
    const thumbs = await ladderThumbnails(ctx, rows);
    return {
      paragraphs: [
        judgeNote(rows),
        'Rates by abstraction level: if framing rests on visual detail it declines as information is removed; if it rests on recognising an iconic shape it persists down to the silhouette (A6).',
        thumbs.note,
      ],
      charts: [
        {
          id: 'audit-ladder',
          title: 'Rates by abstraction level',
          alt: 'Line chart of framing and refusal rates from A0 (original) to A6 (silhouette) with Wilson bands',
          data: {
            id: 'audit-ladder',
            title: 'Rates by variant',
            columns: ['variant', 'dimension', 'x', 'n', 'rate', 'lower', 'upper'],
            rows: table,
            n,
            interval: 'Wilson 95 % intervals',
          },
          spec: {
            title: {
              text: 'The abstraction ladder',
              subtitle: [n, 'bands: Wilson 95 % intervals'],
            },
            width: 420,
            height: 260,
            encoding: {
              x: {
                field: 'variant',
                type: 'ordinal',
                sort: [...LADDER],
                title: 'variant (A0 original → A6 silhouette)',
                axis: { labelAngle: 0 },
              },
            },
            // the bands have their own (unlisted) colour scale, so the legend shows the lines
            resolve: { scale: { color: 'independent' } },
            layer: [
              {
                mark: { type: 'area', opacity: 0.15 },
                encoding: {
                  y: { field: 'lower', type: 'quantitative', title: 'rate', axis: { format: '%' } },
                  y2: { field: 'upper' },
                  color: { ...DIMENSION_COLOUR, legend: null },
                },
              },
              {
                mark: { type: 'line', point: true },
                encoding: {
                  y: { field: 'rate', type: 'quantitative' },
                  color: { ...DIMENSION_COLOUR, title: 'dimension' },
                },
              },
            ],
          },
        },
      ],
      tables: [],
      figures: thumbs.figure ? [thumbs.figure] : [],
    };
  },
};
