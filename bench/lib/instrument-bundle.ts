/**
 * The paper's bilingual instrument at full size for the score benches: 7 topics × 2 languages ×
 * 2 framings × 64 iterations = 1,792 trials, bundled into `dir/bundle`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Trial } from '../../src/bundle/format.js';
import { sha256File } from '../../src/core/fsio.js';
import { paperBundle } from '../../src/power/power.js';

/** Bundle the instrument in `dir`; its folder, digest and trials. */
export async function instrumentBundle(
  dir: string,
): Promise<{ bundle: string; digest: string; trials: Trial[] }> {
  const bundle = await paperBundle(dir, 64);
  const trials = (await readFile(path.join(bundle, 'data', 'trials.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Trial);
  return { bundle, digest: await sha256File(path.join(bundle, 'manifest-sha256.txt')), trials };
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
