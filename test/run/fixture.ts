/**
 * Small sealed bags for run tests, built with the bag writer (test/verify/fixture.ts): `n` text
 * trials (comment-text, one entry each) and two image trials, each with its own prompt text
 * (`trial <k>`), so that a test server can tell trials apart by their text.
 */
import { sha256 } from '../../src/core/fsio.js';
import { imagePayloadPath, type Trial } from '../../src/bundle/format.js';
import { trialId } from '../../src/bundle/trial-id.js';
import { writeFixtureBag } from '../verify/fixture.js';

/**
 * The two images of the image trials: real PNGs (3 × 2 and 4 × 3 px, made once by sharp), since
 * the vendor stand-ins read the bytes as the APIs do (type, pixel size).
 */
export const RUN_IMAGES = [
  'iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEElEQVQImWMwTpsJQQxwFgBFaActajB43AAAAABJRU5ErkJggg==',
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEElEQVQImWOYaawERww4OQDfRwspAxFcdAAAAABJRU5ErkJggg==',
].map((b64) => Buffer.from(b64, 'base64'));

/** The prompt text of trial k. */
export const promptOf = (k: number) => `trial ${k}: please tell me about subject ${k}.`;

/** The k of a prompt text (or -1). */
export function trialIndex(text: string): number {
  const m = /^trial (\d+):/.exec(text);
  return m ? Number(m[1]) : -1;
}

/** The fixture trials: n text trials, then two image trials (k = n, n+1). */
export function runTrials(n: number): Trial[] {
  const out: Trial[] = [];
  const base = {
    arm: null,
    item: null,
    topic: null,
    framing: null,
    iteration: null,
    wrappers: null,
    models: null,
    prompt: 'comment-text',
  } as const;
  for (let k = 0; k < n + 2; k++) {
    const image = k >= n ? RUN_IMAGES[k - n]! : null;
    const digest = image ? sha256(image) : null;
    const t: Omit<Trial, 'id'> = {
      ...base,
      paradigm: image ? 'describe' : 'comment-text',
      lang: k % 2 === 0 ? 'en' : 'zh',
      entry: `e${k}`,
      variant: image ? 'A0' : null,
      seed: 42,
      messages: [
        {
          role: 'user',
          content: [
            ...(digest
              ? [
                  {
                    type: 'image' as const,
                    sha256: digest,
                    file: imagePayloadPath(digest),
                    media_type: 'image/png' as const,
                  },
                ]
              : []),
            { type: 'text' as const, text: promptOf(k) },
          ],
        },
      ],
      images: digest ? [digest] : [],
      sampling: { temperature: 0.7, top_p: 0.8, top_k: 20, max_tokens: 64, thinking: false },
    };
    out.push({ id: trialId(t), ...t });
  }
  return out;
}

/** Write a run fixture bag with n text trials to `dir`; returns its trials and digest. */
export async function writeRunBag(
  dir: string,
  n: number,
): Promise<{ trials: Trial[]; digest: string }> {
  const trials = runTrials(n);
  const bag = await writeFixtureBag(dir, trials, RUN_IMAGES);
  return { trials, digest: bag.digest };
}
