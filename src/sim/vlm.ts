/**
 * The simulated respondent of the VLM paradigms (describe, comment-image, comment-text,
 * abstraction, narrative), and its expected rates.
 *
 * Generative model of one trial (docs/simulated-respondents.md): drift decides the response
 * language; an image trial is recognised with the variant's recognition factor (text trials
 * always); a recognised subject may be caught by a content filter, else refused (style by
 * weight), else answered: each expected fact conveyed independently with the paradigm's
 * coverage, and the answer reframed with the entry's narrative markers at the reframe rate. An
 * unrecognised image gets a generic description with no facts, no refusal and no reframing.
 */
import { StimkitError } from '../core/errors.js';
import type { SimBundle, SimEntry, SimResponse, Trial } from './index.js';
import { langRate, sensLangRate, weightsOf } from './resolve.js';
import type { Stream } from './rng.js';
import { REFUSAL_TYPES, VLM_STYLES, type SimParams } from './schema.js';
import { VLM_BANKS } from './texts-vlm.js';

/** The language a respondent drifts into: en ↔ zh (and zh-Hant → en); any other → en. */
export function otherLanguage(lang: string): string {
  return lang === 'en' ? 'zh' : 'en';
}

/** What a VLM trial's rates depend on. */
export interface VlmTrialKey {
  paradigm: string;
  lang: string;
  sensitivity: 'high' | 'low';
  /** Variant code of the image (A0 … A6), or null for a text trial. */
  variant: string | null;
}

/** Unconditional probabilities of one trial's outcomes. */
export interface ExpectedVlm {
  p_recognised: number;
  p_content_filter: number;
  p_refusal: number;
  p_reframe: number;
  p_drift: number;
  /** Expected share of the entry's facts conveyed, over all trials (refusals convey none). */
  fact_share: number;
  /** The same among answered, recognised trials: the paradigm's coverage. */
  fact_share_given_answer: number;
}

/** The expected outcome rates of a VLM trial, in closed form. */
export function expectedVlm(params: SimParams, key: VlmTrialKey): ExpectedVlm {
  const v = params.vlm;
  const recog = key.variant === null ? 1 : (v.recognition[key.variant as keyof typeof v.recognition] ?? 1);
  const cf = sensLangRate(v.content_filter, key.sensitivity, key.lang);
  const ref = sensLangRate(v.refusal, key.sensitivity, key.lang);
  const rf = sensLangRate(v.reframe, key.sensitivity, key.lang);
  const cov = langRate(v.fact_coverage, key.paradigm);
  const answered = recog * (1 - cf) * (1 - ref);
  return {
    p_recognised: recog,
    p_content_filter: recog * cf,
    p_refusal: recog * (1 - cf) * ref,
    p_reframe: answered * rf,
    p_drift: langRate(v.drift, key.lang),
    fact_share: answered * cov,
    fact_share_given_answer: cov,
  };
}

const fill = (s: string, vars: Record<string, string>) => s.replace(/\{(\w+)\}/g, (m, k: string) => vars[k] ?? m);
const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** "Launch of …" → "launch of …", but "NASA …" stays. */
const lowerLead = (s: string) => (/^[A-Z][a-z]/.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s);

function textIn(map: Record<string, string>, lang: string): { text: string; fallback: boolean } {
  if (map[lang]) return { text: map[lang]!, fallback: false };
  const any = map.en ?? Object.values(map)[0] ?? '';
  return { text: any, fallback: true };
}

/** Simulate one VLM trial. */
export function simulateVlm(params: SimParams, trial: Trial, bundle: SimBundle, rng: Stream): Omit<SimResponse, 'usage'> {
  const entry: SimEntry | undefined = trial.entry ? bundle.entries.get(trial.entry) : undefined;
  if (!entry) {
    throw StimkitError.fromProblem({
      code: 'E_SIM_TRIAL',
      field: `trial ${trial.id}`,
      message: `entry ${JSON.stringify(trial.entry)} is not in the bundle's data/entries.json`,
      fix: 'seal the bundle again',
    });
  }
  const v = params.vlm;
  const isImage = trial.images.length > 0;
  const key: VlmTrialKey = { paradigm: trial.paradigm, lang: trial.lang, sensitivity: entry.sensitivity, variant: isImage ? (trial.variant ?? 'A0') : null };
  const p = expectedVlm(params, key);
  const cf = sensLangRate(v.content_filter, key.sensitivity, key.lang);
  const ref = sensLangRate(v.refusal, key.sensitivity, key.lang);
  const rf = sensLangRate(v.reframe, key.sensitivity, key.lang);

  const drifted = rng.bernoulli('drift', p.p_drift);
  const target = drifted ? otherLanguage(trial.lang) : trial.lang;
  const language = VLM_BANKS[target] ? target : 'en';
  const bank = VLM_BANKS[language]!;
  const cjk = language.startsWith('zh');
  const join = (parts: string[]) => parts.join(cjk ? '' : ' ');
  const choose = (label: string, list: string[]) => list[rng.index(label, list.length)]!;
  const recognised = !isImage || rng.u('recognise') < p.p_recognised;
  const style = rng.pick('style', weightsOf(v.style, VLM_STYLES));
  const truth = {
    kind: 'vlm',
    simulated: true,
    entry: entry.id,
    paradigm: trial.paradigm,
    variant: key.variant,
    sensitivity: entry.sensitivity,
    prompt_lang: trial.lang,
    language,
    language_fallback: language !== target,
    drifted,
    recognised,
    refused: false,
    refusal_type: null as string | null,
    content_filtered: false,
    facts_covered: [] as string[],
    facts_missing: entry.expected_facts.map((f) => f.id),
    facts_total: entry.expected_facts.length,
    fact_text_fallback: false,
    reframed: false,
    markers_used: [] as string[],
    markers_source: null as 'entry' | 'generic' | null,
    style,
    p,
  };
  if (recognised && rng.bernoulli('content-filter', cf)) {
    return { text: '', finish_reason: 'content_filter', truth: { ...truth, refused: true, refusal_type: 'content_filter', content_filtered: true } };
  }
  if (recognised && rng.bernoulli('refusal', ref)) {
    const type = rng.pick('refusal-type', weightsOf(v.refusal_styles, REFUSAL_TYPES));
    const text = fill(choose('refusal-text', bank.refusal[type]), { thing: isImage ? bank.thing.image : bank.thing.text });
    return { text: capitalize(text), finish_reason: 'stop', truth: { ...truth, refused: true, refusal_type: type } };
  }

  const title = textIn(entry.title, language).text;
  const subject = isImage ? (language === 'en' ? lowerLead(title) : title) : textIn(entry.anchor?.name ?? entry.title, language).text;
  const cov = langRate(v.fact_coverage, trial.paradigm);
  const covered = recognised ? entry.expected_facts.filter((f) => rng.bernoulli(`fact:${f.id}`, cov)) : [];
  const facts = covered.map((f) => textIn(f.text, language));
  const reframed = recognised && rng.bernoulli('reframe', rf);
  const own = entry.narrative_markers[language] ?? [];
  const pool = own.length > 0 ? own : bank.genericMarkers;
  const markers = reframed
    ? pool
        .map((m, i) => ({ m, u: rng.u(`marker:${i}`) }))
        .sort((a, b) => a.u - b.u)
        .slice(0, v.markers_per_response)
        .map((x) => x.m)
    : [];
  const reframing = markers.map((m, i) => fill(choose(`reframe-text:${i}`, bank.reframe), { m }));

  const opener = recognised
    ? capitalize(fill(choose('open', isImage ? bank.openImage : bank.openText), { subject }))
    : choose('unrecognised', bank.unrecognised);
  const close = choose('close', isImage ? bank.closeImage : bank.closeText);
  let text: string;
  if (style === 'markdown') {
    const blocks = [`### ${isImage ? bank.headings.image : bank.headings.text}`, opener];
    if (facts.length > 0) blocks.push(facts.map((f) => `- ${f.text}`).join('\n'));
    if (reframing.length > 0) blocks.push(`**${bank.headings.context}${cjk ? '：' : ':'}**${cjk ? '' : ' '}${join(reframing)}`);
    blocks.push(close);
    text = blocks.join('\n\n');
  } else {
    text = join([opener, ...facts.map((f) => f.text), ...reframing, close]);
  }
  return {
    text,
    finish_reason: 'stop',
    truth: {
      ...truth,
      facts_covered: covered.map((f) => f.id),
      facts_missing: entry.expected_facts.filter((f) => !covered.includes(f)).map((f) => f.id),
      fact_text_fallback: facts.some((f) => f.fallback),
      reframed,
      markers_used: markers,
      markers_source: reframed ? (own.length > 0 ? 'entry' : 'generic') : null,
    },
  };
}
