/**
 * The label tests' fixture: the demo study sealed from the committed demo variants (no image work,
 * under a second) plus synthetic responses of three made-up models to every VLM trial. The texts
 * are invented for the tests (they vary by language and include markup, to check escaping); they
 * are not model output.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bundleStudy } from '../../src/bundle/bundle.js';
import { loadBundle } from '../../src/label/bundle.js';
import { makeLabelSample } from '../../src/label/make-sample.js';
import type { LabelSample } from '../../src/label/sample-schema.js';
import { ROOT } from '../helpers/cli.js';

export const MODELS = ['model-a', 'model-b', 'model-c'];

/** A response text for a trial: deterministic, language-matched, sometimes with markup. */
function syntheticResponse(trialId: string, lang: string, model: string, title: string): string {
  const k = Number.parseInt(trialId.slice(2, 6), 16) + MODELS.indexOf(model);
  if (k % 11 === 0)
    return lang === 'zh' ? '抱歉，我无法回答这个问题。' : 'Sorry, I cannot help with that.';
  const body =
    lang === 'zh'
      ? `这张图片展示的是：${title}。\n画面中可以看到主要的物体和背景。`
      : `The image shows ${title}.\nThe main subject is in the centre; the background is plain.`;
  return k % 5 === 0 ? `${body}\n<script>alert("x")</script> & <b>not bold</b>` : body;
}

export interface LabelFixture {
  bundle: string;
  responses: string;
  digest: string;
}

/** Seal the demo bundle (or `study`) into `dir/bundle` and write `dir/responses.jsonl`. */
export async function writeLabelFixture(
  dir: string,
  study = path.join(ROOT, 'manifests', 'demo.study.yaml'),
): Promise<LabelFixture> {
  const r = await bundleStudy(study, {
    out: path.join(dir, 'bundle'),
    work: path.join(dir, 'work'),
  });
  const b = await loadBundle(r.out!);
  const lines: string[] = [];
  for (const t of b.trials) {
    if (t.entry === null) continue;
    const entry = b.entries.get(t.entry)!;
    for (const model of MODELS) {
      const title = entry.title[t.lang] ?? entry.title.en!;
      lines.push(
        JSON.stringify({
          trial_id: t.id,
          model,
          response: syntheticResponse(t.id, t.lang, model, title),
        }),
      );
    }
  }
  // A failed request: no text, skipped by the sampler.
  lines.push(
    JSON.stringify({
      trial_id: b.trials[0]!.id,
      model: 'model-d',
      response: null,
      error: 'timeout',
    }),
  );
  const responses = path.join(dir, 'responses.jsonl');
  await writeFile(responses, `${lines.join('\n')}\n`);
  return { bundle: r.out!, responses, digest: b.digest };
}

/** Two synthetic judges' labels of sample items: they disagree on D4 for every third item and on D2 for every fourth. */
export function syntheticJudges(items: Array<{ trial_id: string; model: string }>): string {
  const lines: string[] = [];
  items.forEach((it, i) => {
    for (const judge of ['judge-a', 'judge-b']) {
      const b = judge === 'judge-b';
      lines.push(
        JSON.stringify({
          trial_id: it.trial_id,
          model: it.model,
          judge,
          d1: false,
          d2: b && i % 4 === 0 ? false : true,
          d3: true,
          d4: b && i % 3 === 0,
          d5: true,
          strategies: b && i % 3 === 0 ? ['DT2'] : [],
          rationale:
            b && i % 3 === 0 ? 'Euphemistic wording of the event.' : 'Neutral description.',
        }),
      );
    }
  });
  return `${lines.join('\n')}\n`;
}

/**
 * Scores shaped like `stimkit score`'s audit columns (D1–D6, the strategy, the deciding judge) for
 * the fixture's responses, written as JSONL to `file`. The texts are the fixture's synthetic
 * responses, so every row is marked simulated.
 */
export async function writeAuditScores(responses: string, file: string): Promise<void> {
  const lines = (await readFile(responses, 'utf8')).split('\n').filter(Boolean);
  const rows = lines.map((l, i) => {
    const r = JSON.parse(l) as Record<string, unknown>;
    const text = typeof r.response === 'string' ? r.response : '';
    const refused = text.includes('Sorry') || text.includes('抱歉');
    const framed = i % 7 === 0;
    return JSON.stringify({
      ...r,
      simulated: true,
      d1_refusal: refused,
      d2_integrity: !refused && i % 3 !== 0,
      d3_grounded: !refused && i % 5 !== 0,
      d4_state_aligned: framed,
      d4_strategy: framed ? 'DT2' : '',
      d5_language_consistent: i % 13 !== 0,
      d6_length_clean: text.length,
      judge: 'judge-a',
      judge_simulated: true,
    });
  });
  await writeFile(file, `${rows.join('\n')}\n`);
}

/** The fixture plus a validation sample of `n` items drawn with `seed`, written to `dir/sample.json`. */
export async function writeLabelSample(
  dir: string,
  n: number,
  seed: number,
  study?: string,
): Promise<LabelFixture & { sampleFile: string; sample: LabelSample }> {
  const fx = await writeLabelFixture(dir, study);
  const sampleFile = path.join(dir, 'sample.json');
  const { sample } = await makeLabelSample({
    bundle: fx.bundle,
    responses: fx.responses,
    out: sampleFile,
    n,
    seed,
  });
  return { ...fx, sampleFile, sample };
}
