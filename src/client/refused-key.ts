/**
 * A refused key (401, or a 403 that names no content policy) is as permanent for a model as a
 * redirect: its run stops after the first refusal, and so does a judge's, with the same code and
 * wording (the first refusal says which variable holds the key and what the server answered).
 */
import { StimkitError } from '../core/errors.js';
import type { Redactor } from '../core/redact.js';
import { keyEnvFix, keyEnvText } from '../models/key-env.js';
import type { ModelSpec } from '../models/schema.js';

/** The code of a run or a judging stopped by a refused key. */
const KEY_REFUSED_CODE = 'E_RUN_KEY_REFUSED';

/** What the server refused: the key in the variable the models file names, or no key. */
function refusedWhat(model: ModelSpec): string {
  return model.api_key_env
    ? `the key in ${keyEnvText(model)}`
    : 'no key (the model has no api_key_env)';
}

/** The fix of a refused key. */
function refusedFix(model: ModelSpec, again: string): string {
  return model.api_key_env
    ? `check that ${keyEnvText(model)} holds a valid key for this endpoint (${keyEnvFix(model)}), then ${again}`
    : `name the variable that holds the key in api_key_env, then ${again}`;
}

/** The line of a refusal: the code, status, endpoint (as recorded), the variable, and the reply (redacted whole, then cut). */
function refusedLine(
  model: ModelSpec,
  status: number,
  endpoint: string,
  body: string,
  redactor: Redactor,
  stopped: string,
): string {
  return `${KEY_REFUSED_CODE}: HTTP ${status} from ${endpoint}: the server refused ${refusedWhat(model)}; ${stopped}. ${redactor.cut(body, 200)}`;
}

/** The run summary's line for a model stopped by a refused key. */
export function keyRefusedStop(
  model: ModelSpec,
  status: number,
  endpoint: string,
  body: string,
  redactor: Redactor,
): string {
  return refusedLine(model, status, endpoint, body, redactor, "stopped this model's run");
}

/** The error that stops a judge whose key was refused (its attempt is recorded first). */
export function keyRefusedError(
  model: ModelSpec,
  status: number,
  endpoint: string,
  body: string,
  redactor: Redactor,
): StimkitError {
  const line = refusedLine(model, status, endpoint, body, redactor, 'stopped judging');
  return new StimkitError(
    KEY_REFUSED_CODE,
    `judge "${model.name}": ${line.slice(KEY_REFUSED_CODE.length + 2)}`,
    { fix: refusedFix(model, 'score again (the refused calls are asked again)') },
  );
}
