/**
 * The judges `--judge` names, looked up in the models file: each must be there with `role: judge`.
 * Shared by the audit judge and the instrument's free-text judge.
 */
import { StimkitError } from '../core/errors.js';
import { loadModelsFile } from '../models/load.js';
import type { ModelSpec } from '../models/schema.js';

/** Load the models file and return the named judges, refusing unknown names and non-judges. */
export async function resolveJudges(
  modelsFile: string | undefined,
  names: string[],
): Promise<ModelSpec[]> {
  if (!modelsFile)
    throw StimkitError.usage(
      'E_SCORE_USAGE',
      '--judge needs --models FILE (the judges are models with role: judge)',
      'add --models FILE with the judge models (role: judge)',
    );
  const file = await loadModelsFile(modelsFile);
  return names.map((n) => {
    const m = file.models.find((x) => x.name === n);
    if (!m)
      throw StimkitError.usage(
        'E_AUDIT_UNKNOWN_JUDGE',
        `--judge ${n}: not in ${modelsFile} (its judges: ${
          file.models
            .filter((x) => x.role === 'judge')
            .map((x) => x.name)
            .join(', ') || 'none'
        })`,
        'name a judge of the models file (listed above), or add it there with role: judge',
      );
    if (m.role !== 'judge')
      throw StimkitError.usage(
        'E_AUDIT_NOT_A_JUDGE',
        `--judge ${n}: that model has role ${m.role}; give it role: judge in ${modelsFile}`,
        'set `role: judge` on that model in the models file, or name a judge',
      );
    return m;
  });
}
