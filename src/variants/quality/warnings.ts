/**
 * Quality warnings: an abstraction that has lost its subject (an empty or tiny silhouette, one
 * component kept out of many, a silhouette that is the whole frame, a solid blob or a small
 * fragment whose outline follows no edge, an edge map with almost no
 * edges or edges everywhere, a two-tone image of one tone, a centre crop that cuts the subject
 * away). Derived from each variant's recorded metrics and the recipe's `quality` thresholds, so
 * they are the same for computed and reused outputs, and change no output. docs/formats/variants.md.
 */
import { z } from 'zod';
import type { QualityThresholds } from '../recipe.js';
import type { VariantCode } from '../types.js';

/** One warning on one variant of one entry, with its figure, the threshold it crossed and a fix. */
export const QualityWarning = z.strictObject({
  code: z.string(),
  message: z.string(),
  /** The measured figure (a fraction of the image, of the raw foreground, or of A6's foreground). */
  value: z.number(),
  threshold: z.number(),
  fix: z.string(),
});
export type QualityWarning = z.output<typeof QualityWarning>;

/** What the checks read of one variant record. */
interface MeasuredVariant {
  code: VariantCode;
  status: string;
  metrics: Record<string, number | null | number[]>;
  /** A6: `method` names the segmenter (isnet, grabcut), so a fix never suggests the one that failed */
  params?: Record<string, unknown>;
}

const pct = (x: number) => `${(100 * x).toFixed(x < 0.001 && x > 0 ? 3 : x < 0.1 ? 2 : 1)} %`;
const num = (m: MeasuredVariant | undefined, key: string): number | null => {
  const v = m?.metrics[key];
  return typeof v === 'number' ? v : null;
};

const KEEP =
  'if the subject is too small, too spread out or not separable, leave this entry out of the abstraction probe (`roles`), or replace the image';

/** The other segmenter to try: isnet after grabcut, grabcut after anything else. */
function otherSegmenter(a6: MeasuredVariant | undefined): string {
  return a6?.params?.method === 'grabcut'
    ? 'or try the neural segmenter, `--silhouette isnet`'
    : 'or try `--silhouette grabcut`';
}

/**
 * The warnings of one entry's variants, by code (only codes with warnings). `variants` are the
 * entry's records (any order; failed ones are ignored).
 */
export function entryWarnings(
  variants: readonly MeasuredVariant[],
  t: QualityThresholds,
): Map<VariantCode, QualityWarning[]> {
  const out = new Map<VariantCode, QualityWarning[]>();
  const by = new Map(variants.filter((v) => v.status === 'ok').map((v) => [v.code, v]));
  const add = (code: VariantCode, w: QualityWarning) =>
    out.set(code, [...(out.get(code) ?? []), w]);

  const a6 = by.get('A6');
  const fg6 = num(a6, 'foreground_fraction');
  if (fg6 !== null) silhouetteChecks(a6, fg6, t, (w) => add('A6', w));
  const a3 = num(by.get('A3'), 'edge_density');
  // a silhouette already too small (empty, tiny) is not judged by its shape as well
  if (fg6 === null || fg6 >= t.silhouette_min) {
    blobCheck(a6, a3, t, (w) => add('A6', w));
    fragmentCheck(a6, t, (w) => add('A6', w));
  }
  edgeChecks(a3, t, (w) => add('A3', w));
  const a4 = num(by.get('A4'), 'foreground_fraction');
  if (a4 !== null && Math.min(a4, 1 - a4) < t.binary_minority_min) {
    add('A4', {
      code: 'W_VARIANTS_A4_ONE_TONE',
      message: `the two-tone image is almost one tone (${pct(a4)} black)`,
      value: a4,
      threshold: t.binary_minority_min,
      fix: 'leave this entry out of the abstraction probe, or set a fixed binary.threshold in the recipe',
    });
  }
  const inCrop = num(a6, 'foreground_fraction_in_crop');
  // A1 is judged by A6's foreground: not when A6 itself is warned (a failed silhouette says nothing of A1)
  if (
    !out.has('A6') &&
    by.has('A1') &&
    inCrop !== null &&
    fg6 !== null &&
    fg6 >= t.silhouette_min &&
    inCrop < t.crop_subject_min
  ) {
    add('A1', {
      code: 'W_VARIANTS_A1_CROPS_SUBJECT',
      message: `the centre crop keeps ${pct(inCrop)} of the subject (A6's foreground): the subject is off-centre`,
      value: inCrop,
      threshold: t.crop_subject_min,
      fix: 'leave this entry out of the context probe, or raise crop.fraction in the recipe',
    });
  }
  return out;
}

/** A6's silhouette: empty, tiny or full, and how much of it keeping the largest component left. */
function silhouetteChecks(
  a6: MeasuredVariant | undefined,
  fg6: number,
  t: QualityThresholds,
  add: (w: QualityWarning) => void,
): void {
  if (fg6 < t.silhouette_min) {
    add({
      code: fg6 === 0 ? 'W_VARIANTS_A6_EMPTY' : 'W_VARIANTS_A6_TINY',
      message:
        fg6 === 0
          ? 'the silhouette is empty: the segmenter found no subject'
          : `the silhouette covers ${pct(fg6)} of the image`,
      value: fg6,
      threshold: t.silhouette_min,
      fix: `${KEEP}; ${otherSegmenter(a6)}`,
    });
  } else if (fg6 > t.silhouette_max) {
    add({
      code: 'W_VARIANTS_A6_FULL',
      message: `the silhouette covers ${pct(fg6)} of the image: background and subject were not told apart`,
      value: fg6,
      threshold: t.silhouette_max,
      fix: `${KEEP}; ${otherSegmenter(a6)}`,
    });
  }
  const raw = num(a6, 'raw_foreground_fraction');
  if (raw !== null && raw > 0 && fg6 > 0 && fg6 / raw < t.component_kept_min) {
    add({
      code: 'W_VARIANTS_A6_COMPONENT',
      message: `keeping the largest component left ${pct(fg6 / raw)} of the segmenter's foreground (${pct(raw)} → ${pct(fg6)} of the image): the subject is in several pieces`,
      value: fg6 / raw,
      threshold: t.component_kept_min,
      fix: `${KEEP}; or set silhouette.keep_largest_component: false in the recipe`,
    });
  }
}

/** A3's edge map: almost no edges, or edges almost everywhere. */
function edgeChecks(
  a3: number | null,
  t: QualityThresholds,
  add: (w: QualityWarning) => void,
): void {
  if (a3 !== null && a3 < t.edges_min) {
    add({
      code: 'W_VARIANTS_A3_FEW_EDGES',
      message: `the edge map has almost no edges (${pct(a3)} of the pixels)`,
      value: a3,
      threshold: t.edges_min,
      fix: 'leave this entry out of the abstraction probe, or lower edges.low_ratio / edges.high_ratio in the recipe',
    });
  } else if (a3 !== null && a3 > t.edges_max) {
    add({
      code: 'W_VARIANTS_A3_EDGES_EVERYWHERE',
      message: `the edge map is edges almost everywhere (${pct(a3)} of the pixels): texture, not outlines`,
      value: a3,
      threshold: t.edges_max,
      fix: 'leave this entry out of the abstraction probe, or raise edges.blur_sigma / edges.high_ratio in the recipe',
    });
  }
}

/**
 * W_VARIANTS_A6_BLOB: a solid, nearly convex silhouette that either covers most of the frame (the
 * backdrop kept with the subject: a cat photo's A6 at 77 %) or, covering at least
 * `blob_edges_frame_min` of it, whose outline follows few of the edges of a photo that has many
 * (GrabCut's rectangle kept nearly whole: a rocket launch at 59 %; src/variants/quality/shape.ts
 * measures both). A solid subject of moderate size (a cup at 47 %, a diamond at 15 % on a
 * textured ground whose edge map misses its corners) and a large but articulated one (a portrait
 * at 54 %, solidity 84 %) are not blobs.
 */
function blobCheck(
  a6: MeasuredVariant | undefined,
  edgeDensity: number | null,
  t: QualityThresholds,
  add: (w: QualityWarning) => void,
): void {
  const sol = num(a6, 'solidity');
  const fg = num(a6, 'foreground_fraction');
  if (sol !== null && fg !== null && sol >= t.blob_solidity_min && fg >= t.blob_frame_min) {
    return add({
      code: 'W_VARIANTS_A6_BLOB',
      message: `the silhouette is one solid blob (solidity ${pct(sol)}) covering ${pct(fg)} of the frame: the segmenter kept the backdrop with the subject, so it is not the subject's shape`,
      value: fg,
      threshold: t.blob_frame_min,
      fix: `${KEEP}; ${otherSegmenter(a6)}`,
    });
  }
  const overlap = num(a6, 'outline_edge_overlap');
  if (sol === null || overlap === null || edgeDensity === null) return;
  if (sol < t.blob_solidity_min || overlap >= t.blob_outline_edges_max) return;
  if (edgeDensity < t.blob_edges_min || fg === null || fg < t.blob_edges_frame_min) return;
  add({
    code: 'W_VARIANTS_A6_BLOB',
    message: `the silhouette is one solid blob (solidity ${pct(sol)}) whose outline lies on the edge map's edges for only ${pct(overlap)} of its length, in a photo with many edges (${pct(edgeDensity)} of A3's pixels): it is not the subject's shape`,
    value: overlap,
    threshold: t.blob_outline_edges_max,
    fix: `${KEEP}; ${otherSegmenter(a6)}`,
  });
}

/**
 * W_VARIANTS_A6_FRAGMENT: a small silhouette (at least `silhouette_min`, below
 * `fragment_frame_max` of the frame) whose outline lies on A3's edges for less than
 * `fragment_outline_edges_max` of its length: a piece of texture or shadow the segmenter kept
 * instead of a subject (GrabCut on the moon keeps a crater's shadow, 1.1 % of the frame, outline on
 * edges for 36 %). A small subject that was found has its outline on the edges that surround it.
 */
function fragmentCheck(
  a6: MeasuredVariant | undefined,
  t: QualityThresholds,
  add: (w: QualityWarning) => void,
): void {
  const fg = num(a6, 'foreground_fraction');
  const overlap = num(a6, 'outline_edge_overlap');
  if (fg === null || overlap === null || fg >= t.fragment_frame_max) return;
  if (overlap >= t.fragment_outline_edges_max) return;
  add({
    code: 'W_VARIANTS_A6_FRAGMENT',
    message: `the silhouette is a fragment: it covers ${pct(fg)} of the frame and its outline lies on the edge map's edges for only ${pct(overlap)} of its length, so it traces no subject`,
    value: overlap,
    threshold: t.fragment_outline_edges_max,
    fix: `${KEEP}; ${otherSegmenter(a6)}`,
  });
}

/** A warning as the summaries print it: `entry A6 W_…: message (fix)`. */
export interface LocatedWarning extends QualityWarning {
  entry: string;
  variant: VariantCode;
}

/** Every warning recorded in a lock's entries, in lock order. */
export function lockWarnings(
  entries: ReadonlyArray<{
    id: string;
    variants: ReadonlyArray<{ code: VariantCode; warnings?: QualityWarning[] }>;
  }>,
): LocatedWarning[] {
  return entries.flatMap((e) =>
    e.variants.flatMap((v) =>
      (v.warnings ?? []).map((w) => ({ entry: e.id, variant: v.code, ...w })),
    ),
  );
}
