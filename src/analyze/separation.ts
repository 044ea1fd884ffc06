/**
 * `analyze logit` and separation: when maximum likelihood fails with separation, an LP
 * (`detectSeparation`) names exactly the coefficients whose estimates are infinite and the error
 * offers `--firth`; with `--firth` the same check is reported beside the penalised fit, so the
 * reader sees why it was needed.
 */
import { StimkitError } from '../core/errors.js';
import { detectSeparation, type SeparationReport } from '../stats/index.js';
import {
  regressionInputs,
  regressTable,
  type RegressParams,
  type RegressReport,
} from './regress.js';
import type { Table } from './table.js';

/** `E_STATS_SEPARATION` naming the terms the LP found, with the remedy. */
function separationError(
  sep: SeparationReport,
  cluster: string | null,
  cause: unknown,
): StimkitError {
  const names = sep.terms.map((t) => `${t.term} (${t.direction})`).join(', ');
  return StimkitError.fromProblem(
    {
      code: 'E_STATS_SEPARATION',
      message: `the outcome is ${sep.kind === 'complete' ? 'completely' : 'quasi-completely'} separated: the maximum-likelihood estimate of ${sep.terms.map((t) => `"${t.term}"`).join(', ')} is infinite`,
      field: sep.terms.map((t) => t.term).join(', '),
      expected:
        'both outcomes on each side of every term (no combination of the terms that predicts the outcome perfectly)',
      got: `infinite estimates: ${names}`,
      fix: `rerun with --firth${cluster ? ' and without --cluster' : ''} (Firth's penalised likelihood with profile-likelihood intervals, as R's logistf), or drop or merge the level(s) behind ${sep.terms.map((t) => `"${t.term}"`).join(', ')}`,
    },
    cause,
  );
}

/**
 * `regressTable` with separation handled: a maximum-likelihood logit that fails with
 * `E_STATS_SEPARATION` is checked by LP and the error names every separating term and offers
 * --firth; a Firth fit carries the same check as `separation`.
 */
export async function regressWithSeparation(
  model: 'logit' | 'ols',
  table: Table,
  params: RegressParams,
): Promise<RegressReport> {
  let report: RegressReport;
  try {
    report = regressTable(model, table, params);
  } catch (err) {
    if (model !== 'logit' || (err as StimkitError).code !== 'E_STATS_SEPARATION') throw err;
    const { design, y } = regressionInputs(model, table, params);
    const sep = await detectSeparation(design, y);
    if (sep.kind !== 'none') throw separationError(sep, params.cluster, err);
    // No separation: the estimate exists. A converged fit refused for a large effect across a
    // term's range (a long-tailed continuous term) is kept; a fit that did not converge is not.
    try {
      report = regressTable(model, table, params, { largeEffects: 'keep' });
    } catch {
      throw err;
    }
  }
  if (model === 'logit' && params.firth) {
    const { design, y } = regressionInputs(model, table, params);
    report.separation = await detectSeparation(design, y);
  }
  return report;
}
