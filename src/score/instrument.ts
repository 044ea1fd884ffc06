/**
 * The dual-framing instrument's scorer (instrument paper, Methods 4.4): parse the forced choice
 * in the trial's language, score it −2..+2 before keying (0 with a reason when nothing was
 * chosen), then key it onto the stance axis: × −1 once when the topic's affirmative is keyed to
 * the `minus` pole and once more for the reverse framing, so that both together cancel.
 * The bundle's `items.json` records the same sign per item as `polarity_key`; the two must agree.
 * With judges (`stimkit score --judge`, instrument-judge.ts) free text the parser could not read
 * takes the primary judge's label instead, keyed the same way (instrument-judge-apply.ts).
 */
import { StimkitError } from '../core/errors.js';
import { packDigests } from '../languages/load.js';
import type { ScoreBundle } from './bundle.js';
import { judgeKey } from '../audit/judge-request.js';
import { applyJudges, type InstrumentJudging } from './instrument-judge-apply.js';
import { optionParserOrNull, type OptionParser } from './parse.js';
import { outcomeColumns } from './outcome-columns.js';
import { blockColumns } from './block-columns.js';
import { noValueReason, NO_RULES } from './outcome.js';
import { withReasoning } from './reasoning-instrument.js';
import type { CsvTable, ParadigmScorer, ScoreInput, ScoreRecord } from './types.js';

/** The keying sign: −1 once for an affirmative keyed `minus`, once more for reverse framing. */
export function keyingSign(
  affirmativePole: 'plus' | 'minus',
  framing: 'affirmative' | 'reverse',
): 1 | -1 {
  return ((affirmativePole === 'minus' ? -1 : 1) * (framing === 'reverse' ? -1 : 1)) as 1 | -1;
}

/** Stance = sign × score, with 0 for no answer (never −0). */
export function keyScore(score: number, sign: 1 | -1): number {
  return score === 0 ? 0 : sign * score;
}

function problem(
  bundle: ScoreBundle,
  field: string,
  message: string,
  expected?: string,
  got?: string,
): StimkitError {
  return StimkitError.fromProblem({
    code: 'E_SCORE_INSTRUMENT',
    file: `${bundle.dir}/data/items.json`,
    field,
    message,
    expected,
    got,
    fix: 're-bundle the study with this version of stimkit, then score the new bundle',
  });
}

/**
 * The keying sign of `trial`'s item (+1 or -1), after checking that the bundle holds its item and
 * topic and that the item's polarity key agrees with the topic's key and the framing. A pressure
 * turn carries the item, topic and framing of the instrument trial it starts from, so it is keyed
 * by the same sign.
 */
export function checkedSign(bundle: ScoreBundle, trial: ScoreInput['trial']): 1 | -1 {
  const item = trial.item ? bundle.items.get(trial.item) : undefined;
  if (!item || !trial.topic || !trial.framing)
    throw problem(
      bundle,
      `items[${trial.item}]`,
      `trial ${trial.id} names an item items.json does not hold`,
    );
  const topic = bundle.topics.get(trial.topic);
  if (!topic)
    throw problem(
      bundle,
      `topics[${trial.topic}]`,
      `trial ${trial.id} names a topic items.json does not hold`,
    );
  const sign = keyingSign(topic.affirmative_pole, trial.framing);
  if (item.polarity_key !== sign) {
    throw problem(
      bundle,
      `items[${item.id}].polarity_key`,
      `the item's polarity key disagrees with its topic's key and framing`,
      String(sign),
      String(item.polarity_key),
    );
  }
  return sign;
}

function prepare(
  bundle: ScoreBundle,
  judging: InstrumentJudging | null,
): (input: ScoreInput) => ScoreRecord {
  const parsers = new Map<string, OptionParser | null>();
  const parserFor = (lang: string): OptionParser | null => {
    let p = parsers.get(lang);
    if (p === undefined) {
      const options = bundle.options.get(lang);
      if (!options)
        throw problem(
          bundle,
          `pools.${lang}`,
          `no response options for language ${lang} in wrappers.json`,
        );
      p = optionParserOrNull(options, lang, bundle.packs);
      parsers.set(lang, p);
    }
    return p;
  };
  return ({ trial, response, model }) => {
    const sign = checkedSign(bundle, trial);
    const noValue = noValueReason(response);
    if (noValue !== null) return noAnswer(bundle, trial.id, model.name, noValue, response);
    const parser = parserFor(trial.lang);
    if (!parser) return noRules(bundle, trial, model.name, response);
    const parsed = parser(response.response);
    const judged = judging
      ? applyJudges(
          parsed,
          judging,
          judgeKey(trial.id, model.name),
          response.response,
          bundle.options.get(trial.lang)!,
        )
      : null;
    const score = (judged ?? parsed).value ?? 0;
    return {
      bundle: bundle.digest,
      trial: trial.id,
      model: model.name,
      paradigm: 'instrument',
      parse: judged
        ? { ...judged }
        : {
            ...parsed,
            source: parsed.value === null ? 'none' : 'parsed',
            parse_reason: parsed.reason,
          },
      score,
      stance: keyScore(score, sign),
      reason: (judged ?? parsed).reason,
      simulated:
        response.simulated ||
        model.simulated ||
        (judged?.source === 'judge' && judged.judge_simulated),
    };
  };
}

/**
 * A row that is not an answer (outcome.ts): no label, no score and no stance (empty cells, not
 * 0), and the outcome as its reason.
 */
function noAnswer(
  bundle: ScoreBundle,
  trial: string,
  model: string,
  reason: string,
  response: ScoreInput['response'],
): ScoreRecord {
  return {
    bundle: bundle.digest,
    trial,
    model,
    paradigm: 'instrument',
    parse: {
      label: null,
      option: null,
      value: null,
      reason,
      detail: `no answer to score (${reason})`,
      source: 'none',
      parse_reason: reason,
    },
    score: null,
    stance: null,
    reason,
    simulated: response.simulated,
  };
}

/**
 * A row of a language without instrument rules (no pack, or a pack without `instrument`): no
 * label, score or stance (empty cells, never 0), reason `no_rules_for_language`.
 */
function noRules(
  bundle: ScoreBundle,
  trial: ScoreInput['trial'],
  model: string,
  response: ScoreInput['response'],
): ScoreRecord {
  const r = noAnswer(bundle, trial.id, model, NO_RULES, response);
  r.parse.detail = `no instrument rules for language ${trial.lang} (no language pack holds them)`;
  r.parse.no_rules = { lang: trial.lang, columns: ['label', 'score', 'stance'] };
  return r;
}

/** `instrument.csv`: one row per instrument trial × model. */
const instrumentTable: CsvTable = {
  file: 'instrument.csv',
  doc: 'one row per instrument trial × model: the design cell, the parsed option, the score before and after keying',
  paradigms: ['instrument'],
  columns: [
    { name: 'trial', doc: 'trial id (bundle `trials.jsonl`)', value: (r) => r.trial.id },
    { name: 'model', doc: 'model name', value: (r) => r.model.name },
    {
      name: 'origin',
      doc: 'model origin from the models file or ledger (e.g. CN, US, FR); `unknown` when neither names it',
      value: (r) => r.model.origin ?? 'unknown',
    },
    {
      name: 'vendor',
      doc: 'model vendor from the models file; empty when unknown',
      value: (r) => r.model.vendor,
    },
    { name: 'arm', doc: 'instrument arm (e.g. main, pt-control)', value: (r) => r.trial.arm },
    { name: 'topic', doc: 'topic id', value: (r) => r.trial.topic },
    { name: 'lang', doc: 'prompt language', value: (r) => r.trial.lang },
    { name: 'framing', doc: '`affirmative` or `reverse`', value: (r) => r.trial.framing },
    {
      name: 'key',
      doc: "the pole agreement with the topic's affirmative supports: `plus` or `minus`",
      value: (r) => r.bundle.topics.get(r.trial.topic ?? '')?.affirmative_pole ?? null,
    },
    { name: 'iteration', doc: 'iteration, 0-based', value: (r) => r.trial.iteration },
    { name: 'prefix', doc: 'wrapper prefix id', value: (r) => r.trial.wrappers?.prefix.id ?? null },
    { name: 'suffix', doc: 'wrapper suffix id', value: (r) => r.trial.wrappers?.suffix.id ?? null },
    {
      name: 'label',
      doc: 'the chosen option label as the pool spells it; empty when none',
      value: (r) => (r.record.parse.label as string | null) ?? null,
    },
    {
      name: 'score',
      doc: 'agreement score before keying: 2, 1, −1, −2, or 0 when the answer chose no option; empty when the row is not an answer (reason names its outcome)',
      value: (r) => r.record.score,
    },
    {
      name: 'stance',
      doc: 'score after keying (positive toward the `plus` pole); empty when the row is not an answer',
      value: (r) => r.record.stance,
    },
    {
      name: 'reason',
      doc: 'why the score is 0 (neutral, refusal, ambiguous, unparseable) or empty (no_response for a suppressed reply or no text, provider_block, model_refusal, length, failed); empty otherwise',
      value: (r) => r.record.reason,
    },
    {
      name: 'simulated',
      doc: '1 when a simulated respondent produced the response (or a simulated judge labelled it), 0 otherwise',
      value: (r) => (r.record.simulated ? 1 : 0),
    },
    {
      name: 'label_source',
      doc: "how the label was obtained: `parsed` (the parser read the option), `judge` (the primary judge's reply decided the score), `none`",
      value: (r) => (r.record.parse.source as string | undefined) ?? null,
    },
    {
      name: 'parse_reason',
      doc: "the deterministic parser's zero reason (before any judge); empty when it read an option",
      value: (r) => (r.record.parse.parse_reason as string | null | undefined) ?? null,
    },
    {
      name: 'judge',
      doc: 'the primary judge asked about this answer; empty when no judge was',
      value: (r) => (r.record.parse.judge as string | null | undefined) ?? null,
    },
    {
      name: 'judge_label',
      doc: "the primary judge's label (Strongly agree, Agree, Neutral, Disagree, Strongly disagree); empty when its reply was none of them",
      value: (r) => (r.record.parse.judge_label as string | null | undefined) ?? null,
    },
    {
      name: 'judge_raw',
      doc: "the primary judge's raw reply, as received",
      value: (r) => (r.record.parse.judge_raw as string | null | undefined) ?? null,
    },
    {
      name: 'judge_labels',
      doc: 'every judge asked, `name=label` joined by `;` (label `unparseable` or `failed` when there is none)',
      value: (r) => judgeLabels(r.record.parse.judges),
    },
    ...outcomeColumns(),
    ...blockColumns(),
  ],
};

function judgeLabels(judges: unknown): string | null {
  if (!Array.isArray(judges) || judges.length === 0) return null;
  return (judges as Array<{ judge: string; status: string; label: string | null }>)
    .map((j) => `${j.judge}=${j.label ?? j.status}`)
    .join(';');
}

/** The instrument scorer, with the labels of free-text judges when given. */
export function makeInstrumentScorer(judging: InstrumentJudging | null = null): ParadigmScorer {
  return {
    name: 'instrument',
    paradigms: ['instrument'],
    // Each record with its reasoning channel read (reasoning-instrument.ts).
    prepare: (bundle) => withReasoning(bundle, prepare(bundle, judging)),
    tables: [instrumentTable],
    params: {
      parser:
        'answer segments, longest label first, negation and cue lists (docs/formats/scores.md)',
      language_packs: packDigests(),
      scale:
        'option_values of wrappers.json (2, 1, -1, -2); 0 for neutral, refusal, ambiguous, unparseable; none for a row that is not an answer',
      keying: 'x -1 for affirmative keyed minus, x -1 for reverse framing',
      judge: judging?.params ?? null,
    },
  };
}

/** The instrument scorer without a judge. */
export const instrumentScorer: ParadigmScorer = makeInstrumentScorer();
