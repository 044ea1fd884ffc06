/**
 * Human validation of the judges (the audit paper's section 4.3, Appendices D and G): from a
 * labels CSV (`stimkit label export`, one row per sample item × rater) and a scores folder (the
 * judges' labels in scores.jsonl), per dimension D1–D5: the raters' reliability (raw pairwise
 * agreement, Gwet's AC1, mean pairwise Cohen's kappa, Fleiss' kappa, prevalence), and for each
 * judge its confusion matrix against the human majority with precision, recall, specificity, raw
 * agreement and Cohen's kappa; then Appendix G's attenuation note: the judge's rate over the whole
 * scored run, and that rate corrected by Rogan–Gladen with the sensitivity and specificity
 * measured here (delta-method interval that carries their sampling error).
 */
import { z } from 'zod';
import { StimkitError } from '../core/errors.js';
import { readTextFile, sha256 } from '../core/fsio.js';
import { TOOL } from '../core/tool.js';
import { parseCsv } from '../core/csv.js';
import { VLM_PARADIGMS } from '../study/schema.js';
import { confusion, majority, raterAgreement } from './agreement.js';
import { correctPrevalence } from './attenuation.js';
import { Label } from './label.js';
import {
  DIMS,
  type CorrectedRate,
  type Dim,
  type DimensionValidation,
  type ValidationInput,
  type ValidationReport,
} from './validation-format.js';

/** A labels CSV row whose `note` starts with this comes from a simulated rater (src/label/sim-raters.ts). */
export const SIMULATED_RATER_NOTE = 'SIMULATED rater';
/** The labels CSV column of each dimension (docs/formats/labels.md). */
const LABEL_CSV_COLUMNS: Record<Dim, string> = {
  d1: 'd1_refusal',
  d2: 'd2_integrity',
  d3: 'd3_grounding',
  d4: 'd4_state_aligned',
  d5: 'd5_language',
};
const FROM_LABEL: Record<Dim, (l: Label) => boolean | null> = {
  d1: (l) => l.explicit_refusal,
  d2: (l) => l.info_integrity,
  d3: (l) => l.visual_grounded,
  d4: (l) => l.state_aligned,
  d5: (l) => l.language_consistent,
};

type Answers = Record<Dim, boolean | null>;
const key = (trial: string, model: string) => `${trial}@${model}`;

/** Human answers by response key and rater, read from a labels CSV. */
export async function readHumanLabels(file: string): Promise<{
  raters: string[];
  simulated: string[];
  items: Map<string, Map<string, Answers>>;
  sha256: string;
  bundleDigests: Map<string, number>;
}> {
  const text = await readTextFile(file, 'E_AUDIT_LABELS');
  const { header, rows } = parseCsv(text);
  const need = ['trial_id', 'model', 'rater', ...Object.values(LABEL_CSV_COLUMNS)];
  const missing = need.filter((c) => !header.includes(c));
  if (missing.length > 0) {
    throw StimkitError.fromProblem({
      code: 'E_AUDIT_LABELS',
      file,
      message: `the labels CSV lacks column(s) ${missing.join(', ')}`,
      fix: 'pass the CSV `stimkit label export` writes (docs/formats/labels.md)',
    });
  }
  const col = (r: string[], c: string) => r[header.indexOf(c)] ?? '';
  const items = new Map<string, Map<string, Answers>>();
  const raters = new Set<string>();
  const real = new Set<string>();
  /** How many rows name each bundle digest (column `bundle_digest`, when present). */
  const bundleDigests = new Map<string, number>();
  for (const r of rows) {
    const d = header.includes('bundle_digest') ? col(r, 'bundle_digest').trim() : '';
    if (d) bundleDigests.set(d, (bundleDigests.get(d) ?? 0) + 1);
  }
  for (const r of rows) {
    if (header.includes('mode') && col(r, 'mode') === 'review') continue;
    if (!header.includes('note') || !col(r, 'note').startsWith(SIMULATED_RATER_NOTE))
      real.add(col(r, 'rater'));
    const a = {} as Answers;
    for (const d of DIMS) {
      const v = col(r, LABEL_CSV_COLUMNS[d]).trim().toLowerCase();
      a[d] = v === 'true' ? true : v === 'false' ? false : null;
    }
    const k = key(col(r, 'trial_id'), col(r, 'model'));
    const rater = col(r, 'rater');
    raters.add(rater);
    if (!items.has(k)) items.set(k, new Map());
    items.get(k)!.set(rater, a);
  }
  return {
    raters: [...raters].sort(),
    simulated: [...raters].filter((x) => !real.has(x)).sort(),
    items,
    sha256: sha256(text),
    bundleDigests,
  };
}

/** `scores.jsonl` as read (and checked against score.json's sha256) by the caller. */
export interface ScoresText {
  /** The file, for errors. */
  file: string;
  text: string;
}

/**
 * What validation reads of a scores line: the response's key and paradigm, and for a VLM
 * paradigm the judges' verdicts with their labels (null: the judge gave none). Other fields and
 * other paradigms' `parse` are not read.
 */
const ScoredResponse = z.object({
  trial: z.string(),
  model: z.string(),
  paradigm: z.string(),
  parse: z.record(z.string(), z.unknown()),
});
const VlmJudges = z.object({
  parse: z.object({
    judges: z.array(z.object({ judge: z.string(), label: Label.nullable() })).optional(),
  }),
});

const SCORES_FIX =
  'pass the scores folder stimkit score --judge wrote (score again if it was changed)';

/** Parse line `i` (0-based) of scores.jsonl by `schema`, or throw E_AUDIT_SCORES naming the line. */
function scoresLine<T>(scores: ScoresText, i: number, value: unknown, schema: z.ZodType<T>): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  throw StimkitError.fromProblem({
    code: 'E_AUDIT_SCORES',
    file: scores.file,
    line: i + 1,
    field: issue.path.join('.'),
    message: `not a scores line with judge labels: ${issue.message}`,
    fix: SCORES_FIX,
  });
}

/** Each judge's labels by response key, and the judges' order, from scores.jsonl. */
function readScoresJudges(scores: ScoresText): {
  judges: string[];
  labels: Map<string, Map<string, Answers>>;
  scored: Set<string>;
} {
  const labels = new Map<string, Map<string, Answers>>();
  const judges: string[] = [];
  const scored = new Set<string>();
  scores.text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw StimkitError.fromProblem(
        {
          code: 'E_AUDIT_SCORES',
          file: scores.file,
          line: i + 1,
          message: 'not JSON',
          fix: SCORES_FIX,
        },
        err,
      );
    }
    const rec = scoresLine(scores, i, value, ScoredResponse);
    if (!(VLM_PARADIGMS as readonly string[]).includes(rec.paradigm)) return;
    scored.add(key(rec.trial, rec.model));
    for (const v of scoresLine(scores, i, value, VlmJudges).parse.judges ?? []) {
      if (!judges.includes(v.judge)) judges.push(v.judge);
      if (!labels.has(v.judge)) labels.set(v.judge, new Map());
      if (!v.label) continue;
      const a = {} as Answers;
      for (const d of DIMS) a[d] = FROM_LABEL[d](v.label);
      labels.get(v.judge)!.set(key(rec.trial, rec.model), a);
    }
  });
  return { judges, labels, scored };
}

/** What the scores must agree with. */
export interface ValidateOptions {
  /** How validation.json names the labels file (default: as given). */
  labelsName?: string;
  /** The bundle digest the scores were scored against (score.json); labels naming another are refused. */
  bundleDigest?: string;
}

/**
 * Validate the judges of a scores folder (its scores.jsonl, read by the caller) against human
 * labels. Refuses a line without judge labels it can read (E_AUDIT_SCORES, naming the line and
 * field), labels of another bundle (E_AUDIT_LABELS_BUNDLE), scores without judges
 * (E_AUDIT_NO_JUDGES) and labels none of whose items are in the scores
 * (E_AUDIT_LABELS_NO_OVERLAP); counts the labelled items not found.
 */
export async function validateJudges(
  scores: ScoresText,
  labelsCsv: string,
  options: ValidateOptions = {},
): Promise<ValidationReport> {
  const labelsName = options.labelsName ?? labelsCsv;
  const human = await readHumanLabels(labelsCsv);
  const scoresFile = scores.file;
  const { judges, labels, scored } = readScoresJudges(scores);
  checkLabelsBelong(labelsCsv, scoresFile, options.bundleDigest, human.bundleDigests);
  if (judges.length === 0) {
    throw StimkitError.fromProblem({
      code: 'E_AUDIT_NO_JUDGES',
      file: scoresFile,
      message: 'these scores carry no judge labels, so there is nothing to validate',
      expected: 'scores written by stimkit score --judge NAME',
      got: 'scores without judges',
      fix: 'score with --judge first (stimkit score … --judge NAME --out DIR), then validate that folder',
    });
  }
  const keys = [...human.items.keys()].sort();
  const matched = keys.filter((k) => scored.has(k)).length;
  if (matched === 0) {
    throw StimkitError.fromProblem({
      code: 'E_AUDIT_LABELS_NO_OVERLAP',
      file: labelsCsv,
      field: 'trial_id, model',
      message: 'none of the labelled items (trial × model) is in the scores',
      expected: `labelled items of the responses scored in ${scoresFile}`,
      got: `0 of ${keys.length} labelled item(s) found`,
      fix: 'label a sample drawn from the ledger these scores come from, or pass the scores folder of the labelled run',
    });
  }
  const dimensions: DimensionValidation[] = DIMS.map((d) => {
    const ratings = keys.map((k) =>
      human.raters.map((r) => human.items.get(k)!.get(r)?.[d] ?? null),
    );
    const maj = ratings.map((r) => majority(r));
    return {
      dimension: d,
      raters: raterAgreement(ratings),
      judges: judges.map((j) => judgeValidation(j, d, keys, maj, labels.get(j))),
    };
  });
  const inputs: ValidationInput[] = [
    { role: 'scores', file: 'scores.jsonl', sha256: sha256(scores.text) },
    { role: 'labels', file: labelsName, sha256: human.sha256 },
  ];
  const simulated = human.simulated.length > 0 ? { simulated_raters: human.simulated } : {};
  const unmatched = matched < keys.length ? { unmatched_items: keys.length - matched } : {};
  return {
    format: 'stimkit.validation',
    version: 1,
    tool: { ...TOOL },
    inputs,
    raters: human.raters,
    ...simulated,
    items: keys.length,
    ...unmatched,
    judges,
    dimensions,
  };
}

/** One judge on one dimension: its agreement with the raters' majority and its corrected rate. */
function judgeValidation(
  j: string,
  d: Dim,
  keys: string[],
  maj: Array<boolean | null>,
  judged: Map<string, Answers> | undefined,
): DimensionValidation['judges'][number] {
  const all = judged ?? new Map<string, Answers>();
  const c = confusion(
    keys.map((k) => all.get(k)?.[d] ?? null),
    maj,
  );
  const values = [...all.values()].map((a) => a[d]).filter((v): v is boolean => v !== null);
  const positives = values.filter(Boolean).length;
  let correction: CorrectedRate | null = null;
  let note =
    'Appendix G: with sensitivity s < 1 and specificity near 1 the judged rate is about s × the true rate, a lower bound; odds ratios are nearly unaffected when rates are small.';
  const pos = c.tp + c.fn;
  const neg = c.tn + c.fp;
  if (
    values.length > 0 &&
    c.recall !== null &&
    c.specificity !== null &&
    c.recall + c.specificity > 1
  ) {
    correction = correctPrevalence(
      positives,
      values.length,
      { value: c.recall, n: pos },
      { value: c.specificity, n: neg },
    );
  } else
    note +=
      ' No Rogan–Gladen correction: the validation gives no usable sensitivity and specificity (no positives or negatives, or a judge no better than chance).';
  return {
    judge: j,
    vs_majority: c,
    attenuation: { labelled: values.length, positives, correction, note },
  };
}

/** Refuse labels whose `bundle_digest` column names another bundle than the scores'. */
function checkLabelsBelong(
  labelsCsv: string,
  scoresFile: string,
  expected: string | undefined,
  digests: Map<string, number>,
): void {
  if (expected === undefined) return;
  const other = [...digests].filter(([d]) => d !== expected);
  if (other.length === 0) return;
  throw StimkitError.fromProblem({
    code: 'E_AUDIT_LABELS_BUNDLE',
    file: labelsCsv,
    field: 'bundle_digest',
    message: `${other.reduce((n, [, c]) => n + c, 0)} labelled row(s) come from another bundle than the scores (${scoresFile})`,
    expected: expected,
    got: other.map(([d]) => d).join(', '),
    fix: "validate with the labels of a sample drawn from the run these scores come from, or pass that run's scores folder",
  });
}
