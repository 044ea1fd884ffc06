/**
 * Model metadata for scoring (origin, vendor, simulated) from a models file (`stimkit.models`).
 * Scoring needs only these fields, so it reads them leniently: a models file that `stimkit run`
 * accepts always works here. Without a models file, origin and vendor are unknown (null).
 */
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { StimkitError } from '../core/errors.js';
import { readTextFile } from '../core/fsio.js';
import type { ModelMeta } from './types.js';

const ModelsForScore = z.looseObject({
  format: z.literal('stimkit.models'),
  version: z.literal(1),
  models: z.array(
    z.looseObject({
      name: z.string().min(1),
      provider: z.string().optional(),
      role: z.string().optional(),
      origin: z.string().optional(),
      vendor: z.string().optional(),
      paradigms: z.array(z.string()).optional(),
    }),
  ),
});

/** Read origin, vendor and provider of every model in a models file, by name. */
export async function readModelMeta(file: string): Promise<Map<string, ModelMeta>> {
  const text = await readTextFile(file, 'E_SCORE_MODELS');
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (err) {
    throw StimkitError.fromProblem(
      {
        code: 'E_SCORE_MODELS',
        file,
        message: `not YAML or JSON (${(err as Error).message})`,
        fix: 'pass the models file `stimkit run` used',
      },
      err,
    );
  }
  const parsed = ModelsForScore.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw StimkitError.fromProblem({
      code: 'E_SCORE_MODELS',
      file,
      field: issue.path.join('.') || undefined,
      message: `not a stimkit models file: ${issue.message}`,
      fix: 'pass the models file `stimkit run` used (format: stimkit.models, version: 1)',
    });
  }
  const out = new Map<string, ModelMeta>();
  for (const m of parsed.data.models) {
    out.set(m.name, {
      name: m.name,
      origin: m.origin ?? null,
      vendor: m.vendor ?? null,
      simulated: m.provider === 'sim',
      paradigms: m.paradigms ?? null,
    });
  }
  return out;
}

/** The metadata of `name`, or unknowns when the models file does not list it. */
export function metaFor(models: ReadonlyMap<string, ModelMeta>, name: string): ModelMeta {
  return models.get(name) ?? { name, origin: null, vendor: null, simulated: false };
}
