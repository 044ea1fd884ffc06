/**
 * The variants recipe (`stimkit.recipe`, version 1): every parameter of the ladder, with the
 * defaults of VARIANTS.md. A YAML/JSON recipe file overrides any of them, command-line flags
 * override the file, and the resolved recipe is recorded in the variants lock. This zod schema is
 * the source of truth; manifests/schema/recipe.schema.json is generated from it.
 */
import { z } from 'zod';
import { lineOf, parseDataText, zodProblems, type ParsedDataFile } from '../core/datafile.js';
import { describeValue, StimkitError, type Problem } from '../core/errors.js';
import { readTextFile } from '../core/fsio.js';
import { PARAM_SCHEMAS, paramIssues } from './segment/params.js';

export const RECIPE_FORMAT = 'stimkit.recipe';
export const RECIPE_VERSION = 1;

/** Allowed range of each bounded number, by field path: the text used in schema and messages. */
export const RANGES = new Map<string, string>();

interface Bounds {
  min: number;
  max: number;
  /** Exclude the minimum (`(0, 1]`). */
  openMin?: boolean;
  int?: boolean;
}

function bounded(field: string, b: Bounds) {
  const text = `${b.openMin ? '(' : '['}${b.min}, ${b.max}]`;
  RANGES.set(field, `${b.int ? 'an integer' : 'a number'} in ${text}`);
  const error = `out of range: allowed ${text}`;
  let s = b.int ? z.number().int({ error: `must be an integer in ${text}` }) : z.number();
  s = b.openMin ? s.gt(b.min, { error }) : s.gte(b.min, { error });
  return s.lte(b.max, { error });
}

const Original = z.strictObject({
  max_side: bounded('original.max_side', { min: 1, max: 16384, int: true })
    .default(1024)
    .describe('Long side above which A0 is downscaled (never upscaled).'),
  kernel: z
    .enum(['lanczos3', 'bicubic', 'bilinear', 'box'])
    .default('lanczos3')
    .describe("Resampling filter of the downscale (Pillow's definitions, reproduced exactly)."),
});

const Crop = z.strictObject({
  fraction: bounded('crop.fraction', { min: 0, max: 1, openMin: true })
    .default(0.6)
    .describe('A1: fraction of each side kept, centred (0.6 keeps 36 % of the area).'),
});

const Edges = z
  .strictObject({
    blur_ksize: bounded('edges.blur_ksize', { min: 3, max: 31, int: true })
      .refine((k) => k % 2 === 1, { error: 'must be odd' })
      .default(5)
      .describe('A3: Gaussian kernel size (odd).'),
    blur_sigma: bounded('edges.blur_sigma', { min: 0, max: 20, openMin: true })
      .default(1.4)
      .describe('A3: Gaussian sigma (px).'),
    low_ratio: bounded('edges.low_ratio', { min: 0, max: 10, openMin: true })
      .default(0.66)
      .describe('A3: Canny low threshold = low_ratio × median of the blurred image.'),
    high_ratio: bounded('edges.high_ratio', { min: 0, max: 10, openMin: true })
      .default(1.33)
      .describe('A3: Canny high threshold = high_ratio × median of the blurred image.'),
    aperture: z
      .union([z.literal(3), z.literal(5), z.literal(7)])
      .default(3)
      .describe('A3: Sobel aperture of Canny.'),
    l2_gradient: z
      .boolean()
      .default(false)
      .describe('A3: L2 gradient magnitude (default L1, as OpenCV).'),
  })
  .refine((e) => e.low_ratio <= e.high_ratio, {
    error: 'low_ratio must not exceed high_ratio',
    path: ['low_ratio'],
  });

/** What `binary.threshold` allows, in messages. */
const THRESHOLD_ALLOWED = '"otsu" or an integer 0–255';

const Binary = z.strictObject({
  threshold: z
    .union([z.literal('otsu'), bounded('binary.threshold', { min: 0, max: 255, int: true })], {
      error: 'value not allowed',
    })
    .default('otsu')
    .describe('A4: `otsu`, or a fixed threshold t (v > t → white).'),
});

const Lowpass = z.strictObject({
  filter: z
    .enum(['gaussian', 'ideal'])
    .default('gaussian')
    .describe('A5: Gaussian exp(−ρ²/2c²), or ideal [ρ ≤ c].'),
  cutoff: bounded('lowpass.cutoff', { min: 0, max: 1, openMin: true })
    .default(0.05)
    .describe('A5: cutoff c in cycles per pixel (Gaussian sigma, or the ideal radius).'),
  channels: z
    .enum(['grey', 'rgb'])
    .default('grey')
    .describe('A5: `grey` filters A2; `rgb` filters each channel of A0.'),
});

const SegmenterParams = z.record(z.string(), z.unknown());

const Silhouette = z.strictObject({
  method: z
    .enum(['isnet', 'grabcut'])
    .default('isnet')
    .describe('A6: IS-Net network, or the classical GrabCut fallback.'),
  isnet: SegmenterParams.default({}).describe(
    'A6: isnet parameters (docs/segmentation.md), recorded resolved in the lock.',
  ),
  grabcut: SegmenterParams.default({}).describe(
    'A6: grabcut parameters (working resolution, iterations, seed), recorded resolved.',
  ),
  keep_largest_component: z
    .boolean()
    .default(true)
    .describe('A6: keep the largest 8-connected component.'),
  fill_holes: z
    .boolean()
    .default(true)
    .describe('A6: fill holes (background not 4-connected to the border).'),
});

const Metrics = z.strictObject({
  lowfreq_cutoff: bounded('metrics.lowfreq_cutoff', { min: 0, max: 1, openMin: true })
    .default(0.05)
    .describe('Radius (cycles per pixel) of the disc of lowfreq_energy_fraction_ac.'),
  // Optional and absent unless set, so that a default recipe (and a bundle made with one) stays what it was.
  level: z
    .enum(['full', 'basic'])
    .optional()
    .describe(
      '`full` (default): every metric of docs/formats/variants.md; `basic`: only those a variant yields as it is made (no SSIM, no extra edge or FFT passes).',
    ),
});

const Output = z.strictObject({
  // 2, not zlib's usual 6: the six PNGs of a 1024-px entry encode in about 90 ms instead of 155 ms,
  // for files about 6 % larger (measured on the demo photos); the pixels are the same at any level.
  png_compression: bounded('output.png_compression', { min: 0, max: 9, int: true })
    .default(2)
    .describe('zlib level of the PNG files (changes bytes, not pixels).'),
});

const ContactSheet = z.strictObject({
  cell: bounded('contact_sheet.cell', { min: 32, max: 1024, int: true })
    .default(192)
    .describe('Thumbnail box (px) of each cell.'),
});

/** The `quality` section: thresholds of the quality warnings (src/variants/quality/). */
export const Quality = z.strictObject({
  silhouette_min: bounded('quality.silhouette_min', { min: 0, max: 1 })
    .default(0.01)
    .describe('A6: warn when the silhouette covers less of the image than this (empty included).'),
  silhouette_max: bounded('quality.silhouette_max', { min: 0, max: 1 })
    .default(0.95)
    .describe('A6: warn when the silhouette covers more of the image than this.'),
  component_kept_min: bounded('quality.component_kept_min', { min: 0, max: 1 })
    .default(0.5)
    .describe(
      'A6: warn when post-processing (largest component, holes filled) keeps less than this share of the raw foreground.',
    ),
  edges_min: bounded('quality.edges_min', { min: 0, max: 1 })
    .default(0.005)
    .describe('A3: warn when fewer pixels than this fraction are edges.'),
  edges_max: bounded('quality.edges_max', { min: 0, max: 1 })
    .default(0.25)
    .describe('A3: warn when more pixels than this fraction are edges.'),
  binary_minority_min: bounded('quality.binary_minority_min', { min: 0, max: 0.5 })
    .default(0.02)
    .describe('A4: warn when the rarer of the two tones covers less of the image than this.'),
  crop_subject_min: bounded('quality.crop_subject_min', { min: 0, max: 1 })
    .default(0.25)
    .describe(
      "A1: warn when the centre crop keeps less than this share of A6's foreground (a subject filling the frame keeps about crop.fraction², 36 %).",
    ),
  blob_solidity_min: bounded('quality.blob_solidity_min', { min: 0, max: 1 })
    .default(0.9)
    .describe(
      'A6 blob check: a silhouette at least this solid (foreground / convex hull area; 1 = convex) …',
    ),
  blob_outline_edges_max: bounded('quality.blob_outline_edges_max', { min: 0, max: 1 })
    .default(0.7)
    .describe(
      "… whose outline follows A3's edges (within 2 px) for less than this share of its length …",
    ),
  blob_edges_min: bounded('quality.blob_edges_min', { min: 0, max: 1 })
    .default(0.03)
    .describe(
      '… in a photo whose edge map (A3) has at least this edge density is a blob, not the subject.',
    ),
  blob_frame_min: bounded('quality.blob_frame_min', { min: 0, max: 1 })
    .default(0.6)
    .describe(
      'A6 blob check: a silhouette at least blob_solidity_min solid that covers at least this share of the frame is a blob, whatever the edges (a segmenter that kept the backdrop).',
    ),
  blob_edges_frame_min: bounded('quality.blob_edges_frame_min', { min: 0, max: 1 })
    .default(0.4)
    .describe(
      'A6 blob check by edges (the three thresholds above) applies only to a silhouette covering at least this share of the frame (GrabCut keeping its rectangle nearly whole).',
    ),
  fragment_frame_max: bounded('quality.fragment_frame_max', { min: 0, max: 1 })
    .default(0.03)
    .describe(
      'A6 fragment check: a silhouette covering less than this share of the frame (and at least silhouette_min) …',
    ),
  fragment_outline_edges_max: bounded('quality.fragment_outline_edges_max', { min: 0, max: 1 })
    .default(0.5)
    .describe(
      "… whose outline follows A3's edges (within 2 px) for less than this share of its length is a fragment, not a subject.",
    ),
});
export type QualityThresholds = z.output<typeof Quality>;

/** The quality thresholds of a recipe: its own `quality` section, defaults filled in. */
export function qualityThresholds(recipe: Recipe): QualityThresholds {
  return Quality.parse(recipe.quality ?? {});
}

export const Recipe = z.strictObject({
  format: z.literal(RECIPE_FORMAT).default(RECIPE_FORMAT),
  version: z.literal(RECIPE_VERSION).default(RECIPE_VERSION),
  original: Original.prefault({}),
  crop: Crop.prefault({}),
  edges: Edges.prefault({}),
  binary: Binary.prefault({}),
  lowpass: Lowpass.prefault({}),
  silhouette: Silhouette.prefault({}),
  metrics: Metrics.prefault({}),
  output: Output.prefault({}),
  contact_sheet: ContactSheet.prefault({}),
  // Optional, and absent unless a recipe sets it: thresholds change no output, only the warnings
  // (the lock records them resolved under `quality`), so a default recipe stays what it was.
  quality: Quality.optional().describe(
    'Thresholds of the quality warnings (docs/formats/recipe.md); defaults when absent.',
  ),
});
export type Recipe = z.output<typeof Recipe>;

/** Command-line overrides: each flag names the recipe field it sets. */
export const RECIPE_FLAGS = {
  maxSide: { flag: '--max-side', path: ['original', 'max_side'] },
  cropFraction: { flag: '--crop-fraction', path: ['crop', 'fraction'] },
  binaryThreshold: { flag: '--binary-threshold', path: ['binary', 'threshold'] },
  lowpassFilter: { flag: '--lowpass-filter', path: ['lowpass', 'filter'] },
  cutoff: { flag: '--cutoff', path: ['lowpass', 'cutoff'] },
  lowpassChannels: { flag: '--lowpass-channels', path: ['lowpass', 'channels'] },
  silhouette: { flag: '--silhouette', path: ['silhouette', 'method'] },
  metrics: { flag: '--metrics', path: ['metrics', 'level'] },
} as const;
export type RecipeOverrides = Partial<Record<keyof typeof RECIPE_FLAGS, string | number>>;

/** The default recipe of VARIANTS.md. */
export function defaultRecipe(): Recipe {
  return Recipe.parse({});
}

function setAt(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let o = target;
  for (const key of path.slice(0, -1)) {
    const next = o[key];
    const copy: Record<string, unknown> =
      next && typeof next === 'object' && !Array.isArray(next) ? { ...next } : {};
    o[key] = copy;
    o = copy;
  }
  o[path[path.length - 1]!] = value;
}

// Every bad value of binary.threshold fails both members of its union: say what the union allows.
RANGES.set('binary.threshold', THRESHOLD_ALLOWED);

function withRanges(problems: Problem[]): Problem[] {
  for (const p of problems) {
    if (p.field === 'binary.threshold') {
      p.message = 'value not allowed';
      p.expected = THRESHOLD_ALLOWED;
      p.fix = `set binary.threshold to ${THRESHOLD_ALLOWED}`;
      continue;
    }
    const range = p.field ? RANGES.get(p.field) : undefined;
    if (range && p.message.startsWith('out of range')) {
      p.expected = range;
      p.fix = `set ${p.field} to ${range}`;
    }
  }
  return problems;
}

/**
 * The segmenter parameters of a recipe file (`silhouette.isnet`, `silhouette.grabcut`: both,
 * whichever method is chosen), checked against the segmenters' own schemas, with lines.
 */
function segmenterProblems(parsed: ParsedDataFile, value: Record<string, unknown>): Problem[] {
  const silhouette = value.silhouette;
  if (!silhouette || typeof silhouette !== 'object' || Array.isArray(silhouette)) return [];
  const problems: Problem[] = [];
  for (const [method, schema] of Object.entries(PARAM_SCHEMAS)) {
    const params = (silhouette as Record<string, unknown>)[method];
    if (!params || typeof params !== 'object' || Array.isArray(params)) continue; // the recipe schema reports it
    for (const { problem, path } of paramIssues(schema, params, method)) {
      problems.push({
        ...problem,
        file: parsed.file,
        line: lineOf(parsed, ['silhouette', method, ...path]),
      });
    }
  }
  return problems;
}

/** A flag value as the recipe takes it: numeric text as a number, anything else as given. */
function flagValue(value: string | number): string | number {
  return typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))
    ? Number(value)
    : value;
}

function fail(source: string, problems: Problem[]): never {
  throw new StimkitError(
    'E_VARIANTS_RECIPE',
    `${source}: ${problems.length} problem(s) in the recipe`,
    {
      fix: 'correct the recipe as each problem below says (docs/VARIANTS.md lists every field)',
      problems,
    },
  );
}

/**
 * Resolve the recipe: defaults, then the recipe file (YAML or JSON, any subset of fields), then the
 * flags. Throws `E_VARIANTS_RECIPE` (exit 1) naming every bad field with its allowed range,
 * including the segmenter parameters under `silhouette` (problems coded `E_SEGMENT_PARAM`).
 */
export async function resolveRecipe(
  file?: string,
  overrides: RecipeOverrides = {},
): Promise<Recipe> {
  let parsed: ParsedDataFile | undefined;
  let base: Record<string, unknown> = {};
  if (file) {
    parsed = parseDataText(
      file,
      await readTextFile(file, 'E_VARIANTS_RECIPE'),
      'E_VARIANTS_RECIPE',
    );
    const value = parsed.value ?? {};
    if (typeof value !== 'object' || Array.isArray(value)) {
      fail(file, [
        {
          code: 'E_VARIANTS_RECIPE',
          severity: 'error',
          file,
          message: 'a recipe is a mapping of sections',
          got: describeValue(value),
          fix: 'see docs/formats/recipe.md',
        },
      ]);
    }
    base = value as Record<string, unknown>;
    const own = Recipe.safeParse(base);
    const problems = [
      ...(own.success ? [] : withRanges(zodProblems(parsed, own.error, 'E_VARIANTS_RECIPE'))),
      ...segmenterProblems(parsed, base),
    ];
    if (problems.length > 0) fail(file, problems);
  }
  const merged: Record<string, unknown> = { ...base };
  const fromFlag = new Map<string, string>();
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    const spec = RECIPE_FLAGS[key as keyof typeof RECIPE_FLAGS];
    setAt(merged, spec.path, key === 'binaryThreshold' ? flagValue(value) : value);
    fromFlag.set(spec.path.join('.'), spec.flag);
  }
  const result = Recipe.safeParse(merged);
  if (!result.success) {
    const doc = parsed ?? parseDataText('(command line)', '{}', 'E_VARIANTS_RECIPE');
    const problems = withRanges(
      zodProblems({ ...doc, value: merged }, result.error, 'E_VARIANTS_RECIPE'),
    );
    for (const p of problems) {
      const flag = p.field ? fromFlag.get(p.field) : undefined;
      if (flag) {
        p.file = '(command line)';
        p.line = undefined;
        p.message = `${flag}: ${p.message}`;
        if (p.expected) p.fix = `give ${flag} ${p.expected}`;
      }
    }
    fail(file ?? '(command line)', problems);
  }
  return result.data;
}
