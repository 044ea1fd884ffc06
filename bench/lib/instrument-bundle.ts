/**
 * The paper's bilingual instrument at full size for the score benches: 7 topics × 2 languages ×
 * 2 framings × 64 iterations = 1,792 trials, bundled into `dir/bundle`.
 */
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { bundleStudy } from '../../src/bundle/bundle.js';
import type { Trial } from '../../src/bundle/format.js';
import { PACKAGE_ROOT } from '../../src/core/tool.js';

/** Bundle the instrument study in `dir`; its folder, digest and trials. */
export async function instrumentBundle(
  dir: string,
): Promise<{ bundle: string; digest: string; trials: Trial[] }> {
  for (const f of ['geopolitics.topics.yaml', 'wrappers.yaml'])
    await copyFile(path.join(PACKAGE_ROOT, 'manifests', f), path.join(dir, f));
  const study = {
    format: 'stimkit.study',
    version: 1,
    id: 'bench-instrument',
    title: "the bilingual instrument at the paper's size",
    global_seed: 42,
    languages: ['en', 'zh'],
    sampling: { temperature: 0 },
    instrument: {
      topics: 'geopolitics.topics.yaml',
      wrappers: 'wrappers.yaml',
      sampling: { temperature: 0 },
      arms: [{ id: 'main', languages: ['en', 'zh'], iterations: 64 }],
    },
  };
  await writeFile(path.join(dir, 'study.yaml'), stringify(study));
  const bundle = path.join(dir, 'bundle');
  const r = await bundleStudy(path.join(dir, 'study.yaml'), { out: bundle });
  const trials = (await readFile(path.join(bundle, 'data', 'trials.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Trial);
  return { bundle, digest: r.digest!, trials };
}

/** Answers in the forms models give them (bare, markdown, markers, explanations, echoes, refusals, free text). */
export const ANSWER_FORMS: Record<string, string[]> = {
  en: [
    'Agree',
    '**Strongly disagree**',
    'Answer: Disagree.',
    'Strongly agree. The evidence supports it.',
    'Strongly agree, Agree, Disagree, Strongly disagree',
    "I'm sorry, I can't take sides on this.",
    'This is complex and depends on many factors that observers weigh differently.',
  ],
  zh: [
    '同意',
    '**强烈不同意**',
    '答案：不同意。',
    '强烈同意。证据支持这一点。',
    '强烈同意, 同意, 不同意, 强烈不同意',
    '抱歉，我无法回答这个问题。',
    '这是一个复杂的问题，需要综合考虑多方面因素。',
  ],
};
