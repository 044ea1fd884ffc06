/** Reading a models file: the schema check, then unique names, every problem at once with its line. */
import { lineOf, loadDataFile } from '../core/datafile.js';
import { StimkitError, type Problem } from '../core/errors.js';
import { recordKeyEnvSite } from './key-env.js';
import { ModelsFile, ModelSpec, type ModelSpec as Spec } from './schema.js';

/** Fields whose value may be a secret: a problem there never repeats the value. */
const SECRET_FIELD = /(^|\.)(api_key_env|endpoint)(\[\d+\])?$/;

/** Drop `got` from problems of fields that may hold a secret (a pasted key, a URL with a password). */
function withoutSecrets(err: unknown): unknown {
  if (!(err instanceof StimkitError)) return err;
  for (const p of err.problems) {
    const m = p.field ? SECRET_FIELD.exec(p.field) : null;
    if (!m) continue;
    delete p.got;
    p.fix =
      m[2] === 'endpoint'
        ? `give ${p.field} as the base URL alone (e.g. https://api.example.com/v1); keys go in the environment variable api_key_env names (the value is not repeated here: it may hold a secret)`
        : `set ${p.field} to the NAME of the variable that holds the key, e.g. MY_API_KEY, and export MY_API_KEY=… in the shell (the value is not repeated here: it may be a key)`;
  }
  return err;
}

/** Load and check a models file. */
export async function loadModelsFile(file: string): Promise<ModelsFile> {
  const { data, parsed } = await loadDataFile(file, ModelsFile, 'E_MODELS_SCHEMA').catch(
    (err: unknown) => {
      throw withoutSecrets(err);
    },
  );
  const problems: Problem[] = [];
  const seen = new Map<string, number>();
  data.models.forEach((m, i) => {
    const field = `models[${i}].api_key_env`;
    recordKeyEnvSite(m, { file, line: lineOf(parsed, ['models', i, 'api_key_env']), field });
    if (seen.has(m.name)) {
      problems.push({
        code: 'E_MODELS_DUPLICATE',
        severity: 'error',
        file,
        line: lineOf(parsed, ['models', i, 'name']),
        field: `models[${i}].name`,
        message: `model name "${m.name}" appears twice (first at models[${seen.get(m.name)}])`,
        fix: 'give each model a unique name',
      });
    }
    seen.set(m.name, i);
  });
  if (problems.length > 0)
    throw new StimkitError(
      'E_MODELS_DUPLICATE',
      `${file}: ${problems.length} duplicate model name(s)`,
      { fix: 'give each model in the models file its own name', problems },
    );
  return data;
}

/** A model spec for the one-model shorthand (`--model NAME --endpoint URL`). */
export function shorthandModel(
  name: string,
  endpoint: string,
  apiModel?: string,
  apiKeyEnv?: string,
): Spec {
  const r = ModelSpec.safeParse({ name, endpoint, api_model: apiModel, api_key_env: apiKeyEnv });
  if (!r.success) {
    const msg = r.error.issues
      .map((i) => `${i.path.join('.') || 'model'}: ${i.message}`)
      .join('; ');
    throw StimkitError.usage(
      'E_RUN_USAGE',
      `--endpoint/--api-model/--api-key-env: ${msg}`,
      'correct the flag named above (docs/formats/models.md lists what each field accepts)',
    );
  }
  return r.data;
}

/** Pick the models named by `--model` (all respondents when none). Unknown names are a usage error. */
export function selectModels(models: Spec[], names: string[] | undefined, file: string): Spec[] {
  if (!names || names.length === 0) return models.filter((m) => m.role === 'respondent');
  const unknown = names.filter((n) => !models.some((m) => m.name === n));
  if (unknown.length > 0) {
    throw StimkitError.usage(
      'E_RUN_UNKNOWN_MODEL',
      `--model: ${unknown.map((n) => `"${n}"`).join(', ')} not in ${file} (it has: ${models.map((m) => m.name).join(', ')})`,
      'name models the models file has (listed above), or add them to the file',
    );
  }
  return names.map((n) => models.find((m) => m.name === n)!);
}
