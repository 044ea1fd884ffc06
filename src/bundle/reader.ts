/**
 * The one reader of sealed bundles. `openBundle` reads `manifest-sha256.txt` (the bundle digest is
 * the sha256 of its bytes) and the header `data/bundle.json` (this format and version); every
 * payload file it reads later is checked against its manifest sha256 first and validated against
 * its zod schema, so a command always reads the bundle whose digest it records. Payload files are
 * read lazily (once each, when a command first asks for them). A full re-hash of the images is
 * `stimkit verify`'s job. Every problem is a StimkitError with the caller's code.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { formatPath, parseDataText, zodProblems } from '../core/datafile.js';
import { describeValue, StimkitError, type Problem } from '../core/errors.js';
import { sha256 } from '../core/fsio.js';
import { packFromText, type LoadedPack } from '../languages/load.js';
import type { Rubric } from '../study/rubric-schema.js';
import { parseManifest } from './bagit.js';
import { BundleHeader, imagePayloadPath, PAYLOAD, Trial } from './format.js';
import {
  EntriesPayload,
  ItemsPayload,
  PromptsPayload,
  RubricPayload,
  StudyPayload,
  VariantsPayload,
  WrappersPayload,
  type BundleEntry,
} from './payload-schemas.js';

/** A sealed bundle, opened: its digest and header at once, its payload files on demand. */
export interface SealedBundle {
  /** Absolute path of the bundle folder. */
  dir: string;
  /** sha256 of `manifest-sha256.txt`. */
  digest: string;
  header: BundleHeader;
  /** Every trial of `data/trials.jsonl`, in plan order. */
  trials: () => Promise<Trial[]>;
  /** The entries the trials show; null when the bundle has no `entries.json`. */
  entries: () => Promise<BundleEntry[] | null>;
  /** The corpus those entries come from, and its languages; null without `entries.json`. */
  corpus: () => Promise<{ name: string; languages: string[] } | null>;
  items: () => Promise<ItemsPayload | null>;
  prompts: () => Promise<PromptsPayload | null>;
  wrappers: () => Promise<WrappersPayload | null>;
  variants: () => Promise<VariantsPayload | null>;
  study: () => Promise<StudyPayload | null>;
  /** The audit rubric the study sealed; null when it named none (no `rubric.json`). */
  rubric: () => Promise<Rubric | null>;
  /**
   * The study's own language packs sealed in the bag (`data/languages/<tag>.yaml`), each checked
   * against the manifest and the pack schema; empty when the study named none.
   */
  languagePacks: () => Promise<LoadedPack[]>;
  /** The absolute file of an image in the bundle, by its digest (64 hex digits). */
  imageFile: (digest: string) => string;
}

const VERIFY_FIX = 'run `stimkit verify` on the bundle, or seal it again with `stimkit bundle`';
const GIVE_FIX = 'give the folder `stimkit bundle --out` wrote (check it with `stimkit verify`)';

/** Trial lines with problems listed one by one at most (the rest are counted in the message). */
const MAX_TRIAL_PROBLEMS = 5;

type Fail = (rel: string, message: string, fix: string, cause?: unknown) => StimkitError;

/**
 * Open the sealed bundle in `given`. `code` is the command's error code (`E_SCORE_BUNDLE`, …):
 * every problem of this bundle, now or when a payload file is read, carries it.
 */
export async function openBundle(given: string, code: string): Promise<SealedBundle> {
  const dir = path.resolve(given);
  const fail: Fail = (rel, message, fix, cause) =>
    StimkitError.fromProblem({ code, file: path.join(given, rel), message, fix }, cause);
  await requireFolder(given, dir, code);
  let manifestBytes: Buffer;
  try {
    manifestBytes = await readFile(path.join(dir, 'manifest-sha256.txt'));
  } catch (err) {
    throw fail(
      'manifest-sha256.txt',
      'not a sealed bundle (no manifest-sha256.txt)',
      GIVE_FIX,
      err,
    );
  }
  const manifest = readManifest(manifestBytes, fail);
  const ctx: PayloadContext = { given, dir, code, manifest, fail };
  const header = await readJsonPayload(ctx, PAYLOAD.bundle, BundleHeader, true);
  const once = <T>(load: () => Promise<T>): (() => Promise<T>) => {
    let p: Promise<T> | undefined;
    return () => (p ??= load());
  };
  const optional = <S extends z.ZodType>(name: string, schema: S) =>
    once(() => readJsonPayload(ctx, name, schema, false));
  const entries = optional(PAYLOAD.entries, EntriesPayload);
  const rubric = optional(PAYLOAD.rubric, RubricPayload);
  return {
    dir,
    digest: sha256(manifestBytes),
    header: header!,
    trials: once(() => readTrials(ctx)),
    entries: async () => (await entries())?.entries ?? null,
    corpus: async () => {
      const e = await entries();
      return e ? { name: e.corpus, languages: e.languages } : null;
    },
    items: optional(PAYLOAD.items, ItemsPayload),
    prompts: optional(PAYLOAD.prompts, PromptsPayload),
    wrappers: optional(PAYLOAD.wrappers, WrappersPayload),
    variants: optional(PAYLOAD.variants, VariantsPayload),
    study: optional(PAYLOAD.study, StudyPayload),
    rubric: async () => (await rubric())?.rubric ?? null,
    languagePacks: once(() => readPacks(ctx)),
    imageFile: (digest) => {
      if (!/^[0-9a-f]{64}$/.test(digest)) throw new Error(`not an image digest: ${digest}`);
      return path.join(dir, 'data', imagePayloadPath(digest));
    },
  };
}

async function requireFolder(given: string, dir: string, code: string): Promise<void> {
  try {
    if (!(await stat(dir)).isDirectory()) throw new Error('not a folder');
  } catch (err) {
    throw StimkitError.fromProblem(
      { code, file: given, message: 'no bundle folder here', fix: GIVE_FIX },
      err,
    );
  }
}

/** The manifest as bag path → sha256; a line that is not `<sha256>  <path>` is an error. */
function readManifest(bytes: Buffer, fail: Fail): Map<string, string> {
  const { lines, errors } = parseManifest(bytes.toString('utf8'));
  const bad = errors[0];
  if (bad)
    throw fail(
      'manifest-sha256.txt',
      `line ${bad.line} is not "<sha256>  <path>" (got ${JSON.stringify(bad.text.slice(0, 80))})`,
      VERIFY_FIX,
    );
  return new Map(lines.map((l) => [l.path, l.digest]));
}

interface PayloadContext {
  given: string;
  dir: string;
  code: string;
  manifest: ReadonlyMap<string, string>;
  fail: Fail;
}

/**
 * The text of payload file `data/<name>`, checked against the manifest. Null when the manifest
 * does not list it and it is not `required`.
 */
async function readPayload(
  ctx: PayloadContext,
  name: string,
  required: boolean,
): Promise<string | null> {
  const rel = `data/${name}`;
  const listed = ctx.manifest.get(rel);
  if (listed === undefined) {
    if (!required) return null;
    throw ctx.fail(
      rel,
      'the bundle has no such payload file (manifest-sha256.txt does not list it)',
      VERIFY_FIX,
    );
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(path.join(ctx.dir, rel));
  } catch (err) {
    throw ctx.fail(rel, 'a payload file the manifest lists is missing', VERIFY_FIX, err);
  }
  if (sha256(bytes) !== listed)
    throw ctx.fail(
      rel,
      'this payload file does not match manifest-sha256.txt: the bundle was changed after sealing',
      'run `stimkit verify` and use an unchanged bundle (or seal it again with `stimkit bundle`)',
    );
  return bytes.toString('utf8');
}

/** Payload file `data/<name>` as JSON, validated against `schema`. */
async function readJsonPayload<S extends z.ZodType>(
  ctx: PayloadContext,
  name: string,
  schema: S,
  required: boolean,
): Promise<z.output<S> | null> {
  const text = await readPayload(ctx, name, required);
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw ctx.fail(`data/${name}`, 'not valid JSON', VERIFY_FIX, err);
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const file = path.join(ctx.given, 'data', name);
  const problems = zodProblems(parseDataText(file, text, ctx.code), result.error, ctx.code, schema);
  throw new StimkitError(
    ctx.code,
    `${file}: ${problems.length} problem(s) in what stimkit reads of this bundle file`,
    { fix: VERIFY_FIX, problems },
  );
}

/** The sealed language packs, by their path in the bag (their `ref`), in path order. */
async function readPacks(ctx: PayloadContext): Promise<LoadedPack[]> {
  const rels = [...ctx.manifest.keys()].filter((k) => /^data\/languages\/[^/]+\.yaml$/.test(k));
  const packs: LoadedPack[] = [];
  for (const rel of rels.sort()) {
    const text = (await readPayload(ctx, rel.slice('data/'.length), true))!;
    packs.push(packFromText(path.join(ctx.given, rel), text, rel));
  }
  return packs;
}

/** Every line of `data/trials.jsonl` as a validated trial; a bad line is an error naming it. */
async function readTrials(ctx: PayloadContext): Promise<Trial[]> {
  const text = (await readPayload(ctx, PAYLOAD.trials, true))!;
  const file = path.join(ctx.given, 'data', PAYLOAD.trials);
  const trials: Trial[] = [];
  const problems: Problem[] = [];
  let bad = 0;
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const problem = trialProblem(line, (p) => ({
      code: ctx.code,
      file,
      line: i + 1,
      fix: VERIFY_FIX,
      ...p,
    }));
    if (typeof problem === 'object' && 'severity' in problem) {
      bad++;
      if (problems.length < MAX_TRIAL_PROBLEMS) problems.push(problem);
    } else trials.push(problem);
  });
  if (problems.length > 0)
    throw new StimkitError(
      ctx.code,
      `${file}: ${bad} trial line(s) are not valid trials${bad > problems.length ? ` (the first ${problems.length} listed)` : ''}`,
      { fix: VERIFY_FIX, problems },
    );
  return trials;
}

/** The trial on `line`, or the problem with it. */
function trialProblem(
  line: string,
  at: (p: Omit<Problem, 'code' | 'file' | 'severity'>) => Omit<Problem, 'severity'>,
): Trial | Problem {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return {
      ...at({ message: `not JSON (${(err as Error).message})` }),
      severity: 'error',
    };
  }
  const result = Trial.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  let got: unknown = value;
  for (const k of issue.path) got = (got as Record<PropertyKey, unknown> | undefined)?.[k];
  return {
    ...at({
      field: formatPath(issue.path),
      message: `not a valid trial: ${issue.message}`,
      got: describeValue(got),
    }),
    severity: 'error',
  };
}
