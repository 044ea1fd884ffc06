/**
 * Parameters of the two segmenters: zod schemas (the single source of truth, with defaults) and
 * a parser that reports every bad value with its field and allowed range (`E_SEGMENT_PARAM`).
 */
import { z } from 'zod';
import { describeValue, StimkitError, type Problem } from '../../core/errors.js';
import { ISNET_MODELS } from './model.js';

/** Default IS-Net variant; chosen by the benchmark in docs/segmentation.md. */
const DEFAULT_ISNET_MODEL = 'medium' as const;

/** `isnet` parameters. */
export const IsnetParamsSchema = z
  .strictObject({
    /** Which IS-Net variant of the package to run. */
    model: z.enum(ISNET_MODELS).default(DEFAULT_ISNET_MODEL),
    /** Foreground where the probability (at A0 size) is ≥ threshold. */
    threshold: z.number().gt(0).lt(1).default(0.5),
    /** onnxruntime intra-op threads; 0 = one per core (`os.availableParallelism()`). */
    threads: z.number().int().min(0).max(256).default(0),
    /** Folder of the model package, when not the installed one (tests). Not recorded. */
    packageDir: z.string().min(1).optional(),
  })
  .describe('isnet segmenter parameters');
export type IsnetParams = z.infer<typeof IsnetParamsSchema>;

/** `grabcut` parameters. */
export const GrabcutParamsSchema = z
  .strictObject({
    /** Long side (px) of the working image; larger images are reduced to it (never enlarged). */
    resolution: z.number().int().min(16).max(4096).default(320),
    /** GrabCut iterations. */
    iterations: z.number().int().min(1).max(50).default(5),
    /** Seed of OpenCV's RNG (`cv.setRNGSeed`) set before every call; 0 gives OpenCV's default state. */
    seed: z.number().int().min(0).max(2147483647).default(0),
    /** Fraction of each side left out on each edge of the initial rectangle. */
    margin: z.number().gt(0).lt(0.5).default(0.05),
  })
  .describe('grabcut segmenter parameters');
export type GrabcutParams = z.infer<typeof GrabcutParamsSchema>;

/** One bad parameter: the problem (field `silhouette.<method>.<key>`) and its path inside the params object. */
export interface ParamIssue {
  problem: Problem;
  /** Path of the offending key inside `params` (for line numbers in a recipe file). */
  path: PropertyKey[];
}

/**
 * Every problem of `params` against `schema` (unknown keys, values out of range), each with its
 * field and allowed values; empty when the params are valid. `parseParams` throws them; the
 * recipe reports them with the recipe file's line numbers.
 */
export function paramIssues(schema: z.ZodType, params: unknown, method: string): ParamIssue[] {
  const result = schema.safeParse(params ?? {});
  if (result.success) return [];
  const value = (params ?? {}) as Record<string, unknown>;
  return result.error.issues.map((issue): ParamIssue => {
    const key = issue.path.map(String).join('.');
    const field = `silhouette.${method}${key ? `.${key}` : ''}`;
    const got =
      issue.path.length > 0 && value && typeof value === 'object'
        ? value[String(issue.path[0])]
        : params;
    if (issue.code === 'unrecognized_keys') {
      const keys = (issue as { keys: string[] }).keys;
      return {
        path: [...issue.path, keys[0]!],
        problem: {
          code: 'E_SEGMENT_PARAM',
          severity: 'error',
          field,
          message: `unknown ${method} parameter(s) ${keys.map((k) => `"${k}"`).join(', ')}`,
          expected: `one of ${Object.keys((schema as unknown as z.ZodObject).shape).join(', ')}`,
          got: keys.join(', '),
          fix: 'remove or rename them',
        },
      };
    }
    return {
      path: [...issue.path],
      problem: {
        code: 'E_SEGMENT_PARAM',
        severity: 'error',
        field,
        message: `bad ${method} parameter`,
        expected: issue.message,
        got: describeValue(got),
        fix: `set ${field} within the allowed range`,
      },
    };
  });
}

/** Parse `params` against `schema`, throwing one `E_SEGMENT_PARAM` error listing every problem. */
export function parseParams<S extends z.ZodType>(
  schema: S,
  params: Record<string, unknown> | undefined,
  method: string,
): z.infer<S> {
  const result = schema.safeParse(params ?? {});
  if (result.success) return result.data;
  const problems = paramIssues(schema, params, method).map((i) => i.problem);
  throw new StimkitError(
    'E_SEGMENT_PARAM',
    problems
      .map((p) => `${p.field}: ${p.message} (expected ${p.expected}, got ${p.got})`)
      .join('; '),
    { fix: 'correct the segmenter parameters listed (docs/segmentation.md lists each)', problems },
  );
}

/** The parameter schema of each method, for checking a recipe's `silhouette.<method>` sections. */
export const PARAM_SCHEMAS = { isnet: IsnetParamsSchema, grabcut: GrabcutParamsSchema } as const;
