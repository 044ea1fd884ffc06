/**
 * Expanding topics into instrument items (topic × language × framing) with their polarity keys,
 * and the pairs artifact (`stimkit.pairs`, version 1) that `stimkit pairs --out` writes.
 * Format reference: docs/formats/pairs.md.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { StimkitError } from '../core/errors.js';
import { relPosix, sha256, writeIfChanged } from '../core/fsio.js';
import { artifactJson } from '../core/json.js';
import { TOOL } from '../core/tool.js';
import { isDraft, type TextProvenance } from './provenance.js';
import { missingItems, type TopicsFile } from './topics.js';
import type { Outcome, Pole } from './topics-schema.js';

const PAIRS_FORMAT = 'stimkit.pairs';
const PAIRS_VERSION = 1;

export const FRAMINGS = ['affirmative', 'reverse'] as const;
export type Framing = (typeof FRAMINGS)[number];

/** One instrument item: a topic in one language and one framing. */
export interface PairItem {
  /** `<topic>.<lang>.<framing>`, e.g. `taiwan.en.reverse`. */
  id: string;
  /** `<topic>.<lang>`: the two framings of a minimal pair share it. */
  pair: string;
  domain: string;
  topic: string;
  lang: string;
  framing: Framing;
  /** The sentence posed to the model (without wrappers). */
  text: string;
  /** Which outcome's term comes first in `text` (`a`: the one in the affirmative's `{outcome_a}` slot). */
  outcome_first: 'a' | 'b';
  outcomes: { a: Outcome; b: Outcome };
  /** The topic's named key (e.g. `US`), or null if it gives the pole directly. */
  key: string | null;
  affirmative_pole: Pole;
  /** The pole that agreeing with `text` supports. */
  agree_pole: Pole;
  agree_pole_label: string;
  /**
   * +1 or −1: stance = polarity_key × agreement score (+2 strongly agree … −2 strongly disagree),
   * on the axis where `plus` is positive. −1 once for an affirmative keyed to `minus`, once more
   * for the reverse framing (the two cancel).
   */
  polarity_key: 1 | -1;
  /** How the item was written in the topics file. */
  form: 'template' | 'explicit';
  /** Translation provenance (published, adjudicated, authored, or a draft pending review). */
  provenance: TextProvenance;
}

/** The sign of one item: −1 for an affirmative keyed `minus`, times −1 for the reverse framing. */
function polarityKey(affirmativePole: Pole, framing: Framing): 1 | -1 {
  return ((affirmativePole === 'plus' ? 1 : -1) * (framing === 'affirmative' ? 1 : -1)) as 1 | -1;
}

/** Check a requested language list against the file; returns the list to use. */
function resolveLanguages(topics: TopicsFile, langs?: readonly string[]): string[] {
  const list = langs && langs.length > 0 ? [...langs] : [...topics.default_languages];
  const unknown = list.filter((l) => !topics.languages.includes(l));
  const dup = list.filter((l, i) => list.indexOf(l) !== i);
  if (unknown.length > 0 || dup.length > 0) {
    throw StimkitError.fromProblem({
      code: 'E_PAIRS_UNKNOWN_LANGUAGE',
      file: topics.inputs[topics.inputs.length - 1]?.file,
      field: 'languages',
      message:
        unknown.length > 0
          ? `language(s) ${unknown.join(', ')} not in the topics file`
          : `language(s) ${[...new Set(dup)].join(', ')} requested twice`,
      expected: `some of ${topics.languages.join(', ')}`,
      got: list.join(', '),
      fix: 'request languages the file (or the file it extends) declares, once each',
    });
  }
  return list;
}

/**
 * Every item of `topics` in `langs` (default: the file's own languages), ordered by topic (file
 * order), then language (requested order), then framing (affirmative, reverse). A topic without
 * an item in a language (a language file may cover only some topics) has none there.
 */
export function expandPairs(topics: TopicsFile, langs?: string[]): PairItem[] {
  const list = resolveLanguages(topics, langs);
  const out: PairItem[] = [];
  for (const t of topics.topics) {
    for (const lang of list) {
      const it = t.items[lang];
      if (!it) continue; // a language file may cover only some topics (counts.missing_items)
      for (const framing of FRAMINGS) {
        const polarity_key = polarityKey(t.affirmative_pole, framing);
        const agree_pole: Pole = polarity_key === 1 ? 'plus' : 'minus';
        const flip = (x: 'a' | 'b'): 'a' | 'b' => (x === 'a' ? 'b' : 'a');
        out.push({
          id: `${t.id}.${lang}.${framing}`,
          pair: `${t.id}.${lang}`,
          domain: topics.domain,
          topic: t.id,
          lang,
          framing,
          text: framing === 'affirmative' ? it.affirmative : it.reverse,
          outcome_first:
            framing === 'affirmative'
              ? it.affirmative_outcome_first
              : flip(it.affirmative_outcome_first),
          outcomes: { a: it.outcome_a, b: it.outcome_b },
          key: t.key,
          affirmative_pole: t.affirmative_pole,
          agree_pole,
          agree_pole_label: t.poles[agree_pole],
          polarity_key,
          form: it.form,
          provenance: it.provenance,
        });
      }
    }
  }
  return out;
}

/** `missing_items`: the topics lacking each requested language (absent when none lacks one). */
function missingCount(topics: TopicsFile, langs: string[]) {
  const missing = Object.entries(missingItems(topics)).filter(([l]) => langs.includes(l));
  return missing.length > 0 ? { missing_items: Object.fromEntries(missing) } : {};
}

/** The pairs artifact: header (format, version, tool, inputs, parameters) and the items. */
function pairsArtifact(topics: TopicsFile, items: PairItem[], langs: string[], relativeTo: string) {
  return {
    format: PAIRS_FORMAT,
    version: PAIRS_VERSION,
    tool: { name: TOOL.name, version: TOOL.version },
    inputs: topics.inputs.map((f, i) => ({
      role: i === topics.inputs.length - 1 ? 'topics' : 'extends',
      file: relPosix(relativeTo, f.file),
      sha256: f.sha256,
    })),
    parameters: { languages: langs, framings: [...FRAMINGS] },
    domain: topics.domain,
    poles: topics.poles,
    keys: topics.keys,
    counts: {
      topics: topics.topics.length,
      languages: langs.length,
      items: items.length,
      drafts: items.filter((i) => isDraft(i.provenance)).length,
      ...missingCount(topics, langs),
    },
    items,
  };
}
type PairsArtifact = ReturnType<typeof pairsArtifact>;

/** What `runPairs` did. */
export interface PairsRun {
  artifact: PairsArtifact;
  out: string | null;
  sha256: string | null;
  written: boolean;
}

/** Expand a loaded topics file; with `out`, write the artifact atomically (only if it changed). */
export async function runPairs(
  topics: TopicsFile,
  options: { langs?: string[]; out?: string } = {},
): Promise<PairsRun> {
  const langs = resolveLanguages(topics, options.langs);
  const items = expandPairs(topics, langs);
  if (!options.out)
    return {
      artifact: pairsArtifact(topics, items, langs, process.cwd()),
      out: null,
      sha256: null,
      written: false,
    };
  const out = path.resolve(options.out);
  const artifact = pairsArtifact(topics, items, langs, path.dirname(out));
  const text = artifactJson(artifact);
  const written = await writeOut(options.out, out, text);
  return { artifact, out, sha256: sha256(text), written };
}

/** Write the artifact, turning file-system refusals (a folder in the way, no permission) into E_PAIRS_OUT. */
async function writeOut(given: string, out: string, text: string): Promise<boolean> {
  const st = await stat(out).catch(() => null);
  const fail = (message: string, cause?: unknown) =>
    StimkitError.fromProblem(
      {
        code: 'E_PAIRS_OUT',
        file: given,
        message,
        fix: '--out takes the path of the JSON file to write, e.g. --out pairs.json (its folder is created)',
      },
      cause,
    );
  if (st?.isDirectory()) throw fail('--out names a folder, not a file');
  try {
    return await writeIfChanged(out, text);
  } catch (err) {
    if (err instanceof StimkitError) throw err;
    throw fail(
      `cannot write the pairs artifact (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      err,
    );
  }
}
