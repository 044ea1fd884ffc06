/**
 * A small, valid stimkit bag built with the bag writer alone (no corpus, no stimuli): two image
 * trials and one text trial, two images, and the header. Verify tests tamper with copies of it.
 */
import { cp } from 'node:fs/promises';
import path from 'node:path';
import { sha256 } from '../../src/core/fsio.js';
import { canonicalJson } from '../../src/core/json.js';
import { BUNDLE_FORMAT, BUNDLE_VERSION, imagePayloadPath, type Trial } from '../../src/bundle/format.js';
import { trialId } from '../../src/bundle/trial-id.js';
import { writeBag, type WrittenBag } from '../../src/bundle/write-bag.js';

/** Deterministic bytes standing in for two PNG images. */
export const IMAGES = [Buffer.from('\x89PNG fixture image one'), Buffer.from('\x89PNG fixture image two, a little longer')];

function trial(fields: Omit<Trial, 'id' | 'messages' | 'images' | 'sampling' | 'models' | 'prompt' | 'wrappers'>, text: string, image?: Buffer): Trial {
  const digest = image ? sha256(image) : undefined;
  const t: Omit<Trial, 'id'> = {
    ...fields,
    prompt: 'describe',
    wrappers: null,
    models: null,
    messages: [
      {
        role: 'user',
        content: [
          ...(digest ? [{ type: 'image' as const, sha256: digest, file: imagePayloadPath(digest), media_type: 'image/png' as const }] : []),
          { type: 'text' as const, text },
        ],
      },
    ],
    images: digest ? [digest] : [],
    sampling: { temperature: 0.7, top_p: 0.8 },
  };
  return { id: trialId(t), ...t };
}

/** The fixture's trials. */
export function fixtureTrials(): Trial[] {
  const base = { arm: null, item: null, topic: null, framing: null, iteration: null } as const;
  return [
    trial({ ...base, paradigm: 'describe', lang: 'en', entry: 'one', variant: 'A0', seed: 42 }, 'Describe the content of this photograph.', IMAGES[0]),
    trial({ ...base, paradigm: 'describe', lang: 'zh', entry: 'two', variant: 'A0', seed: 42 }, '请描述这张照片的内容。', IMAGES[1]),
    trial({ ...base, paradigm: 'comment-text', lang: 'en', entry: 'one', variant: null, seed: 42 }, 'Please tell me about the subject one.'),
  ];
}

/** Write the fixture bag to `dir`. */
export async function writeFixtureBag(dir: string, trials: Trial[] = fixtureTrials()): Promise<WrittenBag> {
  const header = { format: BUNDLE_FORMAT, version: BUNDLE_VERSION, study: { id: 'fixture', title: 'Fixture' }, trials: trials.length, images: 2, files: {}, trial_id: 'x', canonical_json: 'RFC 8785' };
  return writeBag(
    dir,
    [
      { path: 'bundle.json', bytes: `${canonicalJson(header)}\n` },
      { path: 'trials.jsonl', bytes: trials.map((t) => `${canonicalJson(t)}\n`).join('') },
      ...IMAGES.map((b) => ({ path: imagePayloadPath(sha256(b)), bytes: b })),
    ],
    [['Bag-Software-Agent', 'stimkit test fixture']],
  );
}

/** Copy a bag to a new folder under `root` named `name`. */
export async function copyBag(from: string, root: string, name: string): Promise<string> {
  const to = path.join(root, name);
  await cp(from, to, { recursive: true });
  return to;
}
