/**
 * Does a batch output file belong to the model it is imported under? The output lines carry only
 * the trial id (`custom_id`), but every answered line's `response.body.model` names the model
 * that served it. `batch import --model NAME` checks those names against the model's `api_model`
 * (from the models file) or NAME, before recording anything, so that one model's answers are
 * never filed under another.
 */
import { StimkitError } from '../core/errors.js';

/** The last path segment, lower-cased: `Org/VLM-7B` → `vlm-7b`. */
const base = (name: string) => name.split('/').pop()!.toLowerCase();

/**
 * A snapshot of a model name: a date (`-2024-08-06`, `-20250929`), an OpenAI `-MMDD`
 * (`gpt-4-0613`), a Gemini version (`-001`) or `-latest`.
 */
const SNAPSHOT = /^-(\d{4}-\d{2}-\d{2}|\d{8}|\d{3,4}|latest)$/;

/**
 * Whether `served` (what the server said answered) can be `requested` (what was asked for):
 * the same name, or the asked name followed by a snapshot suffix (`gpt-4o` served as
 * `gpt-4o-2024-08-06`, `gemini-2.0-flash` as `gemini-2.0-flash-001`), compared without the
 * organisation prefix. Another model that only starts alike (`gpt-4o-mini-2024-07-18` for
 * `gpt-4o`, `gemini-2.5-flash-lite` for `gemini-2.5-flash`) is refused.
 */
export function servedMatches(requested: string, served: string): boolean {
  const a = base(requested);
  const b = base(served);
  return a === b || (b.startsWith(a) && SNAPSHOT.test(b.slice(a.length)));
}

/**
 * Refuse (E_BATCH_MODEL) when an answered line names a served model that is not `requested`.
 * Lines without `response.body.model` are not checked.
 */
export function checkServedModel(
  file: string,
  modelName: string,
  requested: string,
  lines: Array<{ line: number; served: unknown }>,
  modelsFile?: string,
): void {
  const bad = lines.filter(
    (l) => typeof l.served === 'string' && l.served !== '' && !servedMatches(requested, l.served),
  );
  if (bad.length === 0) return;
  const first = bad[0]!;
  const names = [...new Set(bad.map((l) => String(l.served)))];
  throw StimkitError.fromProblem({
    code: 'E_BATCH_MODEL',
    file,
    line: first.line,
    field: 'response.body.model',
    message: `${bad.length} answered line(s) were served by another model than "${modelName}"; nothing recorded`,
    expected: `"${requested}"${requested === modelName ? '' : ` (the api_model of ${modelName})`}`,
    got:
      names
        .slice(0, 3)
        .map((n) => `"${n}"`)
        .join(', ') + (names.length > 3 ? ', …' : ''),
    fix: modelsFile
      ? `pass --model the name this file was exported for, or check its api_model in ${modelsFile}`
      : 'pass --model the name this file was exported for, with --models FILE (the models file that names its api_model)',
  });
}
