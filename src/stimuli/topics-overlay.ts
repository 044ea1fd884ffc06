/**
 * A topics file that extends another, applied to its base. It may add languages (for some or all
 * of the base's topics: a study may use only the topics its languages cover, see
 * `missingItems`) and add topics (with an item in every language: the base's and its own). A base language it lists under `languages` gives the provenance of the
 * texts it adds in that language; it can never replace a base text, key or pole.
 */
import type { ParsedDataFile } from '../core/datafile.js';
import type { Problem } from '../core/errors.js';
import {
  extendsList,
  extendsNames,
  problemAt,
  throwIfProblems,
  type InputFile,
  type LoadedFile,
} from './datafile.js';
import type { TopicItem } from './topic-item.js';
import type { Topic, TopicsFile } from './topics.js';
import { duplicateIds, languageInfo, newTopic, resolveItems } from './topics-checks.js';
import type { TopicInput, TopicsFileInput } from './topics-schema.js';

/** An extending file being applied: its base, its data, its languages and the problems found. */
interface Overlay {
  base: TopicsFile;
  data: TopicsFileInput;
  parsed: ParsedDataFile;
  /** The ids of the base's topics. */
  baseIds: Set<string>;
  /** The languages the file lists: the ones it adds, and base ones whose texts it adds. */
  declared: string[];
  /** The languages it adds. */
  added: string[];
  /** Every language: the base's, then the added ones. */
  all: string[];
  info: TopicsFile['language_info'];
  problems: Problem[];
}

/** The topics of the file: new ones in full, and the items base topics gain, by topic id. */
interface OverlayTopics {
  newTopics: Topic[];
  addedItems: Map<string, Record<string, TopicItem>>;
}

/** The overlay of `data` on `base`, with its languages worked out and no problems yet. */
function overlayOf(base: TopicsFile, data: TopicsFileInput, parsed: ParsedDataFile): Overlay {
  const declared = Object.keys(data.languages);
  const added = declared.filter((l) => !base.languages.includes(l));
  return {
    base,
    data,
    parsed,
    baseIds: new Set(base.topics.map((t) => t.id)),
    declared,
    added,
    all: [...base.languages, ...added],
    info: { ...base.language_info, ...languageInfo(data) },
    problems: [],
  };
}

/** Push an E_TOPICS_EXTENDS problem at `at`. */
function refuse(o: Overlay, at: (string | number)[], message: string, fix: string): void {
  o.problems.push(problemAt(o.parsed, at, { code: 'E_TOPICS_EXTENDS', message, fix }));
}

/** The file-wide fields the file inherits (domain, poles, keys) must not be set. */
function checkInheritedFields(o: Overlay): void {
  for (const f of ['domain', 'poles', 'keys'] as const) {
    if (o.data[f] !== undefined)
      refuse(
        o,
        [f],
        `a file that extends ${extendsNames(o.data.extends)} inherits ${f}; it cannot set it`,
        `remove ${f}`,
      );
  }
}

/**
 * A topic the file adds: keyed with the base's keys and poles, with an item in every language.
 * Its texts in a base language need that language listed (for their provenance). Null when its
 * keying is invalid.
 */
function addedTopic(o: Overlay, t: TopicInput, i: number): Topic | null {
  for (const lang of o.base.languages) {
    if (t.items[lang] !== undefined && !o.declared.includes(lang)) {
      refuse(
        o,
        ['topics', i, 'items', lang],
        `topic "${t.id}" adds a ${lang} text, but this file does not say where its ${lang} texts come from`,
        `declare ${lang} under languages with the provenance of the texts this file adds (e.g. status: authored)`,
      );
    }
  }
  const keying = { keys: o.base.keys, declared: Object.keys(o.base.keys), poles: o.base.poles };
  return newTopic(o.parsed, t, i, keying, o.all, o.info, o.problems);
}

/**
 * A base topic the file gives texts in its added languages: it may set nothing the base file
 * sets (fields, base-language items). Returns the items it adds.
 */
function extendedTopic(o: Overlay, t: TopicInput, i: number): Record<string, TopicItem> {
  for (const f of ['title', 'key', 'affirmative_pole', 'poles'] as const) {
    if (t[f] !== undefined)
      refuse(
        o,
        ['topics', i, f],
        `topic "${t.id}" inherits ${f} from the base file`,
        `remove ${f}`,
      );
  }
  for (const lang of Object.keys(t.items)) {
    if (o.base.languages.includes(lang))
      refuse(
        o,
        ['topics', i, 'items', lang],
        `topic "${t.id}" already has its ${lang} item in the base file`,
        'an extending file adds languages and topics; fix the base text in the base file',
      );
  }
  const own = Object.fromEntries(
    Object.entries(t.items).filter(([l]) => !o.base.languages.includes(l)),
  );
  return resolveItems(o.parsed, { ...t, items: own }, i, o.added, o.info, o.problems);
}

/** Check and resolve the file's topics in file order: new topics, and texts for base topics. */
function overlayTopics(o: Overlay): OverlayTopics {
  const out: OverlayTopics = { newTopics: [], addedItems: new Map() };
  o.data.topics.forEach((t, i) => {
    if (o.baseIds.has(t.id)) {
      out.addedItems.set(t.id, extendedTopic(o, t, i));
      return;
    }
    const topic = addedTopic(o, t, i);
    if (topic) out.newTopics.push(topic);
  });
  return out;
}

/** A file must add a language or a topic, unless it combines files (`extends` lists several). */
function checkAddsSomething(o: Overlay, newTopics: Topic[]): void {
  if (
    extendsList(o.data.extends).length < 2 &&
    o.added.length === 0 &&
    newTopics.length === 0 &&
    o.data.topics.every((t) => o.baseIds.has(t.id))
  ) {
    refuse(
      o,
      ['languages'],
      'this file adds neither a language nor a topic',
      'add a language (with every topic in it) or a new topic (in every language)',
    );
  }
}

/** The base with the file's title, added languages, added items and new topics, and its input. */
function merge(o: Overlay, { newTopics, addedItems }: OverlayTopics, input: InputFile): TopicsFile {
  const { base, added } = o;
  return {
    ...base,
    title: o.data.title ?? base.title,
    languages: o.all,
    language_info: {
      ...base.language_info,
      ...Object.fromEntries(added.map((l) => [l, o.info[l]!])),
    },
    default_languages: added.length > 0 ? added : base.default_languages,
    topics: [
      ...base.topics.map((t) => ({ ...t, items: { ...t.items, ...addedItems.get(t.id) } })),
      ...newTopics,
    ],
    inputs: [...base.inputs, input],
  };
}

/**
 * Apply an extending file to its base: check what it may not set, its topics and that it adds
 * something; throw every problem at once
 * (E_TOPICS_INVALID, or the one code); else return the merged file.
 */
export function applyOverlay(
  base: TopicsFile,
  { data, parsed, input }: LoadedFile<TopicsFileInput>,
): TopicsFile {
  const o = overlayOf(base, data, parsed);
  checkInheritedFields(o);
  duplicateIds(parsed, data.topics, o.problems);
  const topics = overlayTopics(o);
  checkAddsSomething(o, topics.newTopics);
  throwIfProblems('E_TOPICS_INVALID', parsed.file, 'topics file', o.problems);
  return merge(o, topics, input);
}
