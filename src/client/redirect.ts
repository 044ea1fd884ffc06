/**
 * A redirect is a finding, never followed: fetch would re-send `x-api-key` / `x-goog-api-key`
 * (it strips only `Authorization`), the prompt and its images to whatever host the Location
 * names, over plain http if it says so, and the ledger would name the endpoint asked, not the one
 * that answered. transport.ts asks with `redirect: 'manual'`; classify.ts records a 3xx as a
 * failed result of error class `redirect` with the Location in its error body (redacted whole
 * by the ledger before any cut); the model's run (or the judge's) stops with `E_RUN_REDIRECT`:
 * the redirect is as permanent for that endpoint as a refused key.
 */
import { StimkitError } from '../core/errors.js';
import type { Redactor } from '../core/redact.js';

/** The summary's code of a run stopped by a redirect. */
const REDIRECT_CODE = 'E_RUN_REDIRECT';

/** The error body recorded for a 3xx (the Location whole: the ledger redacts, then cuts). */
export function redirectBody(status: number, location: string | null): string {
  return location === null
    ? `HTTP ${status} redirect without a Location; not followed`
    : `HTTP ${status} redirect to Location: ${location}; not followed`;
}

/** What to do about a redirect from `endpoint` (as recorded: without credentials). */
function redirectFix(endpoint: string, body: string, again: string): string {
  const downgrade =
    endpoint.startsWith('https:') && body.includes('Location: http:')
      ? ' (it points to plain http: the key would travel unencrypted; make sure that is meant)'
      : '';
  return `point the endpoint at the final URL the Location names${downgrade}, then ${again} (redirects are never followed: the key and the request go only to the endpoint you name)`;
}

/**
 * The run summary's line for a model stopped by a redirect: the code, the endpoint, the Location
 * (`body`, redacted whole, then cut) and the fix.
 */
export function redirectStop(endpoint: string, body: string, redactor: Redactor): string {
  return `${REDIRECT_CODE}: ${endpoint} answered ${redactor.cut(body, 300)}; stopped this model's run. Fix: ${redirectFix(endpoint, body, 'run the same command again with --retry-failed')}`;
}

/** The error that stops a judge whose endpoint redirected (its result is recorded first). */
export function redirectError(judge: string, endpoint: string, body: string, redactor: Redactor) {
  return new StimkitError(
    REDIRECT_CODE,
    `judge "${judge}": ${endpoint} answered ${redactor.cut(body, 300)}; stopped judging (recorded as failed, error class redirect)`,
    { fix: redirectFix(endpoint, body, 'score again (failed judge calls are asked again)') },
  );
}
