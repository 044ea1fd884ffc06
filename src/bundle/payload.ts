/**
 * The bag's payload: the normalized study, the entries and variant records the plan uses, the
 * stimuli, the counts, one rendered trial per line, the images by digest, and the study's own
 * language packs byte for byte (YAML, as the user wrote them). Everything else is RFC 8785
 * canonical JSON; nothing time- or machine-dependent (no dates, hosts, absolute paths, tool
 * version, or floating-point metrics) enters it.
 */
import path from 'node:path';
import { recordedRef } from '../core/shipped.js';
import { canonicalJson } from '../core/json.js';
import type { Entry } from '../ingest/schema.js';
import type { LockEntry } from '../ingest/lock.js';
import type { LoadedStudy } from '../study/load.js';
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  imagePayloadPath,
  PAYLOAD,
  type BundleHeader,
  type Counts,
  type Trial,
} from './format.js';
import type { PlannedTrial } from './plan.js';
import {
  itemsPayload,
  pressurePayload,
  promptsPayload,
  wrappersPayload,
  type Stimuli,
} from './stimuli-source.js';
import { hasThinkingFactor } from './plan-thinking.js';
import {
  TRIAL_ID_SCHEME,
  TRIAL_ID_SCHEME_BLOCK_THINKING,
  TRIAL_ID_SCHEME_THINKING,
} from './trial-id.js';
import type { VariantImages } from './variants-source.js';
import { packPayloadPath, type StudyPack } from './study-packs.js';
import type { PayloadFile } from './write-bag.js';

const json = (value: unknown) => `${canonicalJson(value)}\n`;

/** Render a planned trial with its images resolved to digests. */
function renderTrial(t: PlannedTrial, images: VariantImages | null): Trial {
  const { block: _block, image, text, ...fields } = t;
  const digest = image ? images?.images.get(`${image.entry}/${image.variant}`)?.sha256 : undefined;
  if (image && !digest) throw new Error(`no image resolved for ${image.entry}/${image.variant}`);
  const content: Trial['messages'][number]['content'] = digest
    ? [
        { type: 'image', sha256: digest, file: imagePayloadPath(digest), media_type: 'image/png' },
        { type: 'text', text },
      ]
    : [{ type: 'text', text }];
  return { ...fields, messages: [{ role: 'user', content }], images: digest ? [digest] : [] };
}

function entryRecord(e: Entry | LockEntry) {
  const resolved = 'resolved' in e.image ? e.image.resolved : null;
  const { image, ...rest } = e;
  return {
    ...rest,
    image: { file: image.file, sha256: resolved?.sha256 ?? null, bytes: resolved?.bytes ?? null },
  };
}

/** Inputs of the bundle: the parts that go into the payload. */
export interface PayloadInputs {
  loaded: LoadedStudy;
  studySha256: string;
  corpus: {
    entries: Array<Entry | LockEntry>;
    corpus: string;
    languages: string[];
    manifestFile: string;
    manifestSha256: string;
  } | null;
  stimuli: Stimuli;
  variants: VariantImages | null;
  trials: PlannedTrial[];
  counts: Counts;
  /** The study's audit rubric (data/rubric.json), absent when it names none. */
  rubric?: unknown;
  /** The study's own language packs, sealed byte for byte (data/languages/<tag>.yaml). */
  packs?: readonly StudyPack[];
}

/** Every payload file of the bag, in a fixed order. */
export function buildPayload(p: PayloadInputs): {
  files: PayloadFile[];
  trials: number;
  images: number;
} {
  const rendered = p.trials.map((t) => renderTrial(t, p.variants));
  const usedImages = new Map<string, string>();
  for (const t of p.trials) {
    if (!t.image || !p.variants) continue;
    const img = p.variants.images.get(`${t.image.entry}/${t.image.variant}`)!;
    usedImages.set(img.sha256, img.file);
  }
  const files = jsonFiles(p);
  const packs = (p.packs ?? []).map((x) => ({ path: packPayloadPath(x.pack.tag), bytes: x.text }));
  const header = bundleHeader(p.loaded, files, packs, rendered.length, usedImages.size);
  const out: PayloadFile[] = [{ path: PAYLOAD.bundle, bytes: json(header) }];
  for (const [name, value] of files) out.push({ path: name, bytes: json(value) });
  out.push(...packs);
  out.push({ path: PAYLOAD.trials, bytes: rendered.map(json).join('') });
  for (const [digest, file] of [...usedImages.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    out.push({ path: imagePayloadPath(digest), source: file, sha256: digest });
  }
  return { files: out, trials: rendered.length, images: usedImages.size };
}

/** The payload's JSON files besides the header and trials, by name, in a fixed order. */
function jsonFiles(p: PayloadInputs): Array<[string, unknown]> {
  const { loaded } = p;
  const usedEntries = new Set(p.trials.flatMap((t) => (t.entry ? [t.entry] : [])));
  const usedItems = new Set(p.trials.flatMap((t) => (t.item ? [t.item] : [])));
  const files: Array<[string, unknown]> = [];
  files.push([
    PAYLOAD.study,
    {
      format: loaded.study.format,
      version: loaded.study.version,
      file: path.basename(loaded.file),
      sha256: p.studySha256,
      study: loaded.study,
    },
  ]);
  if (p.corpus) {
    files.push([
      PAYLOAD.entries,
      {
        corpus: p.corpus.corpus,
        languages: p.corpus.languages,
        manifest: {
          file: recordedRef(loaded.dir, p.corpus.manifestFile),
          sha256: p.corpus.manifestSha256,
        },
        entries: p.corpus.entries.filter((e) => usedEntries.has(e.id)).map(entryRecord),
      },
    ]);
  }
  if (p.variants) files.push([PAYLOAD.variants, variantsPayload(p.variants, p.trials)]);
  const prompts = promptsPayload(loaded, p.stimuli);
  if (prompts) files.push([PAYLOAD.prompts, prompts]);
  const items = itemsPayload(loaded, p.stimuli, usedItems);
  if (items) files.push([PAYLOAD.items, items]);
  const wrappers = wrappersPayload(loaded, p.stimuli);
  if (wrappers) files.push([PAYLOAD.wrappers, wrappers]);
  const pressure = pressurePayload(loaded, p.stimuli);
  if (pressure) files.push([PAYLOAD.pressure, pressure]);
  if (p.rubric !== undefined) files.push([PAYLOAD.rubric, p.rubric]);
  files.push([PAYLOAD.counts, p.counts]);
  return files;
}

/** The variant records of the images the trials show, with the recipe they were made with. */
function variantsPayload(variants: VariantImages, trials: PlannedTrial[]) {
  const usedKeys = new Set(
    trials.flatMap((t) => (t.image ? [`${t.image.entry}/${t.image.variant}`] : [])),
  );
  const lock = variants.lock;
  const records = lock.entries.flatMap((e) =>
    e.variants
      .filter((v) => usedKeys.has(`${e.id}/${v.code}`))
      .map((v) => ({
        entry: e.id,
        code: v.code,
        name: v.name,
        sha256: v.sha256,
        file: v.sha256 ? imagePayloadPath(v.sha256) : null,
        width: v.width,
        height: v.height,
        channels: v.channels,
        params: v.params,
      })),
  );
  return {
    format: lock.format,
    version: lock.version,
    recipe: lock.recipe,
    segmenter: lock.segmenter,
    records,
  };
}

/** `data/bundle.json`: format, study, counts and the payload's file names. */
function bundleHeader(
  loaded: LoadedStudy,
  files: Array<[string, unknown]>,
  packs: ReadonlyArray<{ path: string }>,
  trials: number,
  images: number,
): BundleHeader {
  return {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    study: { id: loaded.study.id, title: loaded.study.title },
    trials,
    images,
    files: Object.fromEntries([
      ...files.map(([name]) => [name.replace(/\.json$/, ''), name]),
      ...packs.map((f) => [f.path.replace(/\.yaml$/, ''), f.path]),
      ['trials', PAYLOAD.trials],
      ['images', `${PAYLOAD.imagesDir}/<sha256>.png`],
    ]) as Record<string, string>,
    trial_id: loaded.study.thinking
      ? TRIAL_ID_SCHEME_THINKING
      : hasThinkingFactor(loaded.study)
        ? TRIAL_ID_SCHEME_BLOCK_THINKING
        : TRIAL_ID_SCHEME,
    canonical_json:
      'RFC 8785 (JCS): every .json file is one canonical value plus a line feed; trials.jsonl holds one canonical trial per line',
  };
}
