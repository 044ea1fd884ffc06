/**
 * A small, valid stimkit bag built with the bag writer alone (no corpus, no stimuli): two image
 * trials and one text trial, two images, the header and the counts. Verify tests tamper with copies of it.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sha256 } from '../../src/core/fsio.js';
import { canonicalJson } from '../../src/core/json.js';
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  imagePayloadPath,
  type Trial,
} from '../../src/bundle/format.js';
import { trialId } from '../../src/bundle/trial-id.js';
import { formatManifest } from '../../src/bundle/bagit.js';
import { writeBag, type WrittenBag } from '../../src/bundle/write-bag.js';
import { listFiles } from '../../src/core/walk.js';

/** Deterministic bytes standing in for two PNG images. */
export const IMAGES = [
  Buffer.from('\x89PNG fixture image one'),
  Buffer.from('\x89PNG fixture image two, a little longer'),
];

function trial(
  fields: Omit<Trial, 'id' | 'messages' | 'images' | 'sampling' | 'models' | 'prompt' | 'wrappers'>,
  text: string,
  image?: Buffer,
): Trial {
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
    trial(
      { ...base, paradigm: 'describe', lang: 'en', entry: 'one', variant: 'A0', seed: 42 },
      'Describe the content of this photograph.',
      IMAGES[0],
    ),
    trial(
      { ...base, paradigm: 'describe', lang: 'zh', entry: 'two', variant: 'A0', seed: 42 },
      '请描述这张照片的内容。',
      IMAGES[1],
    ),
    trial(
      { ...base, paradigm: 'comment-text', lang: 'en', entry: 'one', variant: null, seed: 42 },
      'Please tell me about the subject one.',
    ),
  ];
}

/** The counts.json of a list of trials, as stimkit bundle writes it (no expectations). */
function fixtureCounts(trials: Trial[]) {
  const cell = new Map<string, number>();
  for (const t of trials) {
    // As the bundle names blocks: instrument/<arm>, pressure/<arm>, else the paradigm.
    const armed = t.paradigm === 'instrument' || t.paradigm === 'pressure';
    const k = `${armed ? `${t.paradigm}/${t.arm}` : t.paradigm}\t${t.lang}`;
    cell.set(k, (cell.get(k) ?? 0) + 1);
  }
  const byBlock = [...cell].map(([k, n]) => ({
    block: k.split('\t')[0]!,
    lang: k.split('\t')[1]!,
    trials: n,
  }));
  const blocks = [...new Set(byBlock.map((c) => c.block))].map((b) => ({
    block: b,
    trials: byBlock.filter((c) => c.block === b).reduce((s, c) => s + c.trials, 0),
    models: null,
    model_count: null,
    planned_requests: null,
  }));
  return { trials: trials.length, by_block: byBlock, blocks, expectations: [] };
}

/**
 * Write the fixture bag to `dir`: header, counts, trials and the images (all of IMAGES unless
 * `images` is given), with the Stimkit-Trials and Stimkit-Images fields in bag-info.txt.
 */
export async function writeFixtureBag(
  dir: string,
  trials: Trial[] = fixtureTrials(),
  images: Buffer[] = IMAGES,
): Promise<WrittenBag> {
  const shown = new Set(trials.flatMap((t) => t.images)).size;
  const header = {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    study: { id: 'fixture', title: 'Fixture' },
    trials: trials.length,
    images: shown,
    files: { counts: 'counts.json', trials: 'trials.jsonl', images: 'images/<sha256>.png' },
    trial_id: 'x',
    canonical_json: 'RFC 8785',
  };
  return writeBag(
    dir,
    [
      { path: 'bundle.json', bytes: `${canonicalJson(header)}\n` },
      { path: 'counts.json', bytes: `${canonicalJson(fixtureCounts(trials))}\n` },
      { path: 'trials.jsonl', bytes: trials.map((t) => `${canonicalJson(t)}\n`).join('') },
      ...images.map((b) => ({ path: imagePayloadPath(sha256(b)), bytes: b })),
    ],
    [
      ['Bag-Software-Agent', 'stimkit test fixture'],
      ['Stimkit-Trials', String(trials.length)],
      ['Stimkit-Images', String(shown)],
    ],
  );
}

/**
 * Re-seal a bag after its payload was edited, as someone covering their tracks would: new
 * payload manifest, Payload-Oxum and tag manifest; every other tag field left as it was.
 */
export async function reseal(dir: string): Promise<void> {
  const payload = (await listFiles(dir)).filter((f) => f.path.startsWith('data/'));
  const lines = await Promise.all(
    payload.map(async (f) => ({
      path: f.path,
      digest: sha256(await readFile(path.join(dir, f.path))),
    })),
  );
  await writeFile(path.join(dir, 'manifest-sha256.txt'), formatManifest(lines));
  const octets = payload.reduce((s, f) => s + f.size, 0);
  const info = (await readFile(path.join(dir, 'bag-info.txt'), 'utf8')).replace(
    /^Payload-Oxum: .*$/m,
    `Payload-Oxum: ${octets}.${payload.length}`,
  );
  await writeFile(path.join(dir, 'bag-info.txt'), info);
  const tags = await Promise.all(
    ['bagit.txt', 'bag-info.txt', 'manifest-sha256.txt'].map(async (p) => ({
      path: p,
      digest: sha256(await readFile(path.join(dir, p))),
    })),
  );
  await writeFile(path.join(dir, 'tagmanifest-sha256.txt'), formatManifest(tags));
}

/** Copy a bag to a new folder under `root` named `name`. */
export async function copyBag(from: string, root: string, name: string): Promise<string> {
  const to = path.join(root, name);
  await cp(from, to, { recursive: true });
  return to;
}
