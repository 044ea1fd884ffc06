/**
 * Script drafts of stimulus files with OpenCC (opencc-js): a topics, wrappers or prompts file's
 * texts in one Chinese language converted into another (Simplified → Taiwan or Hong Kong
 * Traditional, Traditional → Simplified), written as a file that `extends` the source and adds
 * only the new language, every text marked a draft by the language's provenance. Used by the
 * shipped zh-Hant drafts (opencc.ts) and by `stimkit translate` (translate.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as OpenCC from 'opencc-js';
import { StimkitError } from '../core/errors.js';
import type { PostEdit, TextProvenance } from './provenance.js';
import type { PromptsFileInput } from './prompts-schema.js';
import type { Outcome, TopicItemInput, TopicsFileInput } from './topics-schema.js';
import type { WrappersFileInput } from './wrappers-schema.js';

/**
 * opencc-js's `Converter`, typed: its published types/full.d.ts imports './core' without the
 * extension that Node's ESM resolution needs, so TypeScript sees its types as unresolved.
 */
export const makeConverter = OpenCC.Converter as unknown as (options: {
  from: string;
  to: string;
}) => (text: string) => string;

/** The installed opencc-js version (recorded in the drafts' provenance). */
export function openccVersion(): string {
  const require = createRequire(import.meta.url);
  let dir = path.dirname(require.resolve('opencc-js'));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'opencc-js' && pkg.version) return pkg.version;
    } catch {
      // not here; go up
    }
    const up = path.dirname(dir);
    if (up === dir)
      throw new StimkitError('E_STIMULI_OPENCC', 'cannot find the opencc-js package.json', {
        fix: 'reinstall stimkit (`npm ci` in a clone) so that opencc-js is installed',
      });
    dir = up;
  }
}

/**
 * An OpenCC converter followed by `edits` (replacements of known OpenCC errors), remembering which
 * applied: they go into the draft's provenance.
 */
export function withPostEdits(
  opencc: (s: string) => string,
  edits: readonly PostEdit[],
): { convert: (s: string) => string; applied: Set<PostEdit> } {
  const applied = new Set<PostEdit>();
  const convert = (s: string) => {
    let out = opencc(s);
    for (const e of edits) {
      if (out.includes(e.find)) {
        applied.add(e);
        out = out.split(e.find).join(e.replace);
      }
    }
    return out;
  };
  return { convert, applied };
}

/** One conversion: the source and target languages, the converter, what the draft says. */
export interface DraftSpec {
  /** The language of the file whose texts are converted (e.g. zh). */
  from: string;
  /** The language the draft adds (e.g. zh-Hant). */
  to: string;
  convert: (text: string) => string;
  /** The added language's `name`. */
  name: string;
  /** The added language's provenance, asked once every text is converted. */
  provenance: (notes: string) => TextProvenance;
  /** What `extends` says: the source file, relative to the draft. */
  base: string;
}

function convertOutcome(o: Outcome, c: (s: string) => string): Outcome {
  return typeof o === 'string'
    ? c(o)
    : Object.fromEntries(Object.entries(o).map(([k, v]) => [k, c(v)]));
}

/** The topics draft, and the ids of the topics without a source item (they have none added). */
export function topicsDraft(
  data: TopicsFileInput,
  spec: DraftSpec,
  title?: string,
): { value: unknown; skipped: string[] } {
  const skipped: string[] = [];
  const topics = data.topics.flatMap((t) => {
    const src = t.items[spec.from];
    if (!src) {
      skipped.push(t.id);
      return [];
    }
    const item: TopicItemInput = {};
    for (const f of ['subject', 'template', 'affirmative', 'reverse'] as const)
      if (src[f] !== undefined) item[f] = spec.convert(src[f]);
    for (const f of ['outcome_a', 'outcome_b'] as const)
      if (src[f] !== undefined) item[f] = convertOutcome(src[f], spec.convert);
    return [{ id: t.id, items: { [spec.to]: item } }];
  });
  const notes = `each field converted from the ${spec.from} item of the same topic`;
  const value = {
    format: data.format,
    version: data.version,
    extends: spec.base,
    ...(title ? { title } : {}),
    languages: { [spec.to]: { name: spec.name, provenance: spec.provenance(notes) } },
    topics,
  };
  return { value, skipped };
}

/** A wrapper id in the added pool: the source language's prefix replaced (zh-p01 → zh-hant-p01). */
function draftId(id: string, spec: DraftSpec): string {
  const from = `${spec.from.toLowerCase()}-`;
  const to = `${spec.to.toLowerCase()}-`;
  return id.startsWith(from) ? to + id.slice(from.length) : to + id;
}

/** The wrappers draft: the source pool converted (null when the file has no source pool). */
export function wrappersDraft(data: WrappersFileInput, spec: DraftSpec): unknown {
  const src = data.pools[spec.from];
  if (!src) return null;
  const wrap = (w: { id: string; text: string }) => ({
    id: draftId(w.id, spec),
    text: spec.convert(w.text),
  });
  const pool = {
    name: spec.name,
    options: src.options.map(spec.convert),
    prefixes: src.prefixes.map(wrap),
    suffixes: src.suffixes.map(wrap),
  };
  const notes = `each text converted from the ${spec.from} text with the same id (${draftId(`${spec.from.toLowerCase()}-p01`, spec)} from ${spec.from.toLowerCase()}-p01, …); the ${spec.from} texts are published or authored as marked there`;
  return {
    format: data.format,
    version: data.version,
    extends: spec.base,
    pools: { [spec.to]: { ...pool, provenance: spec.provenance(notes) } },
  };
}

/** The prompts draft, and the cards without a source text (they have none added). */
export function promptsDraft(
  data: PromptsFileInput,
  spec: DraftSpec,
): { value: unknown; skipped: string[] } {
  const skipped: string[] = [];
  const paradigms = Object.fromEntries(
    Object.entries(data.paradigms).flatMap(([name, card]) => {
      const text = card.text[spec.from];
      if (text === undefined) {
        skipped.push(name);
        return [];
      }
      return [[name, { text: { [spec.to]: spec.convert(text) } }]];
    }),
  );
  const notes = `each prompt converted from the ${spec.from} prompt of the same paradigm`;
  const value = {
    format: data.format,
    version: data.version,
    extends: spec.base,
    languages: { [spec.to]: { name: spec.name, provenance: spec.provenance(notes) } },
    paradigms,
  };
  return { value, skipped };
}
